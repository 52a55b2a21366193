/**
 * Query benchmark (issue 5): one million transactions across 100 entities on PostgreSQL, then the
 * p50/p95/p99 of GET /v1/query by merchantTransactionId and by a one-day time frame, through the
 * whole app (auth, validation, SQL, serialisation). Target: p95 under 20 ms for both.
 *
 *   BENCH_DATABASE_URL=postgres://… npm run bench:query      (default: the local test database)
 */
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/load-config.js';
import { randomIds, systemClock } from '../src/domain/ids.js';
import { createEntity } from '../src/operations/admin/create-entity.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';

const URL_ = process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const TRANSACTIONS = Number(process.env['BENCH_TRANSACTIONS'] ?? 1_000_000);
const ENTITIES = 100;
const DAYS = 100;
const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 500);
const SCHEMA = 'bench_query';

async function load(admin: pg.Client, entityIds: string[]): Promise<void> {
  // Rows spread evenly over DAYS days and over the entities; every fourth one a refund of a DB.
  await admin.query(
    `INSERT INTO ${SCHEMA}.transactions (id, entity_id, payment_type, status, result_code, amount_minor, currency,
        short_id, connector_id, payment_method, payment_brand, merchant_transaction_id, response, created_at, updated_at)
     SELECT md5(g::text), ($1::char(32)[])[1 + g % ${ENTITIES}], CASE WHEN g % 4 = 0 THEN 'RF' ELSE 'DB' END, 'success',
            '000.100.110', 1000 + g % 100000, 'EUR', lpad((g % 10000)::text, 4, '0') || '.' || lpad((g / 10000 % 10000)::text, 4, '0') || '.0000',
            'simulator', 'CC', 'VISA', 'order-' || g,
            json_build_object('id', md5(g::text), 'paymentType', 'DB', 'amount', '10.00', 'currency', 'EUR',
              'descriptor', '1234.5678.9012 Shop', 'merchantTransactionId', 'order-' || g,
              'result', json_build_object('code', '000.100.110', 'description', 'Request successfully processed')),
            timestamptz '2026-08-01' + (g::double precision / $2 * ${DAYS}) * interval '1 day', now()
       FROM generate_series(1, $2) AS g`,
    [entityIds, TRANSACTIONS],
  );
  await admin.query(`ANALYZE ${SCHEMA}.transactions`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const WARM_UP_REQUESTS = 50;

async function measure(name: string, request: (i: number) => Promise<{ statusCode: number }>) {
  // The first requests pay for JIT compilation and pool connections, which a running gateway has behind it.
  for (let i = 0; i < WARM_UP_REQUESTS; i += 1) await request(SAMPLES + i);
  const timings: number[] = [];
  for (let i = 0; i < SAMPLES; i += 1) {
    const start = process.hrtime.bigint();
    const response = await request(i);
    timings.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (response.statusCode !== 200) throw new Error(`${name}: HTTP ${response.statusCode}`);
  }
  timings.sort((a, b) => a - b);
  const row = { query: name, samples: SAMPLES, p50_ms: percentile(timings, 50), p95_ms: percentile(timings, 95), p99_ms: percentile(timings, 99) };
  console.log(`${name.padEnd(28)} p50 ${row.p50_ms.toFixed(2)} ms   p95 ${row.p95_ms.toFixed(2)} ms   p99 ${row.p99_ms.toFixed(2)} ms`);
  return row;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: URL_ });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await admin.query(`CREATE SCHEMA ${SCHEMA}`);
  const storage = createPgStorage({ connectionString: URL_, poolSize: 4, searchPath: SCHEMA });
  try {
    await migrate(storage);
    const deps = { storage, clock: systemClock, ids: randomIds };
    const entities: Awaited<ReturnType<typeof createEntity>>[] = [];
    for (let i = 0; i < ENTITIES; i += 1) entities.push(await createEntity(deps, { name: `Shop ${i}` }));
    const started = Date.now();
    await load(admin, entities.map((e) => e.entityId));
    console.log(`loaded ${TRANSACTIONS} transactions across ${ENTITIES} entities in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const app = await buildApp({ ...deps, config: loadConfig({ LOG_LEVEL: 'silent', THROTTLE_MAX_REQUESTS: '10000000' }), buildNumber: 'bench', adminToken: undefined });
    const pick = (i: number) => entities[(i * 37) % ENTITIES]!;
    const get = (i: number, params: Record<string, string>) =>
      app.inject({ method: 'GET', url: `/v1/query?${new URLSearchParams({ entityId: pick(i).entityId, ...params })}`, headers: { authorization: `Bearer ${pick(i).accessToken}` } });
    // Row g belongs to entity g % 100, so order-(k*100 + index) is one of this entity's own.
    const byReference = await measure('by merchantTransactionId', (i) => get(i, { merchantTransactionId: `order-${((i * 7919) % (TRANSACTIONS / ENTITIES)) * ENTITIES + ((i * 37) % ENTITIES) || ENTITIES}` }));
    const byDay = await measure('by one-day time frame', (i) => {
      const day = new Date(Date.UTC(2026, 7, 1 + (i % DAYS)));
      const next = new Date(day.getTime() + 86_400_000);
      const fmt = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');
      return get(i, { 'date.from': fmt(day), 'date.to': fmt(next) });
    });
    const plan = await admin.query(`EXPLAIN SELECT id FROM ${SCHEMA}.transactions WHERE entity_id = ANY($1::char(32)[]) AND created_at >= $2 AND created_at < $3 ORDER BY created_at DESC, id DESC LIMIT 100`, [[entities[0]!.entityId], '2026-08-10', '2026-08-11']);
    console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    console.log(JSON.stringify({ transactions: TRANSACTIONS, entities: ENTITIES, results: [byReference, byDay] }));
    await app.close();
  } finally {
    await storage.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.end();
  }
}

await main();
