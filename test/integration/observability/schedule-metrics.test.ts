import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ScheduleSettings } from '../../../src/config/schedule-settings.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { runScheduleHandler } from '../../../src/jobs/run-schedule.js';
import { wireTime } from '../../../src/operations/schedules/schedule-view.js';
import { testDatabases } from '../../support/databases.js';
import { deltas, valuesOf } from '../../support/metrics.js';
import type { Merchant } from '../../support/payments.js';
import { advance, drain, postSchedule, registrationWithInitialCit } from '../../support/schedules.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const RUNS = 'gateway_schedule_runs_total';

const COUNTS = {
  onTime: [RUNS, { timeliness: 'on_time', outcome: 'success' }],
  late: [RUNS, { timeliness: 'late', outcome: 'success' }],
  missed: ['gateway_schedule_runs_missed_total'],
  jobDone: ['gateway_job_runs_total', { job_type: 'schedule-run', outcome: 'done' }],
} as const;

for (const database of testDatabases()) {
  describe(`schedule runs made, late and missed are counted on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let scheduleId: string;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    /** The app's schedule worker, reporting through the app's observer (SCHEDULE_LATE_SECONDS: 60). */
    function worker(settings: Partial<ScheduleSettings> = {}): JobWorker {
      const observer = t.app.gateway.observer;
      return new JobWorker({
        storage: t.storage, clock: t.clock, logger: silentLogger, observer, concurrency: 8, batchSize: 8, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000,
        handlers: [runScheduleHandler({ payments: t.app.gateway.payments, settings: { ...t.config.schedules, ...settings }, logger: silentLogger })],
      });
    }

    async function nextFireAt(): Promise<Date> {
      const { rows } = await t.storage.query<{ fire_at: Date }>('SELECT fire_at FROM schedules WHERE id = $1', [scheduleId]);
      return rows[0]!.fire_at;
    }

    /** Moves the app's clock to `ms` after the schedule's next fire time and runs what is due. */
    async function runAfterNextFireTime(ms: number, settings: Partial<ScheduleSettings> = {}): Promise<void> {
      t.clock.advance((await nextFireAt()).getTime() + ms - t.clock.now().getTime());
      await drain(worker(settings));
    }

    it('a run made within a minute of its fire time is on time', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const created = await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 * * * ? *' });
      assert.equal(created.statusCode, 200, created.body);
      scheduleId = created.json().id as string;
      const before = await valuesOf(t, COUNTS);
      await runAfterNextFireTime(5_000);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { onTime: 1, late: 0, missed: 0, jobDone: 1 });
    });

    it('a run made two minutes after its fire time is late (but not missed)', async () => {
      const before = await valuesOf(t, COUNTS);
      await runAfterNextFireTime(2 * MINUTE);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { onTime: 0, late: 1, missed: 0, jobDone: 1 });
    });

    it('after an outage of 3.5 hours: the run is made once, late, and the three fire times passed over are missed', async () => {
      const before = await valuesOf(t, COUNTS);
      const fireAt = await nextFireAt();
      await runAfterNextFireTime(3 * HOUR + 30 * MINUTE);
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { onTime: 0, late: 1, missed: 3, jobDone: 1 });
      assert.equal((await nextFireAt()).getTime() - fireAt.getTime(), 4 * HOUR, 'the schedule goes on with the first fire time after now');
    });

    it('SCHEDULE_CATCH_UP=skip: a fire time missed is not made, and counts as missed with those passed over', async () => {
      const before = await valuesOf(t, COUNTS);
      await runAfterNextFireTime(2 * HOUR + 30 * MINUTE, { catchUp: 'skip' });
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { onTime: 0, late: 0, missed: 3, jobDone: 1 });
    });

    it('fire times the test clock jumps over are played: on time, never late or missed', async () => {
      const before = await valuesOf(t, COUNTS);
      const to = new Date(t.clock.now().getTime() + 3 * HOUR);
      const moved = await advance(t, merchant, scheduleId, wireTime(to)!);
      assert.equal(moved.statusCode, 200, moved.body);
      await drain(worker());
      assert.deepEqual(deltas(before, await valuesOf(t, COUNTS)), { onTime: 3, late: 0, missed: 0, jobDone: 3 });
    });
  });
}
