/**
 * The observability rows of `npm run bench` on their own:
 *
 *   npm run bench:observability
 *
 * What metrics and traces cost a payment: three gateways on the same database, started together
 * and loaded one at a time — metrics and tracing off (METRICS_ENABLED=false), metrics on (the
 * default), metrics on with every request traced (OTEL_TRACES_SAMPLER=always_on, exported over
 * OTLP/HTTP to a sink process that answers 200 and keeps nothing). BENCH_OBSERVABILITY_ROUNDS
 * (8) rounds of the three, the order rotating each round; a cost is the median over rounds of
 * 1 − (payments/s with) ÷ (payments/s without) within the round, so drift between rounds (a
 * checkpoint, the table growing) cancels. Targets: metrics under 3 % fewer payments/s, tracing at
 * full sampling under 10 %. BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10), BENCH_POOL_SIZE (10).
 */
import { describePhase, type PhaseResult } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { startGatewayProcess } from './support/gateway.js';
import { paymentPhase, type Merchant } from './support/gateway-phases.js';
import { createBenchSchema, createMerchant, type BenchSchema } from './support/postgres.js';
import type { NodeProcess } from './support/node-process.js';
import { startOtlpSink } from './support/otlp-sink.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const observabilitySettings = {
  rounds: envNumber('BENCH_OBSERVABILITY_ROUNDS', 8),
};

type Variant = 'off' | 'metrics' | 'tracing';

const PHASE_NAMES: Readonly<Record<Variant, string>> = {
  off: 'POST /v1/payments DB, metrics and tracing off',
  metrics: 'POST /v1/payments DB, metrics on (default)',
  tracing: 'POST /v1/payments DB, metrics on, every request traced (OTLP)',
};

function variantEnv(variant: Variant, sinkUrl: string): Record<string, string> {
  if (variant === 'off') return { METRICS_ENABLED: 'false' };
  if (variant === 'metrics') return {};
  return { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'gateway-bench' };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface ObservabilityCost {
  readonly metricsFewer: number;
  readonly tracingFewer: number;
  /** Gateway CPU per payment with, over without (medians per round): steadier than payments/s on a shared host. */
  readonly metricsCpuRatio: number;
  readonly tracingCpuRatio: number;
  readonly spansReceived: number;
}

/** The rows (the round nearest the median tracing cost) and the costs. */
export async function observabilityPhases(
  schemaUrl: string,
  merchant: Merchant,
  base: { readonly connections: number; readonly poolSize: number; readonly durationSeconds: number },
): Promise<{ readonly phases: PhaseResult[]; readonly cost: ObservabilityCost }> {
  // In a process of its own, so that reading the exports does not compete with the load generator.
  const sink = await startOtlpSink();
  const variants: Variant[] = ['off', 'metrics', 'tracing'];
  const gateways = new Map<Variant, NodeProcess>();
  try {
    for (const variant of variants) gateways.set(variant, await startGatewayProcess({ databaseUrl: schemaUrl, poolSize: base.poolSize, env: variantEnv(variant, sink.endpoint) }));
    const phase = (variant: Variant, name: string, durationSeconds: number) => {
      const gateway = gateways.get(variant)!;
      return paymentPhase(name, { url: gateway.url, connections: base.connections, durationSeconds, pid: gateway.pid }, merchant, 'DB');
    };
    for (const variant of variants) await phase(variant, 'warm-up (not counted)', 3);
    const rounds: Record<Variant, PhaseResult>[] = [];
    for (let round = 0; round < observabilitySettings.rounds; round += 1) {
      const results: Partial<Record<Variant, PhaseResult>> = {};
      for (let k = 0; k < variants.length; k += 1) {
        const variant = variants[(round + k) % variants.length]!;
        results[variant] = await phase(variant, PHASE_NAMES[variant], base.durationSeconds);
      }
      rounds.push(results as Record<Variant, PhaseResult>);
    }
    const fewer = (r: Record<Variant, PhaseResult>, variant: Variant) => 1 - r[variant].requestsPerSecond / r.off.requestsPerSecond;
    const cpu = (r: Record<Variant, PhaseResult>, variant: Variant) => (r[variant].cpuMsPerRequest ?? NaN) / (r.off.cpuMsPerRequest ?? NaN);
    const cost: ObservabilityCost = {
      metricsFewer: median(rounds.map((r) => fewer(r, 'metrics'))),
      tracingFewer: median(rounds.map((r) => fewer(r, 'tracing'))),
      metricsCpuRatio: median(rounds.map((r) => cpu(r, 'metrics'))),
      tracingCpuRatio: median(rounds.map((r) => cpu(r, 'tracing'))),
      spansReceived: (await sink.received()).spans,
    };
    const shown = rounds.reduce((best, r) => (Math.abs(fewer(r, 'tracing') - cost.tracingFewer) < Math.abs(fewer(best, 'tracing') - cost.tracingFewer) ? r : best));
    const each = rounds.map((r) => variants.map((v) => Math.round(r[v].requestsPerSecond)).join('/')).join(', ');
    console.log(
      `observability: metrics ${(cost.metricsFewer * 100).toFixed(1)} % fewer payments/s (target < 3 %), tracing at full sampling ` +
        `${(cost.tracingFewer * 100).toFixed(1)} % fewer (target < 10 %); gateway CPU per payment ×${cost.metricsCpuRatio.toFixed(3)} with metrics, ×${cost.tracingCpuRatio.toFixed(3)} traced; ` +
        `median of ${rounds.length} rounds (off/metrics/tracing payments/s: ${each}); ${cost.spansReceived} spans received`,
    );
    return { phases: [shown.off, shown.metrics, shown.tracing], cost };
  } finally {
    for (const gateway of gateways.values()) await gateway.stop();
    await sink.stop();
  }
}

async function main(): Promise<void> {
  const schema: BenchSchema = await createBenchSchema('bench_observability');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const { phases } = await observabilityPhases(schema.url, merchant, { connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    for (const phase of phases) console.log(describePhase(phase));
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
