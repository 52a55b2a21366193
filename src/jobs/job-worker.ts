import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../domain/ids.js';
import { noObserver, type Observer } from '../observability/observer.js';
import { startTracedBatch } from '../observability/tracing/job-trace.js';
import { tracingOn } from '../observability/tracing/state.js';
import { isDatabaseUnavailable } from '../storage/errors.js';
import type { Storage } from '../storage/port.js';
import { claimJobs, sweepExpiredLeases, type ClaimedJob } from '../storage/repositories/jobs.js';
import { JOB_MAX_FAILURES } from './failure-backoff.js';
import type { JobHandler, JobLogger } from './job-types.js';
import { runOutcomeOf, writeOutcomes, type FinishedJob } from './write-outcomes.js';

export interface JobWorkerSettings {
  /** Jobs one worker runs at the same time (webhook calls mostly wait on the network). */
  readonly concurrency: number;
  /** Most jobs one claim takes. */
  readonly batchSize: number;
  /** How long an idle worker waits before it looks for due jobs again. */
  readonly pollIntervalMs: number;
  /** How long a claimed job stays locked; must exceed the longest job (webhookTimeoutMs). */
  readonly leaseMs: number;
  /** How often expired leases are swept back to the queue. */
  readonly sweepIntervalMs: number;
  readonly maxFailures?: number;
}

export interface JobWorkerOptions extends JobWorkerSettings {
  readonly storage: Storage;
  readonly clock: Clock;
  readonly handlers: readonly JobHandler<any>[];
  readonly logger: JobLogger;
  readonly workerId?: string;
  /** Where each run is reported (gateway_job_runs_total); nothing when absent. */
  readonly observer?: Observer | undefined;
}

/** A latch: waiters resume at the next signal. */
class Signal {
  private waiters: (() => void)[] = [];
  notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resume of waiters) resume();
  }
  next(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/**
 * Runs jobs from the queue. Jobs are claimed in batches and started at once; each frees its slot
 * as soon as it ends, and finished jobs are written together: while one write runs, the next
 * ones gather, so under load one transaction completes many jobs. Drive it with runOnce() (tests,
 * one step at a time) or start()/stop() (a loop that sleeps pollIntervalMs when idle).
 */
export class JobWorker {
  readonly workerId: string;
  private readonly handlers: ReadonlyMap<string, JobHandler<unknown>>;
  private inFlight = 0;
  private finished: FinishedJob[] = [];
  private flushing: Promise<void> | undefined;
  private lastSweepAtMs = Number.NEGATIVE_INFINITY;
  private stopping = false;
  private loop: Promise<void> | undefined;
  private readonly changed = new Signal();
  private readonly woken = new Signal();
  private wakeAsked = false;

  constructor(private readonly options: JobWorkerOptions) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.handlers = new Map(options.handlers.map((h) => [h.kind, h as JobHandler<unknown>]));
  }

  /** One step: sweep if due, claim one batch, run it to the end and write the outcomes. */
  async runOnce(): Promise<number> {
    await this.sweepIfDue();
    const claimed = await this.claimAndStart(Math.min(this.options.batchSize, this.options.concurrency - this.inFlight));
    await this.idle();
    return claimed;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Looks for jobs now instead of at the end of the poll interval. */
  wake(): void {
    // Remembered until the next claim: a wake that comes while the worker is claiming still counts.
    this.wakeAsked = true;
    this.woken.notify();
  }

  /** Stops claiming, lets running jobs finish and writes their outcomes. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await this.idle();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.step();
      } catch (error) {
        this.options.logger.error({ err: describe(error), workerId: this.workerId }, 'job worker step failed');
        await this.pause(this.options.pollIntervalMs, false);
      }
    }
  }

  private async step(): Promise<void> {
    await this.sweepIfDue();
    const { concurrency, batchSize } = this.options;
    const free = concurrency - this.inFlight;
    // Claim in worthwhile batches; a drained queue or full slots means waiting.
    const wanted = Math.min(batchSize, free);
    if (wanted < Math.max(1, Math.floor(Math.min(batchSize, concurrency) / 2))) {
      await this.pause(this.options.pollIntervalMs, true);
      return;
    }
    const claimed = await this.claimAndStart(wanted);
    if (claimed < wanted) await this.pause(this.options.pollIntervalMs, false);
  }

  /** Waits for wake(), the time limit, or (withSlots) a job to end. */
  private async pause(ms: number, withSlots: boolean): Promise<void> {
    // Slots full (withSlots): the claim a wake asks for comes when a job ends and frees one.
    if (this.stopping || (this.wakeAsked && !withSlots)) return;
    let timer: NodeJS.Timeout | undefined;
    const waits = [this.woken.next(), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))];
    if (withSlots) waits.push(this.changed.next());
    await Promise.race(waits);
    clearTimeout(timer);
  }

  private async sweepIfDue(): Promise<void> {
    const now = this.options.clock.now();
    if (now.getTime() - this.lastSweepAtMs < this.options.sweepIntervalMs) return;
    this.lastSweepAtMs = now.getTime();
    const swept = await sweepExpiredLeases(this.options.storage, now);
    if (swept > 0) this.options.logger.warn({ swept, workerId: this.workerId }, 'expired job leases returned to the queue');
  }

  private async claimAndStart(limit: number): Promise<number> {
    if (limit <= 0 || this.stopping) return 0;
    this.wakeAsked = false;
    const now = this.options.clock.now();
    const jobs = await claimJobs(this.options.storage, {
      workerId: this.workerId,
      kinds: [...this.handlers.keys()],
      now,
      leaseUntil: new Date(now.getTime() + this.options.leaseMs),
      limit,
    });
    if (jobs.length > 0) this.options.logger.debug({ claimed: jobs.length, workerId: this.workerId }, 'jobs claimed');
    for (const [kind, batch] of groupByKind(jobs)) this.startBatch(this.handlers.get(kind)!, batch);
    return jobs.length;
  }

  private startBatch(handler: JobHandler<unknown>, jobs: readonly ClaimedJob[]): void {
    this.inFlight += jobs.length;
    let running: Promise<unknown>[];
    try {
      // Traced: a span per job, the child of the request that wrote it (jobs.trace_parent).
      running = tracingOn ? startTracedBatch(jobs, () => handler.start(jobs)) : handler.start(jobs);
    } catch (error) {
      running = jobs.map(() => Promise.reject(error));
    }
    jobs.forEach((job, index) => {
      const promise = running[index] ?? Promise.reject(new Error(`handler ${handler.kind} returned no result`));
      promise.then(
        (result) => this.onFinished({ job, handler, ok: true, result: result ?? {} }),
        (error: unknown) => this.onFinished({ job, handler, ok: false, error }),
      );
    });
  }

  private onFinished(entry: FinishedJob): void {
    this.inFlight -= 1;
    if (entry.ok && entry.result.enqueuedDueJobs) this.wake();
    (this.options.observer ?? noObserver).jobRun({ jobType: entry.job.kind, outcome: runOutcomeOf(entry, this.options.maxFailures ?? JOB_MAX_FAILURES) });
    this.finished.push(entry);
    this.scheduleFlush();
    this.changed.notify();
  }

  private scheduleFlush(): void {
    if (this.flushing || this.finished.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = undefined;
      this.scheduleFlush();
      this.changed.notify();
    });
  }

  private async flush(): Promise<void> {
    const entries = this.finished;
    this.finished = [];
    try {
      await writeOutcomes(this.options.storage, entries, this.outcomeContext());
    } catch (error) {
      if (!isDatabaseUnavailable(error) || this.stopping) {
        this.options.logger.error({ err: describe(error), jobs: entries.length }, 'could not write job outcomes; their leases will expire');
        return;
      }
      // The database is away: keep the outcomes and try again after a pause.
      this.finished.unshift(...entries);
      await new Promise((resolve) => setTimeout(resolve, this.options.pollIntervalMs));
    }
  }

  private outcomeContext() {
    return {
      workerId: this.workerId,
      now: this.options.clock.now(),
      maxFailures: this.options.maxFailures ?? JOB_MAX_FAILURES,
      logger: this.options.logger,
    };
  }

  /** Resolves once nothing runs and every outcome is written. */
  private async idle(): Promise<void> {
    while (this.inFlight > 0 || this.finished.length > 0 || this.flushing) {
      await this.changed.next();
    }
  }
}

function groupByKind(jobs: readonly ClaimedJob[]): Map<string, ClaimedJob[]> {
  const groups = new Map<string, ClaimedJob[]>();
  for (const job of jobs) {
    const group = groups.get(job.kind);
    if (group) group.push(job);
    else groups.set(job.kind, [job]);
  }
  return groups;
}

export function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
