/**
 * What synchronous replication costs a payment: DB payments through HAProxy to the three-node
 * Patroni cluster of ops/ha/ (a commit acknowledged once a standby has flushed it) against the
 * same gateway on the single PostgreSQL of BENCH_DATABASE_URL, same load, in alternating rounds
 * (a shared machine drifts; alternating spreads the drift over both sides). The medians of the
 * rounds are compared: payments/s and p99.
 *
 *   npm run bench:ha        (or npm run bench -- --ha)
 *
 * Needs Debian's patroni, etcd-server and haproxy (ops/ha/start.sh
 * starts and stops the topology itself, on ports 5439-5443, 8440-8443, 2391-2392). Environment:
 * as npm run bench (BENCH_DATABASE_URL, BENCH_CONNECTIONS, BENCH_DURATION_SECONDS,
 * BENCH_WARMUP_SECONDS, BENCH_POOL_SIZE) and BENCH_HA_ROUNDS (2). Writes bench/results/<date>-ha.json
 * when run on its own, and the "high availability" table of docs/performance.md.
 */
import { pathToFileURL } from 'node:url';
import { describePhase, type PhaseResult } from './load.js';
import { startGatewayProcess } from './support/gateway.js';
import { paymentPhase } from './support/gateway-phases.js';
import { haToolsMissing, startHaTopology } from './support/ha-topology.js';
import { benchDatabaseUrl, createBenchSchema, createMerchant, serverVersion, type BenchSchema } from './support/postgres.js';
import { describeMachine, machineLine, phaseRow, updatePerformanceDoc, writeResults } from './support/report.js';
import { round } from './support/stats.js';

export interface HaSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmUpSeconds: number;
  readonly poolSize: number;
  readonly rounds: number;
}

export interface HaRecord {
  readonly rounds: number;
  readonly single: readonly PhaseResult[];
  readonly synchronousCluster: readonly PhaseResult[];
  /** Medians over the rounds. */
  readonly singlePaymentsPerSecond: number;
  readonly clusterPaymentsPerSecond: number;
  readonly fewerPaymentsPerSecond: number;
  readonly singleP99Ms: number;
  readonly clusterP99Ms: number;
  readonly p99CostMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Warm-up, then the measured DB phase, on a gateway of its own on the schema. */
async function measureOn(schema: BenchSchema, name: string, settings: HaSettings): Promise<PhaseResult> {
  const gateway = await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize });
  try {
    const merchant = await createMerchant(schema.url);
    const phase = (label: string, durationSeconds: number) => paymentPhase(label, { url: gateway.url, connections: settings.connections, durationSeconds, pid: gateway.pid }, merchant, 'DB');
    await phase('warm-up (not counted)', settings.warmUpSeconds);
    const result = await phase(name, settings.durationSeconds);
    console.log(describePhase(result));
    return result;
  } finally {
    await gateway.stop();
  }
}

export function summarise(single: readonly PhaseResult[], cluster: readonly PhaseResult[]): HaRecord {
  const singleRate = median(single.map((p) => p.requestsPerSecond));
  const clusterRate = median(cluster.map((p) => p.requestsPerSecond));
  const singleP99 = median(single.map((p) => p.latencyMs.p99));
  const clusterP99 = median(cluster.map((p) => p.latencyMs.p99));
  return {
    rounds: single.length,
    single,
    synchronousCluster: cluster,
    singlePaymentsPerSecond: round(singleRate, 0),
    clusterPaymentsPerSecond: round(clusterRate, 0),
    fewerPaymentsPerSecond: round(1 - clusterRate / singleRate, 3),
    singleP99Ms: round(singleP99, 1),
    clusterP99Ms: round(clusterP99, 1),
    p99CostMs: round(clusterP99 - singleP99, 1),
  };
}

export function renderHaTable(record: HaRecord, date: string, machine: string): string {
  return [
    `Latest run: ${date.slice(0, 10)}, ${machine}. ${record.rounds} alternating round(s); medians compared.`,
    '',
    '| Phase | Connections | Requests | Requests/s | p50 ms | p99 ms | p99.9 ms | Errors | Non-2xx | RSS MiB | CPU ms/req |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...record.single.map(phaseRow),
    ...record.synchronousCluster.map(phaseRow),
    '',
    `Synchronous cluster through HAProxy: ${record.clusterPaymentsPerSecond} payments/s against ${record.singlePaymentsPerSecond} on the single server ` +
      `(${(record.fewerPaymentsPerSecond * 100).toFixed(1)} % fewer); p99 ${record.clusterP99Ms} ms against ${record.singleP99Ms} ms (${record.p99CostMs >= 0 ? '+' : ''}${record.p99CostMs} ms).`,
  ].join('\n');
}

/** Starts the topology, measures both sides, stops it; undefined (and why) when the tools are missing. */
export async function runHaBench(settings: HaSettings): Promise<HaRecord | undefined> {
  const missing = haToolsMissing();
  if (missing) {
    console.log(`high-availability rows left out: ${missing}`);
    return undefined;
  }
  const topology = await startHaTopology();
  const schemas: BenchSchema[] = [];
  try {
    const single = await createBenchSchema('bench_single', benchDatabaseUrl());
    schemas.push(single);
    const cluster = await createBenchSchema('bench_ha', topology.leaderUrl());
    schemas.push(cluster);
    const machine = machineLine(describeMachine(await serverVersion(single.admin)));
    const singleRuns: PhaseResult[] = [];
    const clusterRuns: PhaseResult[] = [];
    for (let r = 0; r < settings.rounds; r += 1) {
      const measureSingle = async () => singleRuns.push(await measureOn(single, 'DB, single PostgreSQL (5432)', settings));
      const measureCluster = async () => clusterRuns.push(await measureOn(cluster, 'DB, synchronous cluster via HAProxy (5440)', settings));
      if (r % 2 === 0) { await measureSingle(); await measureCluster(); } else { await measureCluster(); await measureSingle(); }
    }
    const record = summarise(singleRuns, clusterRuns);
    const table = renderHaTable(record, new Date().toISOString(), machine);
    if (!updatePerformanceDoc('high availability', table)) console.warn('docs/performance.md has no high availability markers');
    console.log(`\n${table}`);
    return record;
  } finally {
    for (const schema of schemas) await schema.drop().catch(() => undefined);
    await topology.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const record = await runHaBench({
    connections: env('BENCH_CONNECTIONS', 64),
    durationSeconds: env('BENCH_DURATION_SECONDS', 10),
    warmUpSeconds: env('BENCH_WARMUP_SECONDS', 3),
    poolSize: env('BENCH_POOL_SIZE', 10),
    rounds: env('BENCH_HA_ROUNDS', 2),
  });
  if (record) console.log(`written to ${writeResults({ date: new Date().toISOString(), ha: record }, '-ha')}`);
}
