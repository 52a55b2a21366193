/**
 * The tracing row of `npm run bench` on its own:
 *
 *   npm run bench:tracing
 *
 * Payments/s (POST /v1/payments DB through the simulator, on PostgreSQL) of a gateway without
 * OTEL_* variables against one tracing every request at full sampling (OTEL_TRACES_SAMPLER=
 * always_on) and exporting over OTLP/HTTP to a local sink that discards (bench/support/otlp-sink.ts).
 * Both gateways run side by side; the phases alternate off, on, on, off … (BENCH_TRACING_ROUNDS
 * rounds, 4), and the cost is the median of the blocks of two rounds, as the risk row does, so
 * that the drift of a growing database and of a shared host falls on both halves. The line also
 * gives the gateway's CPU time per payment, traced and not: steadier than payments/s on a shared
 * host. BENCH_TRACING_SAMPLER (always_on) and BENCH_TRACING_SAMPLER_ARG set the traced gateway's
 * sampler: always_off measures the instrumentation and context propagation without spans,
 * parentbased_traceidratio with 0.1 a tenth of the requests traced.
 * BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10 per phase), BENCH_POOL_SIZE (10). Uses
 * BENCH_DATABASE_URL or TEST_DATABASE_URL (a schema of its own, dropped afterwards).
 */
import { describePhase, type PhaseResult } from './load.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import { paymentPhase, type Merchant } from './support/gateway-phases.js';
import { startGatewayProcess } from './support/gateway.js';
import { startOtlpSink } from './support/otlp-sink.js';
import { createBenchSchema, createMerchant, type BenchSchema } from './support/postgres.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const tracingSettings = {
  rounds: envNumber('BENCH_TRACING_ROUNDS', 4),
  /** OTEL_TRACES_SAMPLER of the traced gateway: always_off measures the instrumentation without spans. */
  sampler: process.env['BENCH_TRACING_SAMPLER'] ?? 'always_on',
  /** OTEL_TRACES_SAMPLER_ARG, for a ratio sampler (parentbased_traceidratio with 0.1 …). */
  samplerArg: process.env['BENCH_TRACING_SAMPLER_ARG'],
};

export interface TracingBenchSettings {
  readonly connections: number;
  readonly poolSize: number;
  readonly durationSeconds: number;
  readonly warmUpSeconds?: number;
}

interface TracingRound { readonly on: PhaseResult; readonly off: PhaseResult }

/** One minus the pooled payments/s with tracing over those without, per block of two rounds; the median block. */
export function tracingCost(rounds: readonly TracingRound[]): number {
  const blocks: number[] = [];
  for (let b = 0; b < rounds.length; b += 2) {
    const block = rounds.slice(b, b + 2);
    const sum = (pick: (r: TracingRound) => PhaseResult) => block.reduce((total, r) => total + pick(r).requestsPerSecond, 0);
    blocks.push(1 - sum((r) => r.on) / sum((r) => r.off));
  }
  blocks.sort((x, y) => x - y);
  const middle = Math.floor(blocks.length / 2);
  return blocks.length % 2 === 1 ? blocks[middle]! : (blocks[middle - 1]! + blocks[middle]!) / 2;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The rows: payments/s with tracing on (full sampling, exported) and off, from the round nearest the cost. */
export async function tracingPhases(schema: BenchSchema, merchant: Merchant, settings: TracingBenchSettings): Promise<PhaseResult[]> {
  const sink = await startOtlpSink();
  const base = { databaseUrl: schema.url, poolSize: settings.poolSize };
  const off = await startGatewayProcess(base);
  const on = await startGatewayProcess({ ...base, env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: tracingSettings.sampler, ...(tracingSettings.samplerArg ? { OTEL_TRACES_SAMPLER_ARG: tracingSettings.samplerArg } : {}) } });
  try {
    const gateways = { off, on } as const;
    const phase = (half: 'on' | 'off', name: string, durationSeconds = settings.durationSeconds) =>
      paymentPhase(name, { url: gateways[half].url, connections: settings.connections, durationSeconds, pid: gateways[half].pid }, merchant, 'DB');
    for (const half of ['off', 'on'] as const) await phase(half, 'warm-up (not counted)', settings.warmUpSeconds ?? 3);
    const rounds: TracingRound[] = [];
    let tracedPayments = 0;
    const before = await sink.received();
    for (let round = 0; round < tracingSettings.rounds; round += 1) {
      const halves: Partial<Record<'on' | 'off', PhaseResult>> = {};
      for (const half of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        halves[half] = await phase(half, half === 'on' ? 'POST /v1/payments DB, traced (OTLP, every request sampled)' : 'POST /v1/payments DB, tracing off (OTEL_* unset)');
        if (half === 'on') tracedPayments += halves.on!.requests;
      }
      rounds.push({ on: halves.on!, off: halves.off! });
    }
    const exported = await sink.received();
    const cost = tracingCost(rounds);
    const each = rounds.map((r) => `${Math.round(r.on.requestsPerSecond)}/${Math.round(r.off.requestsPerSecond)}`).join(', ');
    const cpu = (pick: (r: TracingRound) => PhaseResult) => median(rounds.map((r) => pick(r).cpuMsPerRequest ?? Number.NaN));
    console.log(`tracing: ${(cost * 100).toFixed(1)} % fewer payments/s traced at full sampling, median of ${Math.ceil(rounds.length / 2)} blocks of two rounds (on/off: ${each}; target < 10 %); ` +
      `gateway CPU per payment ${cpu((r) => r.on).toFixed(3)} ms traced against ${cpu((r) => r.off).toFixed(3)} ms (medians); ` +
      `the sink received ${exported.bodies - before.bodies} exports, ${((exported.spans - before.spans) / tracedPayments).toFixed(2)} spans and ${((exported.bytes - before.bytes) / tracedPayments).toFixed(0)} bytes of OTLP JSON per payment`);
    const shown = rounds.reduce((best, r) => (Math.abs(1 - r.on.requestsPerSecond / r.off.requestsPerSecond - cost) < Math.abs(1 - best.on.requestsPerSecond / best.off.requestsPerSecond - cost) ? r : best));
    return [shown.on, shown.off];
  } finally {
    await Promise.all([off.stop(), on.stop()]);
    await sink.stop();
  }
}

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_tracing');
  try {
    const storage = createPgStorage({ connectionString: schema.url, poolSize: 1 });
    await migrate(storage).finally(() => storage.close());
    const merchant = await createMerchant(schema.url);
    const phases = await tracingPhases(schema, merchant, { connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    for (const phase of phases) console.log(describePhase(phase));
  } finally {
    await schema.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
