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
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describePhase } from './load.js';
import { describeProfile, summariseProfile } from './support/cpu-profile.js';
import { ROOT } from './support/node-process.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';
import { resolutionPhase } from './support/resolution-phase.js';

const { values: flags } = parseArgs({ options: { profile: { type: 'boolean', default: false } } });
const PROFILE_DIR = join(ROOT, 'bench/results/tmp-profile');
const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_resolution');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    if (flags.profile) { rmSync(PROFILE_DIR, { recursive: true, force: true }); mkdirSync(PROFILE_DIR, { recursive: true }); }
    const nodeArgs = flags.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : undefined;
    const phase = await resolutionPhase({ schemaUrl: schema.url, admin: schema.admin, merchant, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), count: envNumber('BENCH_PENDING_COUNT', 2000), ...(nodeArgs ? { nodeArgs } : {}) });
    console.log(describePhase(phase));
    const profile = flags.profile ? readdirSync(PROFILE_DIR).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name)) : undefined;
    if (profile) console.log(describeProfile(summariseProfile(join(PROFILE_DIR, profile), undefined, 40)).replace('during the DB phase', 'during the resolution phase'));
  } finally {
    await schema.drop();
  }
}

await main();
