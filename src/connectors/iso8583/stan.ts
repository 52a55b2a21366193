/**
 * System trace audit numbers (field 11): six digits, 000001 to 999999, then round again. Each
 * connector instance counts from a random start, so that two gateway processes sharing one
 * terminal rarely reuse a number within the host's duplicate-detection window.
 */
export class StanCounter {
  #last: number;

  constructor(start: number = Math.floor(Math.random() * 999_999)) {
    this.#last = start % 999_999;
  }

  next(): string {
    this.#last = (this.#last % 999_999) + 1;
    return String(this.#last).padStart(6, '0');
  }
}

/** Field 7 (MMDDhhmmss), 12 (hhmmss) and 13 (MMDD), in UTC: the gateway's clock is its time zone. */
export function transmissionFields(now: Date): { 7: string; 12: string; 13: string } {
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${two(now.getUTCMonth() + 1)}${two(now.getUTCDate())}`;
  const time = `${two(now.getUTCHours())}${two(now.getUTCMinutes())}${two(now.getUTCSeconds())}`;
  return { 7: `${date}${time}`, 12: time, 13: date };
}
