/**
 * The scheduled-runs row of `npm run bench` on its own:
 *
 *   npm run bench:schedules [-- --profile]
 *
 * With --profile the gateway runs with --cpu-prof, and its main thread's profile from the fire
 * time to the last payment is summarised (bench/results/tmp-profile/).
 * BENCH_SCHEDULES_ACTIVE (10000 active schedules), BENCH_SCHEDULES_DUE (2000 of them due in the
 * same second), BENCH_CONNECTIONS (64, for creating them), BENCH_POOL_SIZE (10).
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
 */
import { parseArgs } from 'node:util';
import { describePhase } from './load.js';
import { describeProfiledGateway, profilerArgs } from './support/profile-run.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { runWindow, schedulePhase } from './support/schedule-phase.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const scheduleSettings = {
  active: envNumber('BENCH_SCHEDULES_ACTIVE', 10_000),
  due: envNumber('BENCH_SCHEDULES_DUE', 2_000),
};

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_schedules');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const { values: flags } = parseArgs({ options: { profile: { type: 'boolean', default: false } } });
    const nodeArgs = flags.profile ? profilerArgs() : undefined;
    const phase = await schedulePhase({ schemaUrl: schema.url, admin: schema.admin, merchant, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), ...scheduleSettings, ...(nodeArgs ? { nodeArgs } : {}) });
    console.log(describePhase(phase));
    if (flags.profile) console.log(describeProfiledGateway('the scheduled runs (fire time to the last payment)', runWindow));
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
