import { performance } from 'node:perf_hooks';
import type { Clock } from '../domain/ids.js';
import { JOB_KINDS } from '../jobs/job-kinds.js';
import { dueJobsByKind, pendingBacklog, type DueJobs, type PendingBacklog } from '../storage/repositories/backlog.js';
import type { PoolStats, Storage } from '../storage/port.js';
import type { GatewayMetrics } from './metrics.js';

/**
 * The gauges a process reads from its storage when Prometheus scrapes: the job queue and the
 * pending payments (from the database: the same in every process, aggregated with `first`) and
 * the connection pools (this process's own, summed over the node). Read at scrape time, so nothing
 * is counted on the payment path; a read that fails leaves its series out of that scrape.
 */
export function sampleStorageGauges(metrics: GatewayMetrics, storage: Storage, clock: Clock, options: { readonly readLimitMs?: number } = {}): void {
  const read = sharedRead(() => readStorage(storage, clock, options.readLimitMs ?? STORAGE_READ_LIMIT_MS));
  sampleJobQueue(metrics, read);
  samplePendingPayments(metrics, read);
  if (storage.poolStats) samplePools(metrics, read);
}

interface StorageReading {
  readonly now: Date;
  /** Taken before the reading's own queries borrow a connection, so they never count as in use. */
  readonly pools: readonly PoolStats[];
  readonly dueJobs: PromiseSettledResult<readonly DueJobs[]>;
  readonly pending: PromiseSettledResult<PendingBacklog>;
}

/**
 * How long a scrape waits for the database's answers: a saturated pool or a hung database (up to
 * the 5 s connection and statement timeouts, twice) would otherwise outlast Prometheus's scrape
 * timeout (10 s by default) and lose the whole scrape, pool gauges included, when it matters most.
 */
export const STORAGE_READ_LIMIT_MS = 2_000;

/** The pools first, then the two queries one after the other: a scrape holds at most one connection. */
async function readStorage(storage: Storage, clock: Clock, limitMs: number): Promise<StorageReading> {
  const pools = storage.poolStats?.() ?? [];
  const now = clock.now();
  const deadline = performance.now() + limitMs;
  const dueJobs = await settle(() => dueJobsByKind(storage, now), deadline);
  const pending = await settle(() => pendingBacklog(storage), deadline);
  return { now, pools, dueJobs, pending };
}

/** Runs `read` if time is left, and gives up on its answer at the deadline (the query ends by its own timeout). */
function settle<T>(read: () => Promise<T>, deadline: number): Promise<PromiseSettledResult<T>> {
  const leftMs = deadline - performance.now();
  if (leftMs <= 0) return Promise.resolve({ status: 'rejected', reason: new Error('no time left in this scrape') });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the database did not answer in time for this scrape')), leftMs)));
  return Promise.race([read(), late])
    .then((value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }), (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }))
    .finally(() => clearTimeout(timer));
}

/** One reading serves every gauge of one scrape (prom-client collects them together); nothing is kept after it. */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => (inFlight ??= read().finally(() => { inFlight = undefined; }));
}

/** A part of the reading that failed throws, and the gauge leaves its series out. */
function valueOf<T>(settled: PromiseSettledResult<T>): T {
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

const secondsSince = (at: Date, now: Date): number => Math.max(0, (now.getTime() - at.getTime()) / 1000);

/** Every kind the workers run, at 0 when none is due, and any other kind found in the queue. */
function byKind(due: readonly DueJobs[]): Map<string, DueJobs | undefined> {
  const kinds = new Map<string, DueJobs | undefined>(JOB_KINDS.map((kind) => [kind, undefined]));
  for (const row of due) kinds.set(row.kind, row);
  return kinds;
}

function sampleJobQueue(metrics: GatewayMetrics, read: () => Promise<StorageReading>): void {
  metrics.sample('jobsDue', async () => [...byKind(valueOf((await read()).dueJobs))].map(([kind, row]) => ({ labels: { job_type: kind }, value: row?.due ?? 0 })));
  metrics.sample('oldestDueJobAge', async () => {
    const { now, dueJobs } = await read();
    return [...byKind(valueOf(dueJobs))].map(([kind, row]) => ({ labels: { job_type: kind }, value: row ? secondsSince(row.oldestDueAt, now) : 0 }));
  });
}

function samplePendingPayments(metrics: GatewayMetrics, read: () => Promise<StorageReading>): void {
  metrics.sample('pendingPayments', async () => [{ labels: {}, value: valueOf((await read()).pending).pending }]);
  metrics.sample('oldestPendingAge', async () => {
    const { now, pending } = await read();
    const { oldestCreatedAt } = valueOf(pending);
    return [{ labels: {}, value: oldestCreatedAt ? secondsSince(oldestCreatedAt, now) : 0 }];
  });
}

function samplePools(metrics: GatewayMetrics, read: () => Promise<StorageReading>): void {
  metrics.sample('dbPoolConnections', async () =>
    (await read()).pools.flatMap((s) => [
      { labels: { pool: s.pool, state: 'in_use' }, value: s.inUse },
      { labels: { pool: s.pool, state: 'idle' }, value: s.idle },
    ]),
  );
  metrics.sample('dbPoolWaiting', async () => (await read()).pools.map((s) => ({ labels: { pool: s.pool }, value: s.waiting })));
  metrics.sample('dbPoolMax', async () => (await read()).pools.map((s) => ({ labels: { pool: s.pool }, value: s.max })));
}
