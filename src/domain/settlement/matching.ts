/**
 * How a settlement record finds the transaction it settles (docs/settlement.md, "Matching").
 * Pure: the caller loads the candidates, these rules decide.
 */

export type MatchingStatus = 'MATCHED' | 'MULTIPLE_MATCHES' | 'NOT_MATCHED';

/** A stored transaction as matching sees it. */
export interface MatchCandidate {
  readonly id: string;
  readonly entityId: string;
  readonly paymentType: string;
  readonly status: string;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly merchantTransactionId: string | null;
  readonly createdAt: Date;
  /** ConnectorTxID1 of the transaction. */
  readonly reference: string | null;
}

/** What of a record matching reads. */
export interface MatchableRecord {
  readonly reference: string | null;
  readonly merchantTransactionId: string | null;
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly transactionDate: Date;
}

export interface MatchDecision {
  readonly status: MatchingStatus;
  /** The matched transactions' ids, in id order (several for MULTIPLE_MATCHES). */
  readonly matchedIds: readonly string[];
  readonly by: 'reference' | 'fallback' | 'none';
}

/** The gateway's own rows are never what an acquirer settled. */
const NOT_SETTLED_TYPES: ReadonlySet<string> = new Set(['CB', 'CR', 'RV', 'PA']);

/** Candidates that could be the settled transaction at all: a successful money movement. */
function settleable(candidate: MatchCandidate): boolean {
  return candidate.status === 'success' && !NOT_SETTLED_TYPES.has(candidate.paymentType);
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The fallback: same merchantTransactionId, amount, currency and UTC day of the transaction. */
export function fallbackFits(record: MatchableRecord, candidate: MatchCandidate): boolean {
  return record.merchantTransactionId !== null
    && candidate.merchantTransactionId === record.merchantTransactionId
    && candidate.amountMinor === record.amountMinor
    && candidate.currency === record.currency
    && utcDay(candidate.createdAt) === utcDay(record.transactionDate);
}

function decided(matches: readonly MatchCandidate[], by: 'reference' | 'fallback'): MatchDecision {
  const matchedIds = matches.map((m) => m.id).sort();
  return { status: matches.length === 1 ? 'MATCHED' : 'MULTIPLE_MATCHES', matchedIds, by };
}

/**
 * The connector's reference first: the acquirer's own id of the transaction is the strongest
 * evidence there is. Only a record without a reference that names a transaction falls back to
 * merchantTransactionId, amount, currency and day, which merchants may repeat: two or more fits
 * are MULTIPLE_MATCHES and nothing is charged back on a guess.
 */
export function decideMatch(record: MatchableRecord, candidates: readonly MatchCandidate[]): MatchDecision {
  const usable = candidates.filter(settleable);
  if (record.reference !== null) {
    const byReference = usable.filter((c) => c.reference === record.reference);
    if (byReference.length > 0) return decided(byReference, 'reference');
  }
  const byFallback = usable.filter((c) => fallbackFits(record, c));
  if (byFallback.length > 0) return decided(byFallback, 'fallback');
  return { status: 'NOT_MATCHED', matchedIds: [], by: 'none' };
}
