import type { Queryable } from '../port.js';

/** What beats (migration 061): a job worker, or a gateway process serving requests. */
export type HeartbeatRole = 'worker' | 'gateway';

/** One process, as its heartbeat row names it (a job worker unless the role says otherwise). */
export interface HeartbeatingWorker {
  readonly workerId: string;
  readonly host: string;
  readonly pid: number;
  readonly role?: HeartbeatRole | undefined;
  readonly version?: string | undefined;
}

/** Records that the worker is alive now (the database's now(): hosts' clocks may differ). */
export async function recordHeartbeat(db: Queryable, worker: HeartbeatingWorker): Promise<void> {
  await db.query(
    `INSERT INTO worker_heartbeats (worker_id, host, pid, role, version) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (worker_id) DO UPDATE SET last_beat_at = now()`,
    [worker.workerId, worker.host, worker.pid, worker.role ?? 'worker', worker.version ?? null],
  );
}

/** Deletes the rows of workers that have not beaten for `olderThanMs` (they died without stopping). */
export async function pruneHeartbeats(db: Queryable, olderThanMs: number): Promise<number> {
  const { rowCount } = await db.query("DELETE FROM worker_heartbeats WHERE last_beat_at < now() - $1 * interval '1 millisecond'", [olderThanMs]);
  return rowCount;
}

/** A worker that stops cleanly leaves no row behind that would still look alive. */
export async function removeHeartbeat(db: Queryable, workerId: string): Promise<void> {
  await db.query('DELETE FROM worker_heartbeats WHERE worker_id = $1', [workerId]);
}

/** How long ago the most recent beat of any job worker was (a gateway's beat runs no job); undefined when no worker has a row. */
export async function newestHeartbeatAgeMs(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ age_ms: number | null }>(
    "SELECT (EXTRACT(EPOCH FROM (now() - max(last_beat_at))) * 1000)::float8 AS age_ms FROM worker_heartbeats WHERE role = 'worker'",
  );
  const age = rows[0]?.age_ms;
  return age === null || age === undefined ? undefined : Math.max(0, Number(age));
}

/** Every process with a row, with its last beat's age by the database's clock (the console's system status). */
export async function listHeartbeats(db: Queryable): Promise<(Omit<HeartbeatingWorker, 'role' | 'version'> & { readonly role: HeartbeatRole; readonly version: string | null; readonly startedAt: Date; readonly lastBeatAgeMs: number })[]> {
  const { rows } = await db.query<{ worker_id: string; host: string; pid: number; role: HeartbeatRole; version: string | null; started_at: Date; age_ms: number }>(
    'SELECT worker_id, host, pid, role, version, started_at, (EXTRACT(EPOCH FROM (now() - last_beat_at)) * 1000)::float8 AS age_ms FROM worker_heartbeats ORDER BY role, host, pid',
  );
  return rows.map((r) => ({ workerId: r.worker_id, host: r.host, pid: Number(r.pid), role: r.role, version: r.version, startedAt: new Date(r.started_at), lastBeatAgeMs: Math.max(0, Number(r.age_ms)) }));
}
