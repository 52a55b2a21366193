import type { Queryable } from '../port.js';

/** The days from `from` to `to` (inclusive) a run has finished. */
export async function finishedDays(db: Queryable, from: string, to: string): Promise<Set<string>> {
  const { rows } = await db.query<{ day: string }>(
    `SELECT to_char(settlement_date, 'YYYY-MM-DD') AS day FROM settlement_days WHERE settlement_date BETWEEN $1::date AND $2::date`,
    [from, to],
  );
  return new Set(rows.map((r) => r.day));
}

export async function isDayFinished(db: Queryable, day: string): Promise<boolean> {
  return (await finishedDays(db, day, day)).has(day);
}

export async function markDayFinished(db: Queryable, day: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO settlement_days (settlement_date, finished_at) VALUES ($1::date, $2)
     ON CONFLICT (settlement_date) DO UPDATE SET finished_at = EXCLUDED.finished_at`,
    [day, at],
  );
}

/** These days are no longer finished: records were added that their files do not hold yet. */
export async function reopenDays(db: Queryable, days: readonly string[]): Promise<void> {
  if (days.length === 0) return;
  await db.query('DELETE FROM settlement_days WHERE settlement_date = ANY($1::date[])', [days]);
}
