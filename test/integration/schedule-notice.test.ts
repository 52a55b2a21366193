import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import type { Merchant } from '../support/payments.js';
import { advance, deschedule, drain, getSchedule, postSchedule, registrationWithInitialCit, scheduleWorker } from '../support/schedules.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { RECEIVER_TARGETS } from '../support/webhook-receiver.js';

/**
 * Issue 34 item 7: every job.* field is optional with the specification's defaults, and the
 * cancellation notice (job.noticeUnit/noticeNumber/noticeCallable) is enforced on DS
 * (docs/schedules.md "Notice and duration"). The test system's clock starts at 2026-11-22 10:00:00
 * UTC; schedules' time is moved with the test clock (advance), so every fire time is played.
 */

const codeOf = (r: { json(): any }) => r.json().result.code as string;
const fireTimesOf = (shown: any): string[] => shown.schedule.runs.map((r: any) => r.fireTime);

for (const database of testDatabases()) {
  describe(`schedule defaults and notice on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    /** The SCHEDULE notifications of a schedule (its own and its DS's), as action names. */
    async function scheduleActions(scheduleId: string): Promise<string[]> {
      const { rows } = await t.storage.query<{ action: string | null; body: string | null }>(
        `SELECT action, body FROM notifications WHERE entity_id = $1 AND type = 'SCHEDULE' ORDER BY created_at, id`, [merchant.entityId]);
      return rows.filter((r) => {
        const payload = JSON.parse(r.body!).payload;
        return payload.id === scheduleId || payload.referencedId === scheduleId;
      }).map((r) => r.action!);
    }

    it('a schedule without any job.* field runs with the defaults: yearly on 1 January at 00:00:00', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const created = await postSchedule(t, merchant, registrationId, {});
      assert.equal(created.statusCode, 200, created.body);
      const body = created.json();
      assert.equal(body.job.expression, '0 0 0 1 1 ? *');
      assert.equal(body.schedule.nextFireTime, '2027-01-01 00:00:00');
      assert.equal((await advance(t, merchant, body.id, '2029-06-01 00:00:00')).statusCode, 200);
      await drain(scheduleWorker(t));
      const shown = (await getSchedule(t, merchant, body.id)).json();
      assert.deepEqual(fireTimesOf(shown), ['2027-01-01 00:00:00', '2028-01-01 00:00:00', '2029-01-01 00:00:00']);
      assert.ok(shown.schedule.runs.every((r: any) => r.outcome === 'SUCCESS'), JSON.stringify(shown.schedule.runs));
    });

    it('DURATION_END: the duration is prolonged; a DS given in time ends it at the end of the current period, with its runs until then', async () => {
      const webhook = await createWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, webhookTargets: RECEIVER_TARGETS }, { entityId: merchant.entityId, url: 'http://127.0.0.1:9/hook', types: 'PAYMENT,SCHEDULE' });
      await t.storage.query(`UPDATE webhooks SET status = 'active', activated_at = now() WHERE id = $1`, [webhook.webhookId]);
      try {
        const registrationId = await registrationWithInitialCit(t, merchant);
        const worker = scheduleWorker(t);
        // Monthly on the 1st at 09:00; periods of 3 months from 2026-11-22 10:00:00; 30 days' notice before a period's end.
        const plan = { 'job.dayOfMonth': '1', 'job.month': '*', 'job.hour': '9', 'job.durationUnit': 'MONTH', 'job.durationNumber': '3', 'job.noticeUnit': 'DAY', 'job.noticeNumber': '30' };
        const created = (await postSchedule(t, merchant, registrationId, plan)).json();
        assert.equal(created.schedule.endDate, undefined, 'with a notice the duration ends nothing by itself');
        await advance(t, merchant, created.id, '2027-03-01 09:30:00');
        await drain(worker);
        const prolonged = (await getSchedule(t, merchant, created.id)).json();
        assert.equal(prolonged.schedule.state, 'ACTIVE', 'the first period (until 2027-02-22) was prolonged');
        assert.deepEqual(fireTimesOf(prolonged), ['2026-12-01 09:00:00', '2027-01-01 09:00:00', '2027-02-01 09:00:00', '2027-03-01 09:00:00']);

        // DS on 2027-03-01 09:30: 30 days later is 2027-03-31, before the period's end on 2027-05-22 10:00: the notice is respected.
        const cancelled = await deschedule(t, merchant, created.id);
        assert.equal(cancelled.statusCode, 200, cancelled.body);
        assert.equal(cancelled.json().paymentType, 'DS');
        assert.equal(cancelled.json().schedule.state, 'ACTIVE');
        assert.equal(cancelled.json().schedule.endDate, '2027-05-22 09:59:59');
        assert.ok(cancelled.json().schedule.cancelledAt, JSON.stringify(cancelled.json().schedule));
        assert.equal(codeOf(await deschedule(t, merchant, created.id)), '100.360.303', 'a second DS while the first is under way');

        await advance(t, merchant, created.id, '2027-09-01 00:00:00');
        await drain(worker);
        const ended = (await getSchedule(t, merchant, created.id)).json();
        assert.deepEqual(fireTimesOf(ended).slice(4), ['2027-04-01 09:00:00', '2027-05-01 09:00:00'], 'runs until the end of the period, none after');
        assert.equal(ended.schedule.state, 'ENDED');
        assert.equal(ended.schedule.endReason, 'DESCHEDULED');
        // Written at the same (manual) clock time: compared as a set.
        assert.deepEqual((await scheduleActions(created.id)).sort(), ['CREATED', 'DESCHEDULED', 'ENDED']);
      } finally {
        await t.storage.query(`UPDATE webhooks SET status = 'inactive' WHERE id = $1`, [webhook.webhookId]);
      }
    });

    it('DURATION_END: a DS given too late prolongs the schedule by one more period', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const plan = { 'job.dayOfMonth': '1', 'job.month': '*', 'job.hour': '9', 'job.durationUnit': 'MONTH', 'job.durationNumber': '3', 'job.noticeUnit': 'DAY', 'job.noticeNumber': '30', 'job.noticeCallable': 'DURATION_END' };
      const created = (await postSchedule(t, merchant, registrationId, plan)).json();
      await advance(t, merchant, created.id, '2027-02-01 09:30:00');
      await drain(worker);
      // 2027-02-01 + 30 days = 2027-03-03, after the first period's end (2027-02-22 10:00): the next period's end counts.
      const cancelled = (await deschedule(t, merchant, created.id)).json();
      assert.equal(cancelled.schedule.endDate, '2027-05-22 09:59:59');
      await advance(t, merchant, created.id, '2027-09-01 00:00:00');
      await drain(worker);
      const ended = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(fireTimesOf(ended), ['2026-12-01 09:00:00', '2027-01-01 09:00:00', '2027-02-01 09:00:00', '2027-03-01 09:00:00', '2027-04-01 09:00:00', '2027-05-01 09:00:00']);
      assert.equal(ended.schedule.endReason, 'DESCHEDULED');
    });

    it('ANYTIME: a DS takes effect once the notice has passed, whatever the period', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const plan = { 'job.expression': '0 0 9 * * ? *', 'job.durationUnit': 'YEAR', 'job.durationNumber': '1', 'job.noticeUnit': 'DAY', 'job.noticeNumber': '3', 'job.noticeCallable': 'ANYTIME' };
      const created = (await postSchedule(t, merchant, registrationId, plan)).json();
      await advance(t, merchant, created.id, '2026-11-25 10:00:00');
      await drain(worker);
      const cancelled = (await deschedule(t, merchant, created.id)).json();
      assert.equal(cancelled.schedule.endDate, '2026-11-28 09:59:59');
      await advance(t, merchant, created.id, '2026-12-31 00:00:00');
      await drain(worker);
      const ended = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(fireTimesOf(ended), ['2026-11-23 09:00:00', '2026-11-24 09:00:00', '2026-11-25 09:00:00', '2026-11-26 09:00:00', '2026-11-27 09:00:00', '2026-11-28 09:00:00']);
      assert.equal(ended.schedule.endReason, 'DESCHEDULED');
    });

    it('a DS under notice with no run left before it takes effect ends the schedule at once; without notice a DS always does', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const yearly = (await postSchedule(t, merchant, registrationId, { 'job.noticeUnit': 'DAY', 'job.noticeNumber': '7', 'job.noticeCallable': 'ANYTIME' })).json();
      const stopped = (await deschedule(t, merchant, yearly.id)).json();
      assert.equal(stopped.schedule.state, 'ENDED');
      assert.equal(stopped.schedule.endReason, 'DESCHEDULED');
      const daily = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 9 * * ? *' })).json();
      assert.equal((await deschedule(t, merchant, daily.id)).json().schedule.state, 'ENDED');
      assert.equal(await drain(scheduleWorker(t)), 0);
    });

    it('refuses notice fields that cannot be read together, naming the missing one', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const cases: Array<[Record<string, string>, string, string]> = [
        [{ 'job.noticeNumber': '30' }, '100.250.107', 'job.noticeUnit'],
        [{ 'job.noticeUnit': 'DAY' }, '100.250.120', 'job.noticeNumber'],
        [{ 'job.noticeCallable': 'ANYTIME' }, '100.250.120', 'job.noticeCallable'],
      ];
      for (const [fields, code, name] of cases) {
        const response = await postSchedule(t, merchant, registrationId, fields);
        assert.equal(response.statusCode, 400, response.body);
        assert.deepEqual([codeOf(response), response.json().result.parameterErrors?.[0]?.name], [code, name], JSON.stringify(fields));
      }
    });
  });
}
