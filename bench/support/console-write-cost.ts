/**
 * What migration 048 (the console search's terms and indexes) costs the payment path: two
 * gateways, one per schema, loaded one at a time with DB payments, the order alternating by round.
 * "Without" is the schema with 048's indexes dropped and payment_search_terms answering NULL.
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
  /** Median over rounds of server CPU per payment, with ÷ without. */
  readonly cpuRatio: number;
  readonly rounds: ReadonlyArray<{ readonly without: number; readonly with: number }>;
}

const WITHOUT_048 = [
  'DROP INDEX transactions_search_terms_idx',
  'DROP INDEX transactions_amount_idx',
  'DROP INDEX transactions_result_code_idx',
  `CREATE OR REPLACE FUNCTION payment_search_terms(response json, merchant_transaction_id text, currency text, payment_brand text, payment_type text)
     RETURNS text[] LANGUAGE sql IMMUTABLE AS $$ SELECT NULL::text[] $$`,
];

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
      gateways.set(variant, await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize }));
    }
    const merchants = { with: await createMerchant(schemas.with.url), without: await createMerchant(schemas.without.url) };
    const phase = (variant: 'with' | 'without', seconds: number) => {
      const gateway = gateways.get(variant)!;
      return paymentPhase(`POST /v1/payments DB, ${variant} migration 048`, { url: gateway.url, connections: settings.connections, durationSeconds: seconds, pid: gateway.pid }, merchants[variant], 'DB');
    };
    await phase('without', 3);
    await phase('with', 3);
    const rounds: Record<'with' | 'without', PhaseResult>[] = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      const order: ('with' | 'without')[] = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
      const results: Partial<Record<'with' | 'without', PhaseResult>> = {};
      for (const variant of order) {
        await schemas.with.admin.query('CHECKPOINT').catch(() => undefined);
        results[variant] = await phase(variant, settings.durationSeconds);
      }
      const r = results as Record<'with' | 'without', PhaseResult>;
      console.log(`  round ${round + 1}: without ${Math.round(r.without.requestsPerSecond)}/s, with ${Math.round(r.with.requestsPerSecond)}/s`);
      rounds.push(r);
    }
    const cost: WriteCost = {
      fewerPaymentsPerSecond: median(rounds.map((r) => 1 - r.with.requestsPerSecond / r.without.requestsPerSecond)),
      cpuRatio: median(rounds.map((r) => (r.with.cpuMsPerRequest ?? NaN) / (r.without.cpuMsPerRequest ?? NaN))),
      rounds: rounds.map((r) => ({ without: Math.round(r.without.requestsPerSecond), with: Math.round(r.with.requestsPerSecond) })),
    };
    console.log(`migration 048 write cost: ${(cost.fewerPaymentsPerSecond * 100).toFixed(1)} % fewer payments/s (target < 5 %), gateway CPU per payment ×${cost.cpuRatio.toFixed(3)}; median of ${rounds.length} rounds`);
    return cost;
  } finally {
    for (const gateway of gateways.values()) await gateway.stop();
    for (const schema of Object.values(schemas)) await schema.drop();
  }
}

export interface InsertCost {
  /** Median over rounds of (time with 048) ÷ (time without) for the same batches of the payment path's INSERT. */
  readonly timeRatio: number;
  readonly rowsPerRound: number;
  readonly rounds: ReadonlyArray<{ readonly withoutMs: number; readonly withMs: number }>;
}

/**
 * The same, closer in: the payment path's INSERT (insertTransactions, batches of 20 rows as
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
      return storedPayment({ name: `insert-${serial}`, entityId: 'e'.repeat(32), createdAt: new Date(), bin: String(400000 + (serial % 500)), last4: String(serial % 10000).padStart(4, '0'),
        holder: `Holder ${serial % 3000}`, email: `shopper${serial % 5000}@example.com`, ip: `10.0.${serial % 200}.${serial % 250}`, merchantTransactionId: `order-${serial}` });
    });
    const run = async (variant: 'with' | 'without') => {
      const started = process.hrtime.bigint();
      for (let b = 0; b < batches; b += 1) await insertTransactions(storages[variant], batch());
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    await run('without');
    await run('with');
    const results: { withoutMs: number; withMs: number }[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const first = round % 2 === 0 ? 'without' : 'with';
      const a = await run(first);
      const b = await run(first === 'with' ? 'without' : 'with');
      results.push(first === 'without' ? { withoutMs: Math.round(a), withMs: Math.round(b) } : { withoutMs: Math.round(b), withMs: Math.round(a) });
    }
    const timeRatio = median(results.map((r) => r.withMs / r.withoutMs));
    console.log(`migration 048 insert cost: the payment path's INSERT takes ×${timeRatio.toFixed(3)} the time (${batches} batches of ${batchRows} rows per round, median of ${rounds} rounds: ${results.map((r) => `${r.withoutMs}/${r.withMs} ms`).join(', ')})`);
    return { timeRatio, rowsPerRound: batches * batchRows, rounds: results };
  } finally {
    for (const variant of ['with', 'without'] as const) {
      await storages[variant].close();
      await schemas[variant].drop();
    }
  }
}
