/**
 * What the host believes happened, one entry per request it approved or declined: the test's
 * point of comparison with what the gateway stored. Kept in memory; the host's HTTP query port
 * serves it as JSON.
 */
export type EntryKind = 'authorization' | 'purchase' | 'completion' | 'refund' | 'credit';

export interface LedgerEntry {
  /** The gateway's transaction id (field 48 GW=). */
  readonly gatewayTransactionId: string;
  /** For completions, refunds and merchant reversals: the gateway id of the original. */
  readonly originalTransactionId?: string;
  readonly kind: EntryKind;
  readonly mti: string;
  readonly stan: string;
  readonly rrn: string;
  readonly authCode: string;
  /** Field 39 answered; empty when the answer had none. */
  readonly responseCode: string;
  readonly approved: boolean;
  readonly amountMinor: bigint;
  /** ISO 4217 numeric, as field 49 carried it. */
  readonly currencyNumeric: string;
  readonly panLast4: string;
  readonly at: Date;
  readonly chargeback: boolean;
  /** Set when a reversal (0400) or a reversal advice (0420/0421) undid it. */
  reversedAt?: Date;
  reversedBy?: 'reversal' | 'advice';
}

export class Ledger {
  readonly #byGatewayId = new Map<string, LedgerEntry>();
  readonly #order: LedgerEntry[] = [];

  add(entry: LedgerEntry): void {
    this.#byGatewayId.set(entry.gatewayTransactionId, entry);
    this.#order.push(entry);
  }

  get(gatewayTransactionId: string): LedgerEntry | undefined {
    return this.#byGatewayId.get(gatewayTransactionId);
  }

  entries(): readonly LedgerEntry[] {
    return this.#order;
  }

  /** Does the host hold money moved for this transaction (approved and not reversed)? */
  charged(gatewayTransactionId: string): boolean {
    const entry = this.#byGatewayId.get(gatewayTransactionId);
    return entry !== undefined && entry.approved && entry.reversedAt === undefined;
  }

  /** Approved, unreversed children of an original of one kind: what is left to capture or refund. */
  childrenTotal(originalTransactionId: string, kind: EntryKind): bigint {
    let total = 0n;
    for (const entry of this.#order) {
      if (entry.originalTransactionId === originalTransactionId && entry.kind === kind && entry.approved && entry.reversedAt === undefined) total += entry.amountMinor;
    }
    return total;
  }

  /** The ledger as JSON-ready objects (amounts as strings). */
  toJSON(): object[] {
    return this.#order.map((entry) => ({ ...entry, amountMinor: entry.amountMinor.toString() }));
  }
}
