/**
 * The 3-D Secure rows of `npm run bench` on their own:
 *
 *   npm run bench:three-ds
 *
 * Authenticated (frictionless) DB payments through the EMV 3DS server connector to the emulator
 * beside the in-process simulation. BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10 per
 * phase), BENCH_POOL_SIZE (10). Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its
 * own, dropped afterwards).
 */
import { describePhase } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { threeDsPhases } from './support/three-ds-phase.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_three_ds');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const phases = await threeDsPhases({ schemaUrl: schema.url, merchant, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    for (const phase of phases) console.log(describePhase(phase));
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
