/**
 * The ISO 8583 rows of `npm run bench` on their own:
 *
 *   npm run bench:iso8583
 *
 * BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10 per phase), BENCH_POOL_SIZE (10, the
 * gateway's database pool), BENCH_LINK_POOL_SIZE (4, connections to the acquirer host).
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
 */
import { describePhase } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { describeInFlight, iso8583Phases } from './support/iso8583-phase.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const iso8583Settings = {
  linkPoolSize: envNumber('BENCH_LINK_POOL_SIZE', 4),
};

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_iso8583');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const phases = await iso8583Phases({ schemaUrl: schema.url, merchant, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10), ...iso8583Settings });
    for (const phase of phases) console.log(`${describePhase(phase)}${describeInFlight(phase)}`);
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
