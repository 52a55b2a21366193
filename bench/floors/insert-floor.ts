/**
 * The database floor: a plain `pg` pool, as many connections as the gateway's pool, kept busy by
 * as many concurrent callers as the load has connections, each inserting one payment-sized row
 * per transaction (autocommit): what this machine's PostgreSQL does when every write is its own
 * commit. The gateway writes twice per payment but shares statements and commits between
 * concurrent payments (group commit), so this is a yardstick, not a ceiling.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { PhaseResult } from '../load.js';
import { latencySummary } from '../support/stats.js';

export interface InsertFloorOptions {
  /** DATABASE_URL of the schema holding the gateway's `transactions` table. */
  readonly url: string;
  readonly concurrency: number;
  readonly poolSize: number;
  readonly durationSeconds: number;
  /** A real stored payment row, copied with a new id each time so the row size is the gateway's. */
  readonly template: Readonly<Record<string, unknown>>;
  /** Said after the phase's name, e.g. which gateway phase it follows. */
  readonly label?: string;
}

const COLUMNS = [
  'id', 'entity_id', 'parent_id', 'payment_type', 'status', 'result_code', 'amount_minor', 'currency', 'captured_minor',
  'refunded_minor', 'capture_count', 'max_captures', 'capture_closed', 'refund_closed', 'reversed_at', 'is_final',
  'payment_brand', 'payment_method', 'merchant_transaction_id', 'short_id', 'connector_id', 'connector_references',
  'scheme_transaction_id', 'response', 'created_at', 'updated_at',
] as const;

const INSERT = `INSERT INTO floor_transactions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

function rowValues(template: Readonly<Record<string, unknown>>): unknown[] {
  const now = new Date();
  return COLUMNS.map((column) => {
    if (column === 'id') return randomBytes(16).toString('hex');
    if (column === 'created_at' || column === 'updated_at') return now;
    const value = template[column];
    // The gateway serialises these JSON columns on every write; so does the floor.
    return column === 'response' || column === 'connector_references' ? JSON.stringify(value) : value;
  });
}

async function callerLoop(pool: pg.Pool, options: InsertFloorOptions, deadline: number, latenciesMs: number[], failures: { count: number }) {
  while (performance.now() < deadline) {
    const started = performance.now();
    try {
      await pool.query(INSERT, rowValues(options.template));
      latenciesMs.push(performance.now() - started);
    } catch {
      failures.count += 1;
    }
  }
}

export async function measureInsertFloor(options: InsertFloorOptions): Promise<PhaseResult> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize });
  try {
    // Same columns, defaults, checks and indexes as the gateway's table (not its foreign keys).
    await pool.query('DROP TABLE IF EXISTS floor_transactions');
    await pool.query('CREATE TABLE floor_transactions (LIKE transactions INCLUDING ALL)');
    const latenciesMs: number[] = [];
    const failures = { count: 0 };
    const started = performance.now();
    const deadline = started + options.durationSeconds * 1000;
    await Promise.all(Array.from({ length: options.concurrency }, () => callerLoop(pool, options, deadline, latenciesMs, failures)));
    const durationSeconds = (performance.now() - started) / 1000;
    await pool.query('DROP TABLE floor_transactions');
    return {
      name: `floor: pg insert, pool ${options.poolSize}${options.label ?? ''}`,
      connections: options.concurrency,
      durationSeconds,
      requests: latenciesMs.length,
      requestsPerSecond: latenciesMs.length / durationSeconds,
      latencyMs: latencySummary(latenciesMs),
      errors: failures.count,
      timeouts: 0,
      non2xx: 0,
      statusCodes: {},
    };
  } finally {
    await pool.end();
  }
}
