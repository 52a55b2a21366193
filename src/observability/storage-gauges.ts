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
export function sampleStorageGauges(metrics: GatewayMetrics, storage: Storage, clock: Clock): void {
  const read = sharedRead(() => readStorage(storage, clock));
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

/** The pools first, then the two queries one after the other: a scrape holds at most one connection. */
async function readStorage(storage: Storage, clock: Clock): Promise<StorageReading> {
  const pools = storage.poolStats?.() ?? [];
  const now = clock.now();
  const dueJobs = await settle(dueJobsByKind(storage, now));
  const pending = await settle(pendingBacklog(storage));
  return { now, pools, dueJobs, pending };
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then((value) => ({ status: 'fulfilled', value }), (reason: unknown) => ({ status: 'rejected', reason }));
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
