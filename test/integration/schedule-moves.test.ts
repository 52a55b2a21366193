import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finishFiring } from '../../src/operations/schedules/finish-firing.js';
import { SCHEDULE_RUN_JOB } from '../../src/operations/schedules/schedule-firing.js';
import { cancelSchedule, findSchedulesById, moveFiring, setTestClock, type FiringMove, type StoredSchedule } from '../../src/storage/repositories/schedules.js';
import { countingStorage } from '../support/counting-storage.js';
import { testDatabases } from '../support/databases.js';
import type { Merchant } from '../support/payments.js';
import { postSchedule, registrationWithInitialCit } from '../support/schedules.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

const DAY_MS = 86_400_000;

/** The move a firing of the schedule as read would make: its run skipped, the next fire time a day later. */
function moveOf(schedule: StoredSchedule, at: Date): FiringMove {
  const nextFireAt = new Date(schedule.fireAt!.getTime() + DAY_MS);
  return {
    scheduleId: schedule.id,
    fromJobId: schedule.jobId!,
    clockOffsetMs: schedule.clockOffsetMs,
    cancelledAt: schedule.cancelledAt,
    run: { scheduleId: schedule.id, fireAt: schedule.fireAt!, attempt: 0, outcome: 'skipped', transactionId: null, resultCode: null, ranAt: at },
    next: { fireAt: nextFireAt, attempt: 0, runAt: nextFireAt, jobKind: SCHEDULE_RUN_JOB },
    at,
  };
}

for (const database of testDatabases()) {
  describe(`moving schedules on after their firings, grouped, on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    async function schedules(count: number): Promise<StoredSchedule[]> {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const ids: string[] = [];
      for (let n = 0; n < count; n += 1) {
        const created = await postSchedule(t, merchant, registrationId, { 'job.dayOfMonth': '1', 'job.hour': String(n) });
        assert.equal(created.statusCode, 200, created.body);
        ids.push(created.json().id as string);
      }
      const found = await findSchedulesById(t.storage, ids);
      return ids.map((id) => found.get(id)!);
    }

    async function runsOf(scheduleId: string): Promise<number> {
      const { rows } = await t.storage.query<{ n: string }>('SELECT count(*) AS n FROM schedule_runs WHERE schedule_id = $1', [scheduleId]);
      return Number(rows[0]!.n);
    }

    /** The jobs written for the schedule (its first at creation, one more per move). */
    async function jobsOf(scheduleId: string): Promise<Array<{ id: string; run_at: Date; payload: Record<string, unknown> }>> {
      const { rows } = await t.storage.query<{ id: string; run_at: Date; payload: Record<string, unknown> }>(
        `SELECT id, run_at, payload FROM jobs WHERE kind = $1 AND payload->>'scheduleId' = $2 ORDER BY id`,
        [SCHEDULE_RUN_JOB, scheduleId],
      );
      return rows;
    }

    it('concurrent moves share one statement; the same firing twice in a group moves once; a schedule changed meanwhile is not moved', async () => {
      const [lone, a, b, c, changed, cancelled] = await schedules(6);
      const at = t.clock.now();
      // After they were read: another test clock (what /advance sets), and a cancellation under notice, so their planned next firings no longer hold.
      await setTestClock(t.storage, changed!.id, 60_000, at, at);
      await cancelSchedule(t.storage, cancelled!.id, new Date(at.getTime() + 40 * DAY_MS), at);
      const counted = countingStorage(t.storage);
      // The first move goes out alone; the others, asked meanwhile, share the next statement.
      const asked = [lone!, a!, b!, a!, c!, changed!, cancelled!];
      const moved = await Promise.all(asked.map((s) => moveFiring(counted.storage, moveOf(s, at))));
      assert.deepEqual(moved, [true, true, true, false, true, false, false]);
      assert.equal(counted.statements(), 2);

      const after = await findSchedulesById(t.storage, asked.map((s) => s.id));
      for (const schedule of [lone!, a!, b!, c!]) {
        const now = after.get(schedule.id)!;
        const jobs = await jobsOf(schedule.id);
        assert.equal(jobs.length, 2, 'one next job per moved schedule, even when asked twice');
        assert.equal(now.jobId, String(jobs[1]!.id), 'the schedule names its new job');
        assert.notEqual(now.jobId, schedule.jobId);
        assert.equal(now.fireAt?.getTime(), schedule.fireAt!.getTime() + DAY_MS);
        assert.equal(jobs[1]!.run_at.getTime(), schedule.fireAt!.getTime() + DAY_MS);
        assert.deepEqual(jobs[1]!.payload, { scheduleId: schedule.id, fireAt: new Date(schedule.fireAt!.getTime() + DAY_MS).toISOString(), attempt: 0 });
        assert.equal(await runsOf(schedule.id), 1);
      }
      for (const schedule of [changed!, cancelled!]) {
        const untouched = after.get(schedule.id)!;
        assert.equal(untouched.jobId, schedule.jobId);
        assert.equal(untouched.fireAt?.getTime(), schedule.fireAt!.getTime());
        assert.equal(await runsOf(schedule.id), 0);
        assert.equal((await jobsOf(schedule.id)).length, 1);
      }

      // A second making of a firing already moved: its job is no longer the schedule's.
      assert.equal(await moveFiring(counted.storage, moveOf(a!, at)), false);
      assert.equal((await jobsOf(a!.id)).length, 2);
    });

    it('a firing whose schedule changed since it was read falls back to the locked path, which plans with the schedule as it is', async () => {
      const [goesOn, changed] = await schedules(2);
      const at = t.clock.now();
      await setTestClock(t.storage, changed!.id, 60_000, at, at);
      const deps = { payments: t.app.gateway.payments, settings: t.config.schedules };
      const finish = (known: StoredSchedule) => {
        const nextFireAt = new Date(known.fireAt!.getTime() + DAY_MS);
        return finishFiring(deps, { jobId: known.jobId!, scheduleId: known.id, fireAt: known.fireAt!, attempt: 0 }, {
          outcome: 'skipped',
          transactionId: null,
          code: null,
          next: (schedule) => ({ fireAt: nextFireAt, attempt: 0, runAt: new Date(nextFireAt.getTime() - schedule.clockOffsetMs) }),
        }, known);
      };
      const results = await Promise.all([finish(goesOn!), finish(changed!)]);
      assert.deepEqual(results.map((r) => r.kind), ['ran', 'ran']);
      for (const known of [goesOn!, changed!]) {
        const now = (await findSchedulesById(t.storage, [known.id])).get(known.id)!;
        const jobs = await jobsOf(known.id);
        assert.equal(await runsOf(known.id), 1);
        assert.equal(jobs.length, 2);
        assert.equal(now.jobId, String(jobs[1]!.id));
        // Planned with the clock each schedule has now: the changed one's by the lock path.
        assert.equal(jobs[1]!.run_at.getTime(), known.fireAt!.getTime() + DAY_MS - now.clockOffsetMs);
      }
      assert.equal((await findSchedulesById(t.storage, [changed!.id])).get(changed!.id)!.clockOffsetMs, 60_000);
    });
  });
}
