/**
 * The pending-resolution row of `npm run bench` on its own:
 *
 *   npm run bench:resolution [-- --profile]
 *
 * With --profile the gateway runs with --cpu-prof, and its main thread's profile of the whole
 * phase (the pending payments made, then resolved) is summarised (bench/results/tmp-profile/).
 * BENCH_PENDING_COUNT (2000 pending DBs ended by status checks), BENCH_CONNECTIONS (64, for
 * making them), BENCH_POOL_SIZE (10). Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of
 * its own, dropped afterwards).
 */
import { parseArgs } from 'node:util';
import { describePhase } from './load.js';
import { describeProfiledGateway, profilerArgs } from './support/profile-run.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { resolutionPhase } from './support/resolution-phase.js';

const { values: flags } = parseArgs({ options: { profile: { type: 'boolean', default: false } } });
const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_resolution');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const nodeArgs = flags.profile ? profilerArgs() : undefined;
    const phase = await resolutionPhase({ schemaUrl: schema.url, admin: schema.admin, merchant, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), count: envNumber('BENCH_PENDING_COUNT', 2000), ...(nodeArgs ? { nodeArgs } : {}) });
    console.log(describePhase(phase));
    if (flags.profile) console.log(describeProfiledGateway('the resolution phase'));
  } finally {
    await schema.drop();
  }
}

await main();
