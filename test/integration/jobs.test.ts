import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { silentLogger, type ClaimedJob, type JobHandler, type JobResult } from '../../src/jobs/job-types.js';
import { JobWorker, type JobWorkerSettings } from '../../src/jobs/job-worker.js';
import type { Queryable, Storage } from '../../src/storage/port.js';
import { claimJobs, deleteJobs, enqueueJob } from '../../src/storage/repositories/jobs.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';

const SETTINGS: JobWorkerSettings = { concurrency: 16, batchSize: 16, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000, maxFailures: 3 };

/** A job kind for tests: records what ran and does what the test says. */
class ProbeHandler implements JobHandler<string> {
  readonly kind = 'probe';
  readonly runs: string[] = [];
  readonly recorded: string[] = [];
  behaviour: (job: ClaimedJob) => Promise<JobResult<string>> = async (job) => ({ record: String(job.payload['n']) });
  failRecordOf: string | undefined;

  start(jobs: readonly ClaimedJob[]): Promise<JobResult<string>>[] {
    return jobs.map((job) => {
      this.runs.push(String(job.payload['n']));
      return this.behaviour(job);
    });
  }
  async record(_tx: Queryable, records: readonly string[]): Promise<void> {
    if (this.failRecordOf !== undefined && records.includes(this.failRecordOf)) throw new Error('record refused');
    this.recorded.push(...records);
  }
}

async function enqueue(storage: Storage, numbers: readonly number[], runAt: Date): Promise<void> {
  await storage.transaction(async (tx) => {
    for (const n of numbers) await enqueueJob(tx, { kind: 'probe', payload: { n }, runAt });
  });
}

async function drain(worker: JobWorker): Promise<number> {
  let total = 0;
  for (let ran = await worker.runOnce(); ran > 0; ran = await worker.runOnce()) total += ran;
  return total;
}

async function jobRows(storage: Storage) {
  const { rows } = await storage.query<{ n: number; failure_count: number; last_error: string | null; failed_at: Date | null; run_at: Date; locked_by: string | null }>(
    `SELECT (payload->>'n')::int AS n, failure_count, last_error, failed_at, run_at, locked_by FROM jobs WHERE kind = 'probe' ORDER BY id`,
  );
  return rows;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

for (const database of testDatabases()) {
  describe(`job queue on ${database.name}`, () => {
    let storage: Storage;
    let clock: ManualClock;
    let probe: ProbeHandler;
    const newWorker = (workerId?: string, settings: Partial<JobWorkerSettings> = {}) =>
      new JobWorker({ ...SETTINGS, ...settings, storage, clock, handlers: [probe], logger: silentLogger, workerId });

    before(async () => {
      storage = await database.open();
    });
    after(async () => storage.close());
    beforeEach(async () => {
      await storage.query('DELETE FROM jobs');
      clock = new ManualClock();
      probe = new ProbeHandler();
    });

    it('runs a job written in a committed transaction once, and never one whose transaction rolled back', async () => {
      await enqueue(storage, [1, 2, 3], clock.now());
      await assert.rejects(storage.transaction(async (tx) => {
        await enqueueJob(tx, { kind: 'probe', payload: { n: 99 }, runAt: clock.now() });
        throw new Error('the state change failed');
      }));
      const worker = newWorker();
      assert.equal(await drain(worker), 3);
      assert.deepEqual(probe.runs.sort(), ['1', '2', '3']);
      assert.deepEqual(probe.recorded.sort(), ['1', '2', '3']);
      assert.equal((await jobRows(storage)).length, 0, 'finished jobs leave the table');
      assert.equal(await worker.runOnce(), 0);
    });

    it('runs a job with runAt only once that time has come', async () => {
      await enqueue(storage, [1], new Date(clock.now().getTime() + 60_000));
      const worker = newWorker();
      assert.equal(await worker.runOnce(), 0);
      clock.advance(59_999);
      assert.equal(await worker.runOnce(), 0);
      clock.advance(1);
      assert.equal(await worker.runOnce(), 1);
    });

    it('masks a card number the error of a failed job quotes, before it is stored', async () => {
      probe.behaviour = async () => {
        throw new Error('acquirer refused card 4012 8888 8888 1881 (expired)');
      };
      await enqueue(storage, [1], clock.now());
      assert.equal(await newWorker().runOnce(), 1);
      const [row] = await jobRows(storage);
      assert.match(row!.last_error ?? '', /^Error: acquirer refused card .*\(expired\)$/);
      assert.doesNotMatch((row!.last_error ?? '').replace(/\D/g, ''), /4012888888881881/);
    });

    it('retries a failing job with a growing back-off and parks it after maxFailures', async () => {
      probe.behaviour = async () => {
        throw new Error('boom');
      };
      await enqueue(storage, [1], clock.now());
      const worker = newWorker();
      const expectedDelaysMs = [1_000, 2_000];
      for (const [index, delayMs] of expectedDelaysMs.entries()) {
        assert.equal(await worker.runOnce(), 1);
        const [row] = await jobRows(storage);
        assert.equal(row!.failure_count, index + 1);
        assert.equal(row!.run_at.getTime(), clock.now().getTime() + delayMs);
        assert.match(row!.last_error ?? '', /boom/);
        assert.equal(row!.locked_by, null);
        clock.advance(delayMs - 1);
        assert.equal(await worker.runOnce(), 0, 'not before its back-off');
        clock.advance(1);
      }
      assert.equal(await worker.runOnce(), 1);
      const [parked] = await jobRows(storage);
      assert.equal(parked!.failure_count, 3);
      assert.ok(parked!.failed_at, 'parked after maxFailures');
      clock.advance(86_400_000);
      assert.equal(await worker.runOnce(), 0, 'a parked job is never claimed');
    });

    it('a retry the job plans itself is not a failure', async () => {
      probe.behaviour = async () => ({ runAgainAt: new Date(clock.now().getTime() + 300_000) });
      await enqueue(storage, [1], clock.now());
      const worker = newWorker();
      assert.equal(await worker.runOnce(), 1);
      const [row] = await jobRows(storage);
      assert.equal(row!.failure_count, 0);
      assert.equal(row!.run_at.getTime(), clock.now().getTime() + 300_000);
    });

    it('two workers on one database never run the same job twice', async () => {
      await enqueue(storage, range(0, 300), clock.now());
      await Promise.all([drain(newWorker('first', { batchSize: 7 })), drain(newWorker('second', { batchSize: 11 }))]);
      assert.equal(probe.runs.length, 300, 'each job ran exactly once');
      assert.equal(new Set(probe.runs).size, 300);
      assert.equal((await jobRows(storage)).length, 0);
    });

    it('sweeps a dead worker’s jobs back once their lease has expired', async () => {
      await enqueue(storage, [1, 2], clock.now());
      const now = clock.now();
      const taken = await claimJobs(storage, { workerId: 'dead', kinds: ['probe'], now, leaseUntil: new Date(now.getTime() + SETTINGS.leaseMs), limit: 10 });
      assert.equal(taken.length, 2);
      const survivor = newWorker('survivor');
      assert.equal(await survivor.runOnce(), 0, 'locked jobs are skipped while the lease runs');
      clock.advance(SETTINGS.leaseMs + SETTINGS.sweepIntervalMs);
      assert.equal(await survivor.runOnce(), 2);
      assert.equal(await deleteJobs(storage, 'dead', taken.map((j) => j.id)), 0, 'the dead worker can no longer complete them');
      assert.deepEqual(probe.runs.sort(), ['1', '2']);
    });

    it('one job whose record cannot be written does not hold back the others', async () => {
      probe.failRecordOf = '2';
      await enqueue(storage, [1, 2, 3], clock.now());
      const worker = newWorker();
      assert.equal(await worker.runOnce(), 3);
      const rows = await jobRows(storage);
      assert.deepEqual(rows.map((r) => [r.n, r.failure_count]), [[2, 1]]);
      assert.match(rows[0]!.last_error ?? '', /record refused/);
      assert.deepEqual(probe.recorded.sort(), ['1', '3']);
    });

    it('a slow job does not hold up the jobs claimed with it', async () => {
      let releaseSlow: () => void = () => undefined;
      const slowDone = new Promise<void>((resolve) => (releaseSlow = resolve));
      probe.behaviour = async (job) => {
        if (job.payload['n'] === 1) await slowDone;
        return {};
      };
      await enqueue(storage, [1, 2, 3], clock.now());
      const worker = newWorker();
      const running = worker.runOnce();
      // Wait until the two quick jobs are written, then let the slow one end.
      for (let rows = await jobRows(storage); rows.length > 1; rows = await jobRows(storage)) await new Promise(setImmediate);
      assert.deepEqual((await jobRows(storage)).map((r) => r.n), [1]);
      releaseSlow();
      assert.equal(await running, 3);
      assert.equal((await jobRows(storage)).length, 0);
    });

    it('a job that wrote due jobs (enqueuedDueJobs) wakes its worker: they run without waiting out the poll interval', async () => {
      const worker = newWorker(undefined, { pollIntervalMs: 60_000 });
      let finish: () => void = () => undefined;
      const second = new Promise<void>((resolve) => (finish = resolve));
      probe.behaviour = async (job) => {
        if (job.payload['n'] === 2) {
          finish();
          return {};
        }
        await enqueue(storage, [2], clock.now());
        return { enqueuedDueJobs: true };
      };
      await enqueue(storage, [1], clock.now());
      worker.start();
      worker.wake();
      const started = Date.now();
      await second;
      await worker.stop();
      assert.ok(Date.now() - started < 10_000, 'the second job ran long before the 60 s poll');
      assert.deepEqual(probe.runs, ['1', '2']);
    });

    it('start() runs jobs as they come and stop() waits for the running ones', async () => {
      const worker = newWorker();
      let finish: () => void = () => undefined;
      const ran = new Promise<void>((resolve) => (finish = resolve));
      probe.behaviour = async () => {
        finish();
        return {};
      };
      worker.start();
      await enqueue(storage, [1], clock.now());
      worker.wake();
      await ran;
      await worker.stop();
      assert.equal((await jobRows(storage)).length, 0);
      await enqueue(storage, [2], clock.now());
      assert.deepEqual(probe.runs, ['1'], 'a stopped worker claims nothing');
    });
  });
}
