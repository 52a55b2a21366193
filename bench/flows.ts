/**
 * The flows of issue 36 side by side, in one gateway process, each against the DB payment of the
 * same run (gateway CPU per request), in minutes rather than the whole benchmark's quarter hour:
 *
 *   npm run bench:flows [-- --profile completion|widget|db|challenge]
 *
 * Rows: the DB payment; the provider page's completion of a redirect (303); the widget's card
 * payment of a checkout; the ACS page's completion of a 3-D Secure challenge (the simulator's
 * challenge card, the shopper's code posted, 303). With --profile the gateway runs with
 * --cpu-prof and the named flow's window is summarised (bench/results/tmp-profile/).
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards),
 * BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10), BENCH_WARMUP_SECONDS (3), BENCH_POOL_SIZE (10).
 */
import { parseArgs } from 'node:util';
import { describePhase, type PhaseResult } from './load.js';
import { monotonicMicros } from './support/cpu-profile.js';
import { describeProfiledGateway, profilerArgs } from './support/profile-run.js';
import { startGatewayProcess } from './support/gateway.js';
import { asyncPaymentPhase, checkoutPhase, completionPhase, openCheckoutIds, openRedirectIds, paymentPhase, widgetPaymentPhase, type PhaseSettings } from './support/gateway-phases.js';
import { challengeCompletionPhase, challengeStartPhase } from './support/challenge-phase.js';
import { createBenchSchema, createMerchant } from './support/postgres.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const settings = {
  connections: envNumber('BENCH_CONNECTIONS', 64),
  durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10),
  warmUpSeconds: envNumber('BENCH_WARMUP_SECONDS', 3),
  poolSize: envNumber('BENCH_POOL_SIZE', 10),
};
const FLOWS = ['db', 'completion', 'widget', 'challenge'] as const;
type Flow = (typeof FLOWS)[number];

const { values: flags } = parseArgs({ options: { profile: { type: 'string' } } });
const profiled = flags.profile as Flow | undefined;
if (profiled !== undefined && !FLOWS.includes(profiled)) throw new Error(`--profile takes one of ${FLOWS.join(', ')}`);

function report(phase: PhaseResult): PhaseResult {
  console.log(describePhase(phase));
  return phase;
}

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_flows');
  const gateway = await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize, ...(profiled ? { nodeArgs: profilerArgs() } : {}) });
  let window: { fromUs: number; toUs: number } | undefined;
  const rows: Array<{ flow: Flow; phase: PhaseResult }> = [];
  try {
    const merchant = await createMerchant(schema.url);
    const phase: PhaseSettings = { url: gateway.url, connections: settings.connections, durationSeconds: settings.durationSeconds, pid: gateway.pid };
    const measured = async (flow: Flow, run: () => Promise<PhaseResult>) => {
      const fromUs = monotonicMicros();
      rows.push({ flow, phase: report(await run()) });
      if (flow === profiled) window = { fromUs, toUs: monotonicMicros() };
    };
    report(await paymentPhase('warm-up (not counted)', { ...phase, durationSeconds: settings.warmUpSeconds }, merchant, 'DB'));
    await measured('db', () => paymentPhase('POST /v1/payments DB', phase, merchant, 'DB'));
    report(await asyncPaymentPhase('setup: POST /v1/payments DB PAYPAL (not counted)', phase, merchant));
    const redirectIds = await openRedirectIds(schema.admin);
    await measured('completion', () => completionPhase(phase, redirectIds));
    report(await checkoutPhase(phase, merchant));
    const checkoutIds = await openCheckoutIds(schema.admin);
    await measured('widget', () => widgetPaymentPhase(phase, checkoutIds));
    report(await challengeStartPhase(phase, merchant));
    const challengeIds = await openRedirectIds(schema.admin, 'challenge');
    await measured('challenge', () => challengeCompletionPhase(phase, challengeIds));
  } finally {
    await gateway.stop('SIGTERM');
    await schema.drop();
  }
  const db = rows.find((row) => row.flow === 'db')!.phase.cpuMsPerRequest ?? NaN;
  console.log('\ngateway CPU per request against the DB payment of this run:');
  for (const { phase } of rows) console.log(`  ${(phase.cpuMsPerRequest ?? NaN).toFixed(3)} ms  ${((phase.cpuMsPerRequest ?? NaN) / db).toFixed(2)} ×  ${Math.round(phase.requestsPerSecond)}/s  ${phase.name}`);
  if (profiled && window) console.log(`\n${describeProfiledGateway(`the ${profiled} phase`, window)}`);
}

await main();
