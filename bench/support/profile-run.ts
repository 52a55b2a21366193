/**
 * A gateway started with --cpu-prof, loaded with DB payments only, then stopped cleanly so V8
 * writes the profile (bench/results/tmp-profile/, ignored by git), then summarised.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describePhase } from '../load.js';
import { describeProfile, monotonicMicros, summariseProfile, type ProfileSummary } from './cpu-profile.js';
import { startGatewayProcess } from './gateway.js';
import { paymentPhase, type Merchant } from './gateway-phases.js';
import { ROOT } from './node-process.js';

const PROFILE_DIR = join(ROOT, 'bench/results/tmp-profile');

/**
 * The main thread's profile. Node writes one per thread: CPU.<date>.<time>.<pid>.<thread>.<seq>;
 * thread 0 is the main thread (a process run through tsx has a module-loader thread besides).
 */
function mainThreadProfile(): string {
  const found = readdirSync(PROFILE_DIR).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  if (!found) throw new Error(`no main-thread .cpuprofile written to ${PROFILE_DIR}`);
  return join(PROFILE_DIR, found);
}

export async function profileGateway(
  databaseUrl: string,
  merchant: Merchant,
  settings: { connections: number; durationSeconds: number; warmUpSeconds: number; poolSize: number },
): Promise<ProfileSummary> {
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
  let window = { fromUs: 0, toUs: 0 };
  const gateway = await startGatewayProcess({ databaseUrl, poolSize: settings.poolSize, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] });
  try {
    const phase = { url: gateway.url, connections: settings.connections, pid: gateway.pid };
    await paymentPhase('profile warm-up', { ...phase, durationSeconds: settings.warmUpSeconds }, merchant, 'DB');
    const fromUs = monotonicMicros();
    console.log(describePhase(await paymentPhase('POST /v1/payments DB (profiled)', { ...phase, durationSeconds: settings.durationSeconds }, merchant, 'DB')));
    window = { fromUs, toUs: monotonicMicros() };
  } finally {
    await gateway.stop('SIGTERM');
  }
  const path = mainThreadProfile();
  console.log(`profile: ${path.slice(ROOT.length)}`);
  const summary = summariseProfile(path, window);
  // Should the clocks ever disagree, the whole profile is better than an empty one.
  return summary.totalMs > 0 ? summary : summariseProfile(path);
}

/** The node flags of a profiled gateway: --cpu-prof into a fresh PROFILE_DIR. */
export function profilerArgs(): string[] {
  rmSync(PROFILE_DIR, { recursive: true, force: true });
  mkdirSync(PROFILE_DIR, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`];
}

/** The summary of the profiled gateway's main thread (it must have stopped), over `window` or all of it. */
export function describeProfiledGateway(phase: string, window?: { fromUs: number; toUs: number }): string {
  const path = mainThreadProfile();
  return describeProfile(summariseProfile(path, window, 40)).replace('during the DB phase', `during ${phase}`);
}
