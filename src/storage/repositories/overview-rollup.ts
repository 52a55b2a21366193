import type { Queryable, SqlValue } from '../port.js';

/**
 * The overview's figures as SQL (migration 054). One fold (FACTS) turns transactions into rollup
 * rows; the job writes its output into overview_daily, and the page adds the same fold over the
 * rows the job has not read yet, so both halves count alike.
 */

/** The payment types whose approvals, declines and breakdowns the overview shows. */
export const PAYMENT_TYPES = ['PA', 'DB'] as const;

/**
 * Rollup rows of the transactions `t` that `where` picks: a day (UTC), the entity, type, status,
 * and one row per breakdown. The 3-D Secure flow: a challenge redirect, or else a threeDSecure
 * block in the answer (frictionless), or none.
 */
function facts(where: string, source = 'transactions'): string {
  return `
    SELECT (t.created_at AT TIME ZONE 'UTC')::date AS day, t.entity_id, t.payment_type, t.status,
           d.dimension, d.value, CASE WHEN d.dimension = 'all' THEN t.currency::text ELSE '' END AS currency,
           CASE WHEN d.dimension = 'all' THEN t.amount_minor ELSE 0 END AS amount_minor
      FROM ${source} t
      CROSS JOIN LATERAL (VALUES
        ('all', ''),
        ('brand', coalesce(t.payment_brand, '')),
        ('connector', t.connector_id),
        ('result', CASE
           WHEN EXISTS (SELECT 1 FROM shopper_redirects r WHERE r.transaction_id = t.id AND r.purpose = 'challenge') THEN 'challenge'
           WHEN (t.response::jsonb) ? 'threeDSecure' THEN 'frictionless'
           ELSE 'none' END || ':' || t.result_code)
      ) AS d (dimension, value)
     WHERE (${where}) AND (d.dimension = 'all' OR t.payment_type IN ('PA', 'DB'))`;
}

const GROUPED = (source: string): string => `
  SELECT day, entity_id, payment_type, currency, status, dimension, value, count(*) AS count, sum(amount_minor) AS amount_minor
    FROM (${source}) AS f
   GROUP BY day, entity_id, payment_type, currency, status, dimension, value`;

const ADD_INTO_ROLLUP = (where: string): string => `
  INSERT INTO overview_daily (day, entity_id, payment_type, currency, status, dimension, value, count, amount_minor)
  ${GROUPED(facts(where))}
  ON CONFLICT (day, entity_id, payment_type, currency, status, dimension, value)
  DO UPDATE SET count = overview_daily.count + excluded.count, amount_minor = overview_daily.amount_minor + excluded.amount_minor`;

/** The watermark, locked for this transaction (one job run at a time); null before the first run. */
export async function lockWatermark(tx: Queryable): Promise<Date | null> {
  const found = await tx.query<{ rolled_until: Date | null }>('SELECT rolled_until FROM overview_watermark FOR UPDATE');
  return found.rows[0]?.rolled_until ?? null;
}

/** The first transaction's time, where a first run starts. */
export async function firstTransactionAt(db: Queryable): Promise<Date | null> {
  const found = await db.query<{ first: Date | null }>('SELECT min(created_at) AS first FROM transactions');
  return found.rows[0]?.first ?? null;
}

/** Folds the open transactions that are no longer pending into the rollup; returns how many. */
export async function foldSettledOpenRows(tx: Queryable): Promise<number> {
  const settled = await tx.query<{ id: string }>(
    `DELETE FROM overview_open o USING transactions t WHERE o.id = t.id AND t.status <> 'pending' RETURNING o.id`);
  if (settled.rowCount === 0) return 0;
  await tx.query(ADD_INTO_ROLLUP('t.id = ANY($1::char(32)[])'), [settled.rows.map((row) => row.id)]);
  return settled.rowCount;
}

/**
 * Reads the transactions created in [from, to): the pending ones are kept open, the others added
 * into the rollup; the watermark moves to `to`. Returns how many were read.
 */
export async function rollUpRange(tx: Queryable, from: Date | null, to: Date): Promise<number> {
  const range = 't.created_at >= $1::timestamptz AND t.created_at < $2::timestamptz';
  const params: SqlValue[] = [from ?? new Date(0), to];
  const opened = await tx.query(`INSERT INTO overview_open (id) SELECT t.id FROM transactions t WHERE ${range} AND t.status = 'pending'`, params);
  const added = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM transactions t WHERE ${range} AND t.status <> 'pending'`, params);
  await tx.query(ADD_INTO_ROLLUP(`${range} AND t.status <> 'pending'`), params);
  await tx.query('UPDATE overview_watermark SET rolled_until = $1', [to]);
  return opened.rowCount + Number(added.rows[0]?.n ?? 0);
}

/** One figure of the period: the sum over its days of one rollup key, per channel. */
export interface OverviewCell {
  readonly entityId: string;
  readonly paymentType: string;
  readonly currency: string;
  readonly status: string;
  readonly dimension: 'all' | 'brand' | 'connector' | 'result';
  readonly value: string;
  readonly count: number;
  readonly amountMinor: bigint;
}

export interface OverviewQuery {
  /** Start (inclusive) and end (exclusive) of the period: midnights, UTC. */
  readonly from: Date;
  readonly to: Date;
  /** The entities whose figures count; null: every entity (operators, unfiltered). */
  readonly entityIds: readonly string[] | null;
}

/**
 * The period's cells: the rollup's days, plus the same fold over what the job has not read (the
 * rows after the watermark and the open ones), in one statement so one snapshot sees all three.
 */
export async function overviewCells(db: Queryable, query: OverviewQuery): Promise<OverviewCell[]> {
  const entity = query.entityIds === null ? 'true' : 'entity_id = ANY($3::char(32)[])';
  const liveEntity = query.entityIds === null ? 'true' : 't.entity_id = ANY($3::char(32)[])';
  // Two disjoint parts, each bounded by an index: the rows after the watermark (a range of
  // transactions_created_idx) and the open rows before it (their primary keys).
  const after = facts(`t.created_at >= greatest($1::timestamptz, (SELECT coalesce(rolled_until, '-infinity') FROM overview_watermark)) AND t.created_at < $2 AND ${liveEntity}`);
  // OFFSET 0 keeps the period's bounds out of the subquery: the open rows are found by primary
  // key only, never by and-ing a scan of the whole period's created_at range.
  const open = facts(`t.created_at >= $1 AND t.created_at < $2 AND ${liveEntity} AND t.created_at < (SELECT coalesce(rolled_until, '-infinity') FROM overview_watermark)`,
    '(SELECT * FROM transactions WHERE id = ANY(ARRAY(SELECT id FROM overview_open)) OFFSET 0)');
  const live = `${after} UNION ALL ${open}`;
  const params: SqlValue[] = [query.from, query.to];
  if (query.entityIds !== null) params.push(query.entityIds);
  const found = await db.query<{ entity_id: string; payment_type: string; currency: string; status: string; dimension: OverviewCell['dimension']; value: string; count: string; amount_minor: string }>(`
    SELECT entity_id, payment_type, currency, status, dimension, value, sum(count) AS count, sum(amount_minor) AS amount_minor
      FROM (
        SELECT entity_id, payment_type, currency, status, dimension, value, count, amount_minor
          FROM overview_daily
         WHERE day >= ($1::timestamptz AT TIME ZONE 'UTC')::date AND day < ($2::timestamptz AT TIME ZONE 'UTC')::date AND ${entity}
        UNION ALL
        SELECT entity_id, payment_type, currency, status, dimension, value, count, amount_minor FROM (${GROUPED(live)}) AS l
      ) AS cells
     GROUP BY entity_id, payment_type, currency, status, dimension, value`, params);
  return found.rows.map((row) => ({
    entityId: row.entity_id,
    paymentType: row.payment_type,
    currency: row.currency,
    status: row.status,
    dimension: row.dimension,
    value: row.value,
    count: Number(row.count),
    amountMinor: BigInt(row.amount_minor),
  }));
}

/** The pending backlog now (not of the period): how many, and since when the oldest waits. */
export async function pendingBacklog(db: Queryable, entityIds: readonly string[] | null): Promise<{ readonly count: number; readonly oldest: Date | null }> {
  const found = await db.query<{ n: string; oldest: Date | null }>(
    `SELECT count(*) AS n, min(created_at) AS oldest FROM transactions WHERE status = 'pending' ${entityIds === null ? '' : 'AND entity_id = ANY($1::char(32)[])'}`,
    entityIds === null ? [] : [entityIds]);
  return { count: Number(found.rows[0]?.n ?? 0), oldest: found.rows[0]?.oldest ?? null };
}
