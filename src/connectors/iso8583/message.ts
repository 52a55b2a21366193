/**
 * One ISO 8583 message as the gateway handles it: the message type indicator and the present
 * fields as text (digits, characters, or hex for binary fields). Immutable by convention.
 */
export interface IsoMessage {
  /** Four digits: version, class, function, origin (e.g. 0200). */
  readonly mti: string;
  readonly fields: Readonly<Record<number, string>>;
}

/** Where one field's value lies in a packed message: what a trace masks. */
export interface FieldSpan {
  readonly field: number;
  readonly start: number;
  readonly end: number;
}

/** The answer's MTI of a request's: 0100 → 0110, 0420 and 0421 → 0430, 0800 → 0810. */
export function responseMti(requestMti: string): string {
  const klass = requestMti.slice(0, 2);
  const functionDigit = Number(requestMti[2]);
  return `${klass}${functionDigit + 1}0`;
}

/** 0110, 0210, 0430, 0810 …: the third digit is odd. */
export function isResponseMti(mti: string): boolean {
  return /^[0-9]{4}$/.test(mti) && Number(mti[2]) % 2 === 1;
}

/** The request an answer belongs to is named by its MTI class, STAN and terminal. */
export function matchKey(message: IsoMessage): string {
  return `${message.mti.slice(0, 2)}|${message.fields[11] ?? ''}|${message.fields[41] ?? ''}`;
}
