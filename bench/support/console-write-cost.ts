/**
 * What migration 048 (the console search's terms and indexes) costs the payment path: two
 * gateways, one per schema, loaded one at a time with DB payments, the order alternating by round.
 * "Without" is the schema with the search's indexes dropped (048's three, since migration 062
 * partial on decided rows; 064's wide index of rows pending long; the index of pending rows back to
 * its one column) and payment_search_terms answering NULL.
 * Since the gateway makes the terms itself (domain/payment-search/search-terms.ts), "without"
 * still stores them: what this measures is the three indexes' maintenance and the terms' making.
 */
import { migrate } from '../../src/storage/migrate.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import type { PhaseResult } from '../load.js';
import { paymentPhase } from './gateway-phases.js';
import { startGatewayProcess } from './gateway.js';
import type { NodeProcess } from './node-process.js';
import { createBenchSchema, createMerchant, type BenchSchema } from './postgres.js';

export interface WriteCost {
  /** Median over rounds of 1 − (payments/s with 048) ÷ (payments/s without). */
  readonly fewerPaymentsPerSecond: number;
  /** Median over rounds of the gateway process's CPU per payment, with ÷ without. */
  readonly cpuRatio: number;
  /** Median over rounds of the gateway's database backends' CPU per payment, with ÷ without. */
  readonly databaseCpuRatio: number;
  /**
   * 1 − (CPU per payment without ÷ with), gateway and its database backends together, median over
   * rounds: the payments/s a machine whose cores are the limit loses. The load generator's own CPU
   * (the same in both) is left out, so this overstates the loss a little.
   */
  readonly fewerPaymentsPerSecondByCpu: number;
  readonly rounds: ReadonlyArray<{ readonly without: number; readonly with: number; readonly withoutCpuMs: number; readonly withCpuMs: number }>;
}

/** On-core time (ms) of the database backends whose application_name is `name`, by pid. */
async function backendsOnCoreMs(admin: { query: (sql: string, params: unknown[]) => Promise<{ rows: { pid: number }[] }> }, name: string): Promise<Map<number, number>> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);
  const readings = new Map<number, number>();
  for (const { pid } of rows) {
    const ns = await onCoreNs(pid).catch(() => undefined);
    if (ns !== undefined) readings.set(pid, ns / 1e6);
  }
  return readings;
}

/** What the backends spent between two readings; one that began meanwhile counts from zero. */
function spentMs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

// The search's indexes as migrations 062 and 064 left them (three partial on decided rows; a wide
// index of the rows pending long; the index of pending rows with the id for the search's order and
// the flag),
// back to the schema before 048: none of them, the index of pending rows on its one column.
const WITHOUT_048 = [
  'DROP INDEX transactions_decided_search_terms_idx',
  'DROP INDEX transactions_decided_amount_idx',
  'DROP INDEX transactions_decided_result_code_idx',
  'DROP INDEX transactions_long_pending_search_idx',
  'DROP INDEX transactions_pending_idx',
  `CREATE INDEX transactions_pending_idx ON transactions (created_at) WHERE status = 'pending'`,
  `CREATE OR REPLACE FUNCTION payment_search_terms(response json, merchant_transaction_id text, currency text, payment_brand text, payment_type text)
     RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT NULL::text[] $$`,
];

const APPLICATION_NAME = { with: 'bench_console_with', without: 'bench_console_without' } as const;
const round3 = (value: number) => Math.round(value * 1000) / 1000;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function measureWriteCost(settings: { rounds: number; connections: number; poolSize: number; durationSeconds: number }): Promise<WriteCost> {
  const schemas: Record<'with' | 'without', BenchSchema> = { with: await createBenchSchema('bench_console_with'), without: await createBenchSchema('bench_console_without') };
  const gateways = new Map<'with' | 'without', NodeProcess>();
  try {
    for (const [variant, schema] of Object.entries(schemas) as ['with' | 'without', BenchSchema][]) {
      const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
      await migrate(storage).finally(() => storage.close());
      if (variant === 'without') for (const statement of WITHOUT_048) await schema.admin.query(statement);
      // Named, so that the phase can read its backends' CPU (pg_stat_activity.application_name).
      gateways.set(variant, await startGatewayProcess({ databaseUrl: `${schema.url}&application_name=${APPLICATION_NAME[variant]}`, poolSize: settings.poolSize }));
    }
    const merchants = { with: await createMerchant(schemas.with.url), without: await createMerchant(schemas.without.url) };
    const phase = (variant: 'with' | 'without', seconds: number) => {
      const gateway = gateways.get(variant)!;
      return paymentPhase(`POST /v1/payments DB, ${variant} migration 048`, { url: gateway.url, connections: settings.connections, durationSeconds: seconds, pid: gateway.pid }, merchants[variant], 'DB');
    };
    await phase('without', 3);
    await phase('with', 3);
    type Measured = PhaseResult & { readonly databaseCpuMsPerRequest: number };
    const measured = async (variant: 'with' | 'without'): Promise<Measured> => {
      const before = await backendsOnCoreMs(schemas.with.admin, APPLICATION_NAME[variant]);
      const result = await phase(variant, settings.durationSeconds);
      const after = await backendsOnCoreMs(schemas.with.admin, APPLICATION_NAME[variant]);
      return { ...result, databaseCpuMsPerRequest: spentMs(before, after) / Math.max(1, result.requests) };
    };
    const totalCpu = (r: Measured) => (r.cpuMsPerRequest ?? NaN) + r.databaseCpuMsPerRequest;
    const rounds: Record<'with' | 'without', Measured>[] = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      const order: ('with' | 'without')[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      const results: Partial<Record<'with' | 'without', Measured>> = {};
      for (const variant of order) {
        // As autovacuum would between bursts on a server (this machine runs without it): the dead
        // entries each payment leaves in the index of pending rows are cleared, in both schemas alike.
        await schemas[variant].admin.query('VACUUM transactions');
        await schemas.with.admin.query('CHECKPOINT').catch(() => undefined);
        results[variant] = await measured(variant);
      }
      const r = results as Record<'with' | 'without', Measured>;
      console.log(`  round ${round + 1}: without ${Math.round(r.without.requestsPerSecond)}/s (CPU ${totalCpu(r.without).toFixed(3)} ms: gateway ${r.without.cpuMsPerRequest?.toFixed(3)}, database ${r.without.databaseCpuMsPerRequest.toFixed(3)}), ` +
        `with ${Math.round(r.with.requestsPerSecond)}/s (CPU ${totalCpu(r.with).toFixed(3)} ms: gateway ${r.with.cpuMsPerRequest?.toFixed(3)}, database ${r.with.databaseCpuMsPerRequest.toFixed(3)})`);
      rounds.push(r);
    }
    const cost: WriteCost = {
      fewerPaymentsPerSecond: median(rounds.map((r) => 1 - r.with.requestsPerSecond / r.without.requestsPerSecond)),
      cpuRatio: median(rounds.map((r) => (r.with.cpuMsPerRequest ?? NaN) / (r.without.cpuMsPerRequest ?? NaN))),
      databaseCpuRatio: median(rounds.map((r) => r.with.databaseCpuMsPerRequest / r.without.databaseCpuMsPerRequest)),
      fewerPaymentsPerSecondByCpu: median(rounds.map((r) => 1 - totalCpu(r.without) / totalCpu(r.with))),
      rounds: rounds.map((r) => ({ without: Math.round(r.without.requestsPerSecond), with: Math.round(r.with.requestsPerSecond), withoutCpuMs: round3(totalCpu(r.without)), withCpuMs: round3(totalCpu(r.with)) })),
    };
    console.log(`migration 048 write cost: ${(cost.fewerPaymentsPerSecond * 100).toFixed(1)} % fewer payments/s measured, ${(cost.fewerPaymentsPerSecondByCpu * 100).toFixed(1)} % by CPU per payment (target < 5 %); ` +
      `gateway CPU per payment ×${cost.cpuRatio.toFixed(3)}, database CPU per payment ×${cost.databaseCpuRatio.toFixed(3)}; median of ${rounds.length} rounds`);
    return cost;
  } finally {
    for (const gateway of gateways.values()) await gateway.stop();
    for (const schema of Object.values(schemas)) await schema.drop();
  }
}

export interface InsertCost {
  /** Median over rounds of (time with 048) ÷ (time without) for the same batches of the payment path's INSERT. */
  readonly timeRatio: number;
  /**
   * Median over rounds of (server CPU with 048) ÷ (server CPU without): the database backend's own
   * time on a core for the same batches (/proc/<pid>/schedstat). Unlike wall time it does not
   * grow when neighbours take the cores, so it resolves a few per cent on a busy machine.
   */
  readonly serverCpuRatio: number;
  readonly rowsPerRound: number;
  readonly rounds: ReadonlyArray<{ readonly withoutMs: number; readonly withMs: number; readonly withoutCpuMs: number; readonly withCpuMs: number }>;
}

/** Nanoseconds a process of this machine has spent on a core (first field of schedstat). */
async function onCoreNs(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  return Number((await readFile(`/proc/${pid}/schedstat`, 'utf8')).split(' ')[0]);
}

/**
 * The same, closer in: the payment path's INSERT of a pending row (insertTransactions, batches of 20 rows as
 * group commit makes them) into both schemas alternately, from this process, no HTTP. Steadier
 * than payments/s on a shared machine, and it is where 048's cost lies (terms and index entries).
 */
export async function measureInsertCost(rounds: number, batches = 100, batchRows = 20): Promise<InsertCost> {
  const { insertTransactions } = await import('../../src/storage/repositories/transactions.js');
  const { storedPayment, insertEntity } = await import('../../test/support/payment-search.js');
  const schemas = { with: await createBenchSchema('bench_insert_with'), without: await createBenchSchema('bench_insert_without') };
  const storages = { with: createPgStorage({ connectionString: schemas.with.url, poolSize: 1 }), without: createPgStorage({ connectionString: schemas.without.url, poolSize: 1 }) };
  try {
    for (const variant of ['with', 'without'] as const) {
      await migrate(storages[variant]);
      if (variant === 'without') for (const statement of WITHOUT_048) await schemas.without.admin.query(statement);
      if (variant === 'with') for (const statement of (process.env['BENCH_INSERT_WITH_ALSO'] ?? '').split(';').filter(Boolean)) await schemas.with.admin.query(statement);
      await insertEntity(storages[variant], 'e'.repeat(32), 'merchant', null);
    }
    let serial = 0;
    const batch = () => Array.from({ length: batchRows }, () => {
      serial += 1;
      // Pending, as the payment path writes a row first (its outcome comes by an UPDATE, measured end to end only).
      return storedPayment({ name: `insert-${serial}`, entityId: 'e'.repeat(32), createdAt: new Date(), status: 'pending', resultCode: '000.200.000', bin: String(400000 + (serial % 500)), last4: String(serial % 10000).padStart(4, '0'),
        holder: `Holder ${serial % 3000}`, email: `shopper${serial % 5000}@example.com`, ip: `10.0.${serial % 200}.${serial % 250}`, merchantTransactionId: `order-${serial}` });
    });
    // One connection per storage: its backend does all of the variant's work.
    const backendPid = async (variant: 'with' | 'without') =>
      Number((await storages[variant].query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    const run = async (variant: 'with' | 'without') => {
      const pid = await backendPid(variant);
      const cpuBefore = await onCoreNs(pid);
      const started = process.hrtime.bigint();
      for (let b = 0; b < batches; b += 1) await insertTransactions(storages[variant], batch());
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      return { ms, cpuMs: ((await onCoreNs(pid)) - cpuBefore) / 1e6 };
    };
    await run('without');
    await run('with');
    const results: { withoutMs: number; withMs: number; withoutCpuMs: number; withCpuMs: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const first = round % 2 === 0 ? 'without' : 'with';
      const a = await run(first);
      const b = await run(first === 'with' ? 'without' : 'with');
      const [without, withIt] = first === 'without' ? [a, b] : [b, a];
      results.push({ withoutMs: Math.round(without.ms), withMs: Math.round(withIt.ms), withoutCpuMs: Math.round(without.cpuMs), withCpuMs: Math.round(withIt.cpuMs) });
    }
    const timeRatio = median(results.map((r) => r.withMs / r.withoutMs));
    const serverCpuRatio = median(results.map((r) => r.withCpuMs / r.withoutCpuMs));
    console.log(`migration 048 insert cost: the payment path's INSERT takes ×${timeRatio.toFixed(3)} the time and ×${serverCpuRatio.toFixed(3)} the server's CPU (${batches} batches of ${batchRows} rows per round, median of ${rounds} rounds, without/with: ${results.map((r) => `${r.withoutMs}/${r.withMs} ms, CPU ${r.withoutCpuMs}/${r.withCpuMs} ms`).join('; ')})`);
    return { timeRatio, serverCpuRatio, rowsPerRound: batches * batchRows, rounds: results };
  } finally {
    for (const variant of ['with', 'without'] as const) {
      await storages[variant].close();
      await schemas[variant].drop();
    }
  }
}
