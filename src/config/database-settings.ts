import { readEnum, readInteger, readUrl, type Env } from './env-readers.js';

/** A streaming replica for the reads that tolerate a bounded staleness (docs/operations.md, "Read replicas"). */
export interface ReadReplicaSettings {
  readonly url: string;
  /** The most a replica read may be behind the leader; further behind, the leader answers. */
  readonly maxLagMs: number;
  /** How long one measure of the replica's lag is trusted before the next (two small queries). */
  readonly lagCheckMs: number;
}

/**
 * `session`: every connection is the gateway's own for its life (PostgreSQL directly, or a pooler
 * in session mode). `transaction`: a pooler such as PgBouncer in transaction mode hands the server
 * connection to others between transactions, so nothing may outlive a transaction on it.
 */
export type DatabasePoolMode = 'session' | 'transaction';

export const DATABASE_VARIABLES = [
  ['DATABASE_POOL_MODE', 'session', '`transaction` when DATABASE_URL is a pooler in transaction mode (PgBouncer `pool_mode = transaction`): no named prepared statements, no session settings, no statement_timeout startup parameter (docs/operations.md, "Behind PgBouncer"); `session` otherwise.'],
  ['DATABASE_READ_URL', '(unset)', 'postgres://… of a streaming replica for the reads that tolerate a bounded staleness (the query API, settlement reports, the console\'s payment search and export); unset: every read goes to DATABASE_URL.'],
  ['READ_REPLICA_MAX_LAG_MS', '2000', 'With DATABASE_READ_URL: the most a replica read may be behind the leader; when the replica is further behind, or unreachable, the leader answers. An entity\'s own writes are always visible to it.'],
  ['READ_REPLICA_LAG_CHECK_MS', '500', 'With DATABASE_READ_URL: how long one measure of the replica\'s lag is trusted (one query to each server per period, only while reads come); must be below READ_REPLICA_MAX_LAG_MS.'],
] as const;

export function readPoolMode(env: Env, problems: string[]): DatabasePoolMode {
  return readEnum<DatabasePoolMode>(env, 'DATABASE_POOL_MODE', ['session', 'transaction'], 'session', problems);
}

export function collectReadReplicaSettings(env: Env, databaseUrl: string | undefined, problems: string[]): ReadReplicaSettings | undefined {
  const maxLagMs = readInteger(env, 'READ_REPLICA_MAX_LAG_MS', 2_000, 1, 3_600_000, problems);
  const lagCheckMs = readInteger(env, 'READ_REPLICA_LAG_CHECK_MS', 500, 10, 60_000, problems);
  const url = readUrl(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:'], problems);
  if (url === undefined) return undefined;
  if (databaseUrl === undefined) problems.push('DATABASE_READ_URL needs DATABASE_URL: the embedded database has no replica');
  if (lagCheckMs >= maxLagMs) problems.push('READ_REPLICA_LAG_CHECK_MS must be below READ_REPLICA_MAX_LAG_MS: a measure is trusted that long, so it is part of the bound');
  return Object.freeze({ url, maxLagMs, lagCheckMs });
}
