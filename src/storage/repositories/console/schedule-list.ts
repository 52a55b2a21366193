import type { Queryable } from '../../port.js';
import { toStored, type ScheduleRow, type ScheduleStatus, type StoredSchedule } from '../schedules.js';

/** A schedule as the console's list shows it: the schedule and whose it is. */
export interface ListedSchedule {
  readonly schedule: StoredSchedule;
  readonly entityName: string;
  readonly merchantId: string;
}

export interface ScheduleListQuery {
  /** The entities the person may see; null for every entity (an operator). */
  readonly entityIds: readonly string[] | null;
  /** An operator's filter: the merchant and its channels. */
  readonly merchantId: string | undefined;
  readonly status: ScheduleStatus;
  readonly limit: number;
}

type Row = ScheduleRow & { entity_name: string; merchant_id: string };

/**
 * Schedules the person may see, the visibility and filters in the query's own WHERE. Active
 * ones in the order of their next fire time (migration 056's partial index), ended ones newest
 * end first.
 */
export async function listConsoleSchedules(db: Queryable, query: ScheduleListQuery): Promise<ListedSchedule[]> {
  const order = query.status === 'active' ? 's.fire_at, s.id' : 's.ended_at DESC, s.id';
  const { rows } = await db.query<Row>(
    `SELECT s.*, e.name AS entity_name, COALESCE(e.merchant_id, e.id) AS merchant_id
       FROM schedules s JOIN entities e ON e.id = s.entity_id
      WHERE s.status = $1
        AND ($2::text[] IS NULL OR s.entity_id = ANY($2::char(32)[]))
        AND ($3::text IS NULL OR e.id = $3 OR e.merchant_id = $3)
      ORDER BY ${order} LIMIT $4`,
    [query.status, query.entityIds, query.merchantId ?? null, query.limit],
  );
  return rows.map((row) => ({ schedule: toStored(row), entityName: row.entity_name, merchantId: row.merchant_id }));
}

/** One schedule by id, if the person may see it (null entityIds: every entity). */
export async function findConsoleSchedule(db: Queryable, entityIds: readonly string[] | null, id: string): Promise<ListedSchedule | undefined> {
  const { rows } = await db.query<Row>(
    `SELECT s.*, e.name AS entity_name, COALESCE(e.merchant_id, e.id) AS merchant_id
       FROM schedules s JOIN entities e ON e.id = s.entity_id
      WHERE s.id = $1 AND ($2::text[] IS NULL OR s.entity_id = ANY($2::char(32)[]))`,
    [id, entityIds],
  );
  const row = rows[0];
  return row ? { schedule: toStored(row), entityName: row.entity_name, merchantId: row.merchant_id } : undefined;
}
