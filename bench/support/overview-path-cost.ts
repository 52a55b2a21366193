/**
 * What keeping the console overview's aggregates costs the payment path (issue 32: under 3 %
 * fewer payments/s). The payment writes nothing for the overview: the job 'roll-up-overview'
 * reads behind it, a minute at a time, 5 minutes late. So the cost is the job's work per payment,
 * set against the payment's own work, both counted as time on a core (not wall time, which the
 * neighbours of a shared machine stretch):
 *
 * - a gateway (its own jobs off: WORKERS_IN_GATEWAY=false) takes DB payments for a phase; its CPU
 *   and its database backends' CPU (by application_name, /proc/<pid>/schedstat) per payment;
 * - then the rollup operation, as the job runs it, rolls up exactly the payments of that phase
 *   (its clock set just past them plus the lag); the bench process's CPU and the rollup's backend
 *   CPU, per payment rolled up.
 *
 * On a machine whose cores are the limit, the share of the rollup in the total is the share of
 * payments/s it takes away. Repeated over rounds, the median reported.
 */
import { cpuUsage } from 'node:process';
import { readFile } from 'node:fs/promises';
import { OVERVIEW_LAG_MS, rollUpOverview } from '../../src/operations/overview/roll-up-overview.js';
import { migrate } from '../../src/storage/migrate.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';
import { paymentPhase } from './gateway-phases.js';
import { startGatewayProcess } from './gateway.js';
import { createBenchSchema, createMerchant } from './postgres.js';

export interface OverviewPathRound {
  readonly payments: number;
  readonly paymentsPerSecond: number;
  /** Gateway process + its database backends, per payment. */
  readonly paymentCpuMs: number;
  /** The rollup: this process + its database backend, per payment rolled up. */
  readonly rollupCpuMs: number;
  readonly rollupWallMs: number;
  readonly rolledUp: number;
}

export interface OverviewPathCost {
  readonly rounds: readonly OverviewPathRound[];
  /** Median over rounds of rollup ÷ (payment + rollup) CPU: the payments/s a core-bound machine loses. */
  readonly fewerPaymentsPerSecondByCpu: number;
}

const GATEWAY_APP = 'bench_overview_gateway';
const ROLLUP_APP = 'bench_overview_rollup';

async function onCoreMs(pid: number): Promise<number | undefined> {
  const text = await readFile(`/proc/${pid}/schedstat`, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : Number(text.split(' ')[0]) / 1e6;
}

/** On-core ms of the database backends named `name`, by pid. */
async function backends(admin: { query: (sql: string, params: unknown[]) => Promise<{ rows: Array<{ pid: number }> }> }, name: string): Promise<Map<number, number>> {
  const { rows } = await admin.query('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [name]);
  const readings = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = await onCoreMs(pid);
    if (ms !== undefined) readings.set(pid, ms);
  }
  return readings;
}

function spentMs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export async function measureOverviewPathCost(settings: { rounds: number; connections: number; poolSize: number; durationSeconds: number }, log: (line: string) => void = console.log): Promise<OverviewPathCost> {
  const schema = await createBenchSchema('bench_overview_path');
  const storage = createPgStorage({ connectionString: `${schema.url}&application_name=${ROLLUP_APP}`, poolSize: 1, statementTimeoutMs: 0 });
  const gateway = await (async () => {
    await migrate(storage);
    return startGatewayProcess({ databaseUrl: `${schema.url}&application_name=${GATEWAY_APP}`, poolSize: settings.poolSize, env: { WORKERS_IN_GATEWAY: 'false' } });
  })();
  try {
    const merchant = await createMerchant(schema.url);
    const phase = (seconds: number) => paymentPhase('POST /v1/payments DB (overview job off)', { url: gateway.url, connections: settings.connections, durationSeconds: seconds, pid: gateway.pid }, merchant, 'DB');
    // The watermark starts before the first payment; the warm-up's payments are rolled up unmeasured.
    await rollUpOverview({ storage, clock: { now: () => new Date() } });
    await phase(3);
    const caughtUpTo = () => ({ now: () => new Date(Date.now() + OVERVIEW_LAG_MS) });
    while (!(await rollUpOverview({ storage, clock: caughtUpTo() })).caughtUp);
    const rounds: OverviewPathRound[] = [];
    for (let round = 0; round < settings.rounds; round += 1) {
      // Every payment of the phase is made after the watermark the last rollup left.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const gatewayBefore = await backends(schema.admin, GATEWAY_APP);
      const result = await phase(settings.durationSeconds);
      const gatewayAfter = await backends(schema.admin, GATEWAY_APP);
      const clock = caughtUpTo();
      const rollupBefore = await backends(schema.admin, ROLLUP_APP);
      const ownBefore = cpuUsage();
      const started = performance.now();
      let rolledUp = 0;
      for (;;) {
        const step = await rollUpOverview({ storage, clock });
        rolledUp += step.read;
        if (step.caughtUp) break;
      }
      const rollupWallMs = performance.now() - started;
      const own = cpuUsage(ownBefore);
      const rollupAfter = await backends(schema.admin, ROLLUP_APP);
      const payments = result.requests;
      const r: OverviewPathRound = {
        payments,
        paymentsPerSecond: Math.round(result.requestsPerSecond),
        paymentCpuMs: ((result.cpuMsPerRequest ?? NaN) * payments + spentMs(gatewayBefore, gatewayAfter)) / Math.max(1, payments),
        rollupCpuMs: (spentMs(rollupBefore, rollupAfter) + (own.user + own.system) / 1000) / Math.max(1, payments),
        rollupWallMs: Math.round(rollupWallMs),
        rolledUp,
      };
      log(`  round ${round + 1}: ${payments} payments at ${r.paymentsPerSecond}/s, ${r.paymentCpuMs.toFixed(3)} ms CPU each; rollup of ${rolledUp} rows in ${r.rollupWallMs} ms, ${(r.rollupCpuMs * 1000).toFixed(1)} µs CPU per payment`);
      rounds.push(r);
    }
    const fewerPaymentsPerSecondByCpu = median(rounds.map((r) => r.rollupCpuMs / (r.paymentCpuMs + r.rollupCpuMs)));
    log(`overview rollup on the payment path: ${(fewerPaymentsPerSecondByCpu * 100).toFixed(2)} % of the CPU per payment (target < 3 % fewer payments/s); median of ${rounds.length} rounds`);
    return { rounds, fewerPaymentsPerSecondByCpu };
  } finally {
    await gateway.stop();
    await storage.close();
    await schema.drop();
  }
}
