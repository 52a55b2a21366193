import { createHash } from 'node:crypto';

/**
 * Values of a reconciliation record the specification requires but a record may not carry:
 * TransactionId (merchantTransactionId, "merchant-provided or generated", R) and
 * SettlementFileFormat (settlement.format, AN32, R). Pure rules.
 */

/** settlement.format is AN32 (spec "Reconciliation file"). */
export const FILE_FORMAT_MAX_LENGTH = 32;
const FORMAT_SUFFIX = '-settlement';

/**
 * The name of the settlement file format a connector's feed is read in, whole: never cut to 32
 * characters. `<connector>-settlement` when it fits (simulator-settlement, acquirer-host-settlement);
 * else the connector id alone (external-test-platform); a connector id longer than 32 characters
 * gets `settlement-` and 21 hex digits of its SHA-256: a cut name could make two feeds look alike.
 */
export function settlementFileFormat(connectorId: string): string {
  const named = `${connectorId}${FORMAT_SUFFIX}`;
  if (named.length <= FILE_FORMAT_MAX_LENGTH) return named;
  if (connectorId.length <= FILE_FORMAT_MAX_LENGTH) return connectorId;
  return `settlement-${createHash('sha256').update(connectorId).digest('hex').slice(0, FILE_FORMAT_MAX_LENGTH - 'settlement-'.length)}`;
}

export interface TransactionIdSources {
  /** What the acquirer's record says, else what the merchant sent with the matched payment. */
  readonly merchantProvided: string | null;
  /** The payment the record matched (MATCHED only). */
  readonly paymentId: string | null;
  /** The record's own id in the gateway (stored once per connector and acquirer record id). */
  readonly recordRowId: string;
}

/**
 * A record's merchantTransactionId: the merchant's own when there is one; otherwise generated,
 * stable across runs, files and reports: the matched payment's id (32 alphanumerics, within the
 * spec's 8 to 255, the same for every record of that payment: its settlement, chargeback and
 * reversal), else, for a record that matched no single payment (a fee, a line nobody knows), the
 * record's own id, which a settlement day run again never changes (records are stored once).
 */
export function reconciliationTransactionId(sources: TransactionIdSources): string {
  return sources.merchantProvided ?? sources.paymentId ?? sources.recordRowId;
}
