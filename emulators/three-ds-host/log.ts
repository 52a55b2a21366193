/**
 * What the 3DS test platform believes happened, one entry per transaction (keyed by the 3DS
 * Server's threeDSServerTransID), with a summary of every message in and out: the test's point of
 * comparison with what a gateway stored. Kept in memory; GET /log serves it as JSON. No summary
 * holds a card number: the AReq's acctNumber is kept as its first six and last four digits.
 */
/** Method: the browser loaded the ACS's 3DS Method URL (no EMV message, but a step a test checks). */
export type LoggedType = 'AReq' | 'ARes' | 'CReq' | 'CRes' | 'RReq' | 'RRes' | 'PReq' | 'PRes' | 'Erro' | 'Method';

export interface LoggedMessage {
  readonly type: LoggedType;
  /** in: received by the platform; out: sent by it. */
  readonly direction: 'in' | 'out';
  readonly at: string;
  /** The few fields a test compares (transStatus, eci, authenticationValue, error code…), never the PAN. */
  readonly summary: Readonly<Record<string, string>>;
}

export interface LogEntry {
  readonly threeDSServerTransID: string;
  acsTransID?: string;
  dsTransID?: string;
  /** 400000******1000 */
  maskedPan?: string;
  /** The table row's outcome that answered the AReq. */
  outcome?: string;
  readonly messages: LoggedMessage[];
}

/** Keeps the first six and last four digits: what PCI DSS lets a log show. */
export function maskPan(pan: string): string {
  if (pan.length < 13) return '*'.repeat(pan.length);
  return `${pan.slice(0, 6)}${'*'.repeat(pan.length - 10)}${pan.slice(-4)}`;
}

/** The fields of a message worth comparing, as strings; absent ones are left out. */
export function summarise(message: object, fields: readonly string[]): Record<string, string> {
  const summary: Record<string, string> = {};
  for (const field of fields) {
    const value = (message as Readonly<Record<string, unknown>>)[field];
    if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') summary[field] = String(value);
  }
  return summary;
}

/** The fields each message type's summary keeps. acctNumber is in none of them. */
export const SUMMARY_FIELDS: Readonly<Record<LoggedType, readonly string[]>> = {
  AReq: ['messageVersion', 'threeDSCompInd', 'deviceChannel', 'messageCategory', 'purchaseAmount', 'purchaseCurrency', 'purchaseExponent', 'threeDSRequestorID', 'acquirerMerchantID', 'sdkTransID', 'sdkAppID', 'threeRIInd', 'priorAuthRef', 'priorAuthMethod', 'threeDSRequestorAuthenticationInd', 'threeDSRequestorChallengeInd', 'recurringExpiry', 'recurringFrequency', 'purchaseInstalData'],
  ARes: ['messageVersion', 'transStatus', 'transStatusReason', 'eci', 'authenticationValue', 'acsChallengeMandated', 'acsURL', 'sdkTransID', 'acsSignedContent', 'malformed'],
  CReq: ['messageVersion', 'challengeWindowSize', 'challengeCancel', 'sdkTransID', 'sdkCounterStoA'],
  CRes: ['messageVersion', 'challengeCompletionInd', 'transStatus', 'acsCounterAtoS'],
  RReq: ['messageVersion', 'messageCategory', 'transStatus', 'transStatusReason', 'eci', 'authenticationValue', 'challengeCancel', 'interactionCounter'],
  RRes: ['messageVersion', 'resultsStatus', 'error'],
  PReq: ['messageVersion', 'serialNum'],
  PRes: ['messageVersion', 'serialNum', 'cardRanges'],
  Erro: ['messageVersion', 'errorCode', 'errorComponent', 'errorDetail', 'errorMessageType'],
  Method: ['notificationOrigin'],
};

export class ThreeDsLog {
  readonly #byServerTransId = new Map<string, LogEntry>();
  readonly #order: LogEntry[] = [];

  constructor(private readonly clock: () => Date) {}

  /** The entry of a transaction, created on first use. */
  entry(threeDSServerTransID: string): LogEntry {
    let entry = this.#byServerTransId.get(threeDSServerTransID);
    if (!entry) {
      entry = { threeDSServerTransID, messages: [] };
      this.#byServerTransId.set(threeDSServerTransID, entry);
      this.#order.push(entry);
    }
    return entry;
  }

  /** Records a message of a transaction; its summary keeps only SUMMARY_FIELDS of its type. */
  record(threeDSServerTransID: string, type: LoggedType, direction: 'in' | 'out', message: object): void {
    const summary = summarise(message, SUMMARY_FIELDS[type]);
    this.entry(threeDSServerTransID).messages.push({ type, direction, at: this.clock().toISOString(), summary });
  }

  get(threeDSServerTransID: string): LogEntry | undefined {
    return this.#byServerTransId.get(threeDSServerTransID);
  }

  entries(): readonly LogEntry[] {
    return this.#order;
  }
}
