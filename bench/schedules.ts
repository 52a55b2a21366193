/**
 * The scheduled-runs row of `npm run bench` on its own:
 *
 *   npm run bench:schedules [-- --profile] [-- --minute]
 *
 * With --profile the gateway runs with --cpu-prof, and its main thread's profile from the fire
 * time to the last payment is summarised (bench/results/tmp-profile/).
 * BENCH_SCHEDULES_ACTIVE (10000 active schedules), BENCH_SCHEDULES_DUE (2000 of them due in the
 * same second), BENCH_SCHEDULES_MINUTE_DUE (100000 due in one minute, the second row, with
 * --minute or in `npm run bench`; a schema of its own), BENCH_CONNECTIONS (64, for creating them), BENCH_POOL_SIZE (10).
 * Uses BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
 */
import { parseArgs } from 'node:util';
import { describePhase, type PhaseResult } from './load.js';
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

/** The first of the month of a subscription business: this many due in one minute (0 leaves the row out), beside 2,000 waiting. */
export const minuteSettings = {
  due: envNumber('BENCH_SCHEDULES_MINUTE_DUE', 100_000),
  active: envNumber('BENCH_SCHEDULES_MINUTE_DUE', 100_000) + 2_000,
  within: 'minute' as const,
};

/**
 * A scheduled-runs row on a schema of its own (created, migrated, dropped): the minute row's
 * hundred thousand schedules and runs would otherwise weigh on every later phase of `npm run bench`.
 */
export async function scheduleRow(settings: typeof scheduleSettings | typeof minuteSettings, load: { connections: number; poolSize: number }, nodeArgs?: readonly string[]): Promise<PhaseResult> {
  const schema = await createBenchSchema('bench_schedules');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    return await schedulePhase({ schemaUrl: schema.url, admin: schema.admin, merchant, ...load, ...settings, ...(nodeArgs ? { nodeArgs } : {}) });
  } finally {
    await schema.drop();
  }
}

async function main(): Promise<void> {
  const { values: flags } = parseArgs({ options: { profile: { type: 'boolean', default: false }, minute: { type: 'boolean', default: false } } });
  const nodeArgs = flags.profile ? profilerArgs() : undefined;
  const load = { connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10) };
  console.log(describePhase(await scheduleRow(flags.minute ? minuteSettings : scheduleSettings, load, nodeArgs)));
  if (flags.profile) console.log(describeProfiledGateway('the scheduled runs (fire time to the last payment)', runWindow));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
