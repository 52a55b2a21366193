/**
 * One load phase: autocannon (as a library) keeps `connections` keep-alive connections busy for
 * a fixed time, or a fixed number of requests, and reports throughput and latency percentiles.
 */
import autocannon from 'autocannon';
import { cpuTimeMs, sampleMemory } from './support/node-process.js';

export interface HttpRequestSpec {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface LoadPhase {
  readonly name: string;
  readonly url: string;
  readonly connections: number;
  /** Run for this long… */
  readonly durationSeconds?: number;
  /** …or until this many requests have been answered. */
  readonly amount?: number;
  /** Called for every request; the index counts from 0 across all connections. */
  readonly request: (index: number) => HttpRequestSpec;
  /** The process whose resident memory is sampled while the phase runs. */
  readonly pid?: number;
}

export interface PhaseResult {
  readonly name: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly p99_9: number; readonly max: number };
  /** Connection errors and timeouts: requests that got no answer at all. */
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  /** Highest resident memory of `pid` seen during the phase. */
  readonly rssMiB?: number;
  /**
   * CPU time `pid` spent per answered request. Steadier than requests/s on a shared machine:
   * other processes take turns on the cores but do not make each request cost more CPU.
   */
  readonly cpuMsPerRequest?: number;
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export function formRequest(path: string, token: string, fields: Readonly<Record<string, string>>): HttpRequestSpec {
  return {
    method: 'POST',
    path,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': FORM_CONTENT_TYPE, authorization: `Bearer ${token}` },
  };
}

export function getRequest(path: string, token: string): HttpRequestSpec {
  return { method: 'GET', path, headers: { authorization: `Bearer ${token}` } };
}

function statusCodesOf(result: autocannon.Result): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) counts[code] = stats.count ?? 0;
  return counts;
}

export async function runPhase(phase: LoadPhase): Promise<PhaseResult> {
  let index = 0;
  const memory = phase.pid === undefined ? undefined : sampleMemory(phase.pid);
  const cpuBeforeMs = phase.pid === undefined ? undefined : cpuTimeMs(phase.pid);
  const result = await autocannon({
    url: phase.url,
    connections: phase.connections,
    ...(phase.amount !== undefined ? { amount: phase.amount } : { duration: phase.durationSeconds ?? 10 }),
    timeout: 30,
    requests: [{
      setupRequest: (request) => {
        const spec = phase.request(index);
        index += 1;
        return { ...request, method: spec.method, path: spec.path, headers: { ...spec.headers }, body: spec.body ?? '' };
      },
    }],
  });
  const requests = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  const rssMiB = memory?.stop();
  const cpuAfterMs = phase.pid === undefined ? undefined : cpuTimeMs(phase.pid);
  const cpuMsPerRequest = cpuBeforeMs !== undefined && cpuAfterMs !== undefined && requests > 0 ? (cpuAfterMs - cpuBeforeMs) / requests : undefined;
  return {
    name: phase.name,
    connections: phase.connections,
    durationSeconds: result.duration,
    requests,
    requestsPerSecond: requests / result.duration,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, p99_9: result.latency.p99_9, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: statusCodesOf(result),
    ...(rssMiB !== undefined ? { rssMiB } : {}),
    ...(cpuMsPerRequest !== undefined ? { cpuMsPerRequest } : {}),
  };
}

export function describePhase(r: PhaseResult): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  return `${r.name.padEnd(30)} ${r.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${ms(r.latencyMs.p50)}  p99 ${ms(r.latencyMs.p99)}` +
    `  p99.9 ${ms(r.latencyMs.p99_9)}  errors ${r.errors}  non-2xx ${r.non2xx}${r.rssMiB !== undefined ? `  RSS ≤ ${r.rssMiB.toFixed(0)} MiB` : ''}` +
    `${r.cpuMsPerRequest !== undefined ? `  CPU ${r.cpuMsPerRequest.toFixed(2)} ms/req` : ''}`;
}
