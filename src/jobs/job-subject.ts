/**
 * What a job acts on, for its log lines: the ids its payload names, and nothing else of it (a
 * reversal advice's payload holds the original message's fields; a payload is never logged whole).
 */
export interface JobSubject {
  transactionId?: string;
  deliveryId?: string;
  scheduleId?: string;
  checkoutId?: string;
}

const SUBJECT_KEYS = ['transactionId', 'deliveryId', 'scheduleId', 'checkoutId'] as const;
/** Ids as the gateway makes them (hex, a checkout's dotted suffix); anything else in a payload is not an id. */
const ID = /^[A-Za-z0-9.-]{1,64}$/;

function idAt(source: unknown, key: string): string | undefined {
  const value = typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' && ID.test(value) ? value : undefined;
}

export function jobSubject(payload: Readonly<Record<string, unknown>>): JobSubject {
  const subject: JobSubject = {};
  for (const key of SUBJECT_KEYS) {
    const id = idAt(payload, key);
    if (id !== undefined) subject[key] = id;
  }
  // A reversal advice names the payment it reverses inside the original message's fields.
  const original = idAt(payload['original'], 'transactionId');
  if (subject.transactionId === undefined && original !== undefined) subject.transactionId = original;
  return subject;
}
