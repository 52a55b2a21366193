/** Settlement days are UTC calendar days written YYYY-MM-DD (the simulated acquirer's business day). */

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Is `day` a real calendar day in YYYY-MM-DD form? */
export function isSettlementDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** YYYY-MM-DD plus `days` (may be negative). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The start of the day and of the next one: [from, to). */
export function dayBounds(day: string): { readonly from: Date; readonly to: Date } {
  const from = new Date(`${day}T00:00:00Z`);
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

/** The UTC day of an instant. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The days after `last` up to and including `until`, at most `limit` of them (the latest ones). */
export function daysToCatchUp(last: string | null, until: string, limit: number): string[] {
  const days: string[] = [];
  for (let day = until; days.length < limit && (last === null || day > last); day = addDays(day, -1)) days.unshift(day);
  return days;
}
