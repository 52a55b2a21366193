/**
 * What must hold in the transactions table whatever happened to the processes writing it:
 * after two gateways raced on the same parents, or after one was killed in the middle of a load.
 * Every check answers the number of offending rows, 0 when all is well.
 */
import type pg from 'pg';

/** Success codes of the result catalogue (the same pattern the tests use). */
const SUCCESS_CODE = String.raw`^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)`;
/** Pending codes: 000.200.xxx. */
const PENDING_CODE = String.raw`^000\.200`;

export const LEDGER_CHECKS = {
  /** The primary key guarantees this; counted anyway, since scale-out is what would break it. */
  duplicateIds: 'SELECT count(*) - count(DISTINCT id) AS n FROM transactions',
  capturedOrRefundedAboveAmount: 'SELECT count(*) AS n FROM transactions WHERE captured_minor > amount_minor OR refunded_minor > amount_minor',
  /**
   * A parent's running totals equal the sum of its captures and refunds that were not declined.
   * Pending children count: their amount stays reserved until an outcome is known.
   */
  parentTotalsDifferFromChildren: `
    WITH sums AS (
      SELECT parent_id,
             coalesce(sum(amount_minor) FILTER (WHERE payment_type = 'CP' AND status <> 'rejected'), 0) AS captured,
             coalesce(sum(amount_minor) FILTER (WHERE payment_type = 'RF' AND status <> 'rejected'), 0) AS refunded
        FROM transactions WHERE parent_id IS NOT NULL GROUP BY parent_id)
    SELECT count(*) AS n FROM transactions p LEFT JOIN sums s ON s.parent_id = p.id
     WHERE p.parent_id IS NULL AND (p.captured_minor <> coalesce(s.captured, 0) OR p.refunded_minor <> coalesce(s.refunded, 0))`,
  /** The stored answer is the row's own: same id, same result code as the column. */
  responseDisagreesWithRow: `
    SELECT count(*) AS n FROM transactions
     WHERE response->>'id' IS DISTINCT FROM id OR response->'result'->>'code' IS DISTINCT FROM result_code`,
  /** success ⇔ a success code, pending ⇔ 000.200.x, rejected ⇔ anything else. */
  statusDisagreesWithCode: `
    SELECT count(*) AS n FROM transactions
     WHERE (status = 'success') <> (result_code ~ '${SUCCESS_CODE}')
        OR (status = 'pending') <> (result_code ~ '${PENDING_CODE}')`,
} as const;

export type LedgerCheck = keyof typeof LEDGER_CHECKS;

export async function runLedgerChecks(client: pg.Client): Promise<Record<LedgerCheck, number>> {
  const results = {} as Record<LedgerCheck, number>;
  for (const [name, sql] of Object.entries(LEDGER_CHECKS) as [LedgerCheck, string][]) {
    const { rows } = await client.query<{ n: string }>(sql);
    results[name] = Number(rows[0]?.n ?? 0);
  }
  return results;
}

export async function countByTypeAndStatus(client: pg.Client): Promise<Record<string, number>> {
  const { rows } = await client.query<{ payment_type: string; status: string; n: string }>(
    'SELECT payment_type, status, count(*) AS n FROM transactions GROUP BY 1, 2 ORDER BY 1, 2');
  return Object.fromEntries(rows.map((row) => [`${row.payment_type} ${row.status}`, Number(row.n)]));
}
