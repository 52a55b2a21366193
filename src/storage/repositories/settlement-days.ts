import type { Queryable } from '../port.js';

/** The last settlement day the daily run finished, if any. */
export async function lastFinishedDay(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ day: string | null }>(`SELECT to_char(max(settlement_date), 'YYYY-MM-DD') AS day FROM settlement_days`);
  return rows[0]?.day ?? null;
}

export async function markDayFinished(db: Queryable, day: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO settlement_days (settlement_date, finished_at) VALUES ($1::date, $2)
     ON CONFLICT (settlement_date) DO UPDATE SET finished_at = EXCLUDED.finished_at`,
    [day, at],
  );
}
