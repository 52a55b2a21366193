import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { deleteRegistration, postRegistration } from '../support/registrations.js';
import { advance, deschedule, drain, getSchedule, listSchedules, postSchedule, registrationWithInitialCit, reschedule, scheduleWorker } from '../support/schedules.js';
import { bearer, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { RECEIVER_TARGETS } from '../support/webhook-receiver.js';

const codeOf = (r: { json(): any }) => r.json().result.code as string;
const errorOf = (r: { json(): any }) => [codeOf(r), r.json().result.parameterErrors?.[0]?.name];
const HOUR_MS = 3_600_000;

for (const database of testDatabases()) {
  describe(`schedules on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });
    /** Moves the test's clock to a fire time shown by the API (yyyy-MM-dd HH:mm:ss, UTC). */
    const untilFireTime = (shown: string) => t.clock.advance(Math.max(0, new Date(`${shown.replace(' ', 'T')}Z`).getTime() - t.clock.now().getTime()));

    it('SD creates a schedule (a transaction in /v1/query), GET shows it, and its first run is a MIT REPEATED payment', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      // The test clock starts at 2026-11-22 10:00:00 UTC: the next 1st of a month at 09:00 is 1 December.
      const created = await postSchedule(t, merchant, registrationId, { 'job.dayOfMonth': '1', 'job.month': '*', 'job.hour': '9', merchantTransactionId: 'sched-first-run' });
      assert.equal(created.statusCode, 200, created.body + t.logs.text.slice(-3000));
      const body = created.json();
      assert.equal(body.result.code, '000.100.110');
      assert.equal(body.paymentType, 'SD');
      assert.equal(body.schedule.state, 'ACTIVE');
      assert.equal(body.schedule.nextFireTime, '2026-12-01 09:00:00');
      assert.equal(body.job.expression, '0 0 9 1 * ? *');
      assert.equal(body.job.timeZone, 'UTC');

      const queried = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=sched-first-run`, headers: bearer(merchant.accessToken) });
      assert.equal(queried.statusCode, 200, queried.body);
      assert.deepEqual(queried.json().payments.map((p: any) => p.paymentType), ['SD']);

      const worker = scheduleWorker(t);
      assert.equal(await drain(worker), 0, 'nothing is due before the fire time');
      t.clock.advance(9 * 24 * HOUR_MS);
      assert.equal(await drain(worker), 1);
      const shown = (await getSchedule(t, merchant, body.id)).json();
      assert.equal(shown.schedule.runs.length, 1);
      const run = shown.schedule.runs[0];
      assert.equal(run.fireTime, '2026-12-01 09:00:00');
      assert.equal(run.outcome, 'SUCCESS');
      assert.equal(shown.schedule.nextFireTime, '2027-01-01 09:00:00');
      const payment = await t.app.inject({ method: 'GET', url: `/v1/payments/${run.paymentId}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      const paid = payment.json();
      assert.match(paid.result.code, SUCCESS_PATTERN);
      assert.equal(paid.amount, '12.00');
      assert.equal(paid.registrationId, registrationId);
      assert.equal(paid.standingInstruction.mode, 'REPEATED');
      assert.equal(paid.standingInstruction.source, 'MIT');
      assert.equal(paid.standingInstruction.type, 'RECURRING');
      assert.match(paid.standingInstruction.initialTransactionId, /^SIM/);

      const listed = (await listSchedules(t, merchant, registrationId)).json();
      assert.deepEqual(listed.schedules.map((s: any) => s.id), [body.id]);
    });

    it('refuses bad plans with the 100.250.* code that fits, naming the field', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const cases: Array<[string, Record<string, string>, string, string]> = [
        ['both day fields', { 'job.dayOfMonth': '1', 'job.dayOfWeek': '2' }, '100.250.120', 'job.dayOfWeek'],
        ['hour 24 in an expression', { 'job.expression': '0 0 24 1 * ? *' }, '100.250.121', 'job.expression'],
        ['day of week 8 in an expression', { 'job.expression': '0 0 0 ? * 8 *' }, '100.250.125', 'job.expression'],
        ['both days in an expression', { 'job.expression': '0 0 0 1 * 2 *' }, '100.250.120', 'job.expression'],
        ['eight fields', { 'job.expression': '0 0 0 1 * ? * 1' }, '100.250.120', 'job.expression'],
        ['month 13', { 'job.month': '13' }, '100.250.124', 'job.month'],
        ['a date that never comes', { 'job.expression': '0 0 0 30 2 ? *' }, '100.250.120', 'job.expression'],
        ['unknown time zone', { 'job.hour': '1', 'job.timeZone': 'Mars/Olympus' }, '100.250.120', 'job.timeZone'],
        ['a CIT run', { 'job.hour': '1', 'standingInstruction.source': 'CIT' }, '600.200.501', 'standingInstruction.source'],
      ];
      for (const [label, fields, code, name] of cases) {
        const response = await postSchedule(t, merchant, registrationId, fields);
        assert.equal(response.statusCode, 400, `${label}: ${response.body}`);
        assert.deepEqual(errorOf(response), [code, name], label);
      }
      const plain = (await postRegistration(t, merchant)).json().id as string;
      const withoutCit = await postSchedule(t, merchant, plain, { 'job.hour': '1' });
      assert.deepEqual(errorOf(withoutCit), ['100.150.300', 'registrationId']);
      // Both ways out named in one answer, each pointing to the docs.
      const { parameterErrors } = withoutCit.json().result;
      assert.deepEqual(parameterErrors.map((e: { name: string }) => e.name), ['registrationId', 'standingInstruction.initialTransactionId']);
      for (const entry of parameterErrors) assert.match(entry.message, /docs\/schedules\.md#creating-a-schedule/);
      // A bad run field and the missing initial payment: one answer says both.
      const all = (await postSchedule(t, merchant, plain, { 'job.hour': '1', 'standingInstruction.source': 'CIT', 'standingInstruction.mode': 'INITIAL' })).json().result;
      assert.equal(all.code, '600.200.501');
      assert.deepEqual(all.parameterErrors.map((e: { name: string }) => e.name), ['standingInstruction.mode', 'standingInstruction.source', 'registrationId', 'standingInstruction.initialTransactionId']);
    });

    it('a one-time expression whose fields read together look like a card number is a schedule; a card number within one field is refused, masked', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      // 30 10 10 10 12 ? 2026 reads as 30101010122026: a Luhn-valid number of DINERS' range and length.
      const onceAt = '30 10 10 10 12 ? 2026';
      const created = await postSchedule(t, merchant, registrationId, { 'job.expression': onceAt, merchantTransactionId: 'sched-once-luhn' });
      assert.equal(created.statusCode, 200, created.body);
      assert.equal(created.json().job.expression, onceAt);
      assert.equal(created.json().schedule.nextFireTime, '2026-12-10 10:10:30');
      assert.equal((await deschedule(t, merchant, created.json().id)).statusCode, 200, 'the other tests drain every due run');
      const hidden = await postSchedule(t, merchant, registrationId, { 'job.expression': '0 4,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 * * * ? *' });
      assert.equal(hidden.statusCode, 400, hidden.body);
      assert.deepEqual(errorOf(hidden), ['200.100.404', 'job.expression']);
      assert.doesNotMatch(hidden.body, /4,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1/);
      // A digit run refused by the cron grammar is shown masked, in the value and in the message.
      const long = await postSchedule(t, merchant, registrationId, { 'job.expression': '0 4111111111111111 * * * ? *' });
      assert.equal(long.statusCode, 400, long.body);
      assert.equal(errorOf(long)[1], 'job.expression');
      assert.doesNotMatch(long.body, /4111111111111111/);
      assert.match(long.json().result.parameterErrors[0].value, /\*{4,}1111 \* \* \* \? \*$/);
    });

    it('DS stops all runs; RS ends the old plan and starts the new one', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const daily = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 12 * * ? *', merchantTransactionId: 'sched-rs-ds' })).json();
      const rescheduled = await reschedule(t, merchant, daily.id, { 'job.expression': '0 30 6 ? * MON *' });
      assert.equal(rescheduled.statusCode, 200, rescheduled.body);
      const plan = rescheduled.json();
      assert.equal(plan.paymentType, 'RS');
      assert.equal(plan.referencedId, daily.id);
      assert.equal(plan.amount, '12.00');
      const old = (await getSchedule(t, merchant, daily.id)).json();
      assert.equal(old.schedule.state, 'ENDED');
      assert.equal(old.schedule.endReason, 'RESCHEDULED');
      assert.equal(old.schedule.replacedBy, plan.id);

      const stopped = await deschedule(t, merchant, plan.id);
      assert.equal(stopped.statusCode, 200, stopped.body);
      assert.equal(stopped.json().paymentType, 'DS');
      assert.equal(stopped.json().referencedId, plan.id);
      t.clock.advance(30 * 24 * HOUR_MS);
      assert.equal(await drain(worker), 0, 'no run after DS');
      assert.equal((await getSchedule(t, merchant, plan.id)).json().schedule.runs.length, 0);
      assert.deepEqual(errorOf(await deschedule(t, merchant, plan.id)), ['100.360.303', 'id']);
      const queried = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=sched-rs-ds`, headers: bearer(merchant.accessToken) });
      assert.deepEqual(queried.json().payments.map((p: any) => p.paymentType).sort(), ['DS', 'RS', 'SD']);
      assert.equal((await getSchedule(t, merchant, 'f'.repeat(32))).statusCode, 404);
    });

    it('the test clock moves a monthly schedule through a year: 12 payments, each on its date', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 10 L * ? *', 'job.timeZone': 'Europe/Berlin', 'job.startDate': '2030-01-01 00:00:00' }, '7.50')).json();
      const moved = await advance(t, merchant, created.id, '2030-12-31 12:00:00');
      assert.equal(moved.statusCode, 200, moved.body);
      await drain(worker);
      const runs = (await getSchedule(t, merchant, created.id)).json().schedule.runs as any[];
      // The last day of each month at 10:00 in Berlin: 09:00 UTC in winter, 08:00 UTC in summer.
      assert.deepEqual(runs.map((r) => r.fireTime), [
        '2030-01-31 09:00:00', '2030-02-28 09:00:00', '2030-03-31 08:00:00', '2030-04-30 08:00:00', '2030-05-31 08:00:00', '2030-06-30 08:00:00',
        '2030-07-31 08:00:00', '2030-08-31 08:00:00', '2030-09-30 08:00:00', '2030-10-31 09:00:00', '2030-11-30 09:00:00', '2030-12-31 09:00:00',
      ]);
      assert.ok(runs.every((r) => r.outcome === 'SUCCESS' && r.paymentId), JSON.stringify(runs));
      assert.equal(new Set(runs.map((r) => r.paymentId)).size, 12);
      assert.equal((await getSchedule(t, merchant, created.id)).json().schedule.nextFireTime, '2031-01-31 09:00:00');
    });

    it('notifies SCHEDULE created, rescheduled, descheduled and ended, and the PAYMENT of every run', async () => {
      const webhook = await createWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, webhookTargets: RECEIVER_TARGETS }, { entityId: merchant.entityId, url: 'http://127.0.0.1:9/hook', types: 'PAYMENT,SCHEDULE' });
      await t.storage.query(`UPDATE webhooks SET status = 'active', activated_at = now() WHERE id = $1`, [webhook.webhookId]);
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const first = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 0 * * ? *' })).json();
      const second = (await reschedule(t, merchant, first.id, { 'job.expression': '0 0 6 * * ? *', 'job.durationUnit': 'DAY', 'job.durationNumber': '1' })).json();
      t.clock.advance(30 * HOUR_MS);
      await drain(worker);
      const ended = (await getSchedule(t, merchant, second.id)).json();
      assert.equal(ended.schedule.endReason, 'COMPLETED', JSON.stringify(ended.schedule));
      const third = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 6 * * ? *' })).json();
      await deschedule(t, merchant, third.id);
      const { rows } = await t.storage.query<{ type: string; action: string | null; body: string | null; transaction_id: string | null }>(
        `SELECT type, action, body, transaction_id FROM notifications WHERE entity_id = $1 ORDER BY created_at, id`, [merchant.entityId]);
      const scheduleEvents = rows.filter((r) => r.type === 'SCHEDULE').map((r) => `${r.action}:${JSON.parse(r.body!).payload.id}`);
      assert.deepEqual(scheduleEvents.filter((e) => !e.startsWith('DESCHEDULED')).sort(), [`CREATED:${first.id}`, `RESCHEDULED:${second.id}`, `ENDED:${second.id}`, `CREATED:${third.id}`].sort());
      assert.equal(scheduleEvents.filter((e) => e.startsWith('DESCHEDULED')).length, 1);
      const runPayments = ended.schedule.runs.map((r: any) => r.paymentId);
      assert.equal(runPayments.length, 1, 'one day: one run at 06:00');
      assert.ok(rows.some((r) => r.type === 'PAYMENT' && r.transaction_id === runPayments[0]), 'the run\'s PAYMENT notification');
      await t.storage.query(`UPDATE webhooks SET status = 'inactive' WHERE id = $1`, [webhook.webhookId]);
    });

    it('answers bad ids, bad test-clock targets and the live system with a result code, never a 5xx', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 6 * * ? *' })).json();
      const unknown = 'a'.repeat(32);
      for (const response of [await deschedule(t, merchant, unknown), await reschedule(t, merchant, 'not-an-id', { 'job.hour': '1' }), await advance(t, merchant, unknown, '2030-01-01 00:00:00'), await getSchedule(t, merchant, '%00')]) {
        assert.equal(response.statusCode, 404, response.body);
        assert.equal(codeOf(response), '700.400.580');
      }
      const badTargets: Array<[string, string]> = [['', '200.300.404'], ['2030-02-30 00:00:00', '200.300.404'], ['2030-01-01T00:00:00', '200.300.404'], ['2020-01-01 00:00:00', '200.300.404'], ['2030-01-01 00:00:00\u0000', '200.300.404']];
      for (const [to, code] of badTargets) {
        const response = await advance(t, merchant, created.id, to);
        assert.deepEqual([response.statusCode, ...errorOf(response)], [400, code, 'to'], to);
      }
      const list = await t.app.inject({ method: 'GET', url: `/scheduling/v1/schedules?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      assert.equal(list.statusCode, 400, list.body);
      const badReschedule = await reschedule(t, merchant, created.id, { 'job.expression': '0 0 25 * * ? *' });
      assert.deepEqual(errorOf(badReschedule), ['100.250.121', 'job.expression']);
      assert.equal((await getSchedule(t, merchant, created.id)).json().schedule.state, 'ACTIVE', 'a refused RS leaves the plan as it was');
      const other = await t.createMerchant('Other shop');
      const foreign = await t.app.inject({ method: 'GET', url: `/scheduling/v1/schedules/${created.id}?entityId=${other.entityId}`, headers: bearer(other.accessToken) });
      assert.equal(foreign.statusCode, 404, 'another merchant cannot see it');

      const { advanceSchedule } = await import('../../src/operations/schedules/advance-schedule.js');
      await assert.rejects(advanceSchedule({ ...t.app.gateway.payments, system: 'live' }, { entityId: merchant.entityId, scheduleId: created.id, to: '2030-01-01 00:00:00' }), (error: any) => error.code === '600.200.701');
      await deschedule(t, merchant, created.id);
      const ended = await advance(t, merchant, created.id, '2030-01-01 00:00:00');
      assert.deepEqual(errorOf(ended), ['100.360.300', 'id']);
      const rescheduleEnded = await reschedule(t, merchant, created.id, { 'job.hour': '1' });
      assert.deepEqual(errorOf(rescheduleEnded), ['100.360.300', 'id']);
    });

    it('the test clock brings the retry of a declined run forward too', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 0 1 * ? *', 'job.startDate': '2031-01-01 00:00:00' }, '5.06')).json();
      await advance(t, merchant, created.id, '2031-01-01 01:00:00');
      await drain(worker);
      let shown = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(shown.schedule.runs.map((r: any) => [r.fireTime, r.outcome, r.retry ?? 0]), [['2031-01-01 00:00:00', 'DECLINED', 0]]);
      await advance(t, merchant, created.id, '2031-01-03 00:00:00');
      await drain(worker);
      shown = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(shown.schedule.runs.map((r: any) => [r.fireTime, r.outcome, r.retry ?? 0]), [['2031-01-01 00:00:00', 'DECLINED', 0], ['2031-01-01 00:00:00', 'DECLINED', 1]]);
      assert.equal(shown.schedule.retry, 2, 'the second retry waits for its own delay');
      await deschedule(t, merchant, created.id);
    });

    it('a standing instruction past its expiry ends the schedule before any payment', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 0 1 * ? *', 'job.startDate': '2032-01-01 00:00:00', 'standingInstruction.expiry': '2032-02-15' })).json();
      assert.equal(created.standingInstruction.expiry, '2032-02-15');
      await advance(t, merchant, created.id, '2032-04-01 12:00:00');
      await drain(worker);
      const shown = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(shown.schedule.runs.map((r: any) => [r.fireTime, r.outcome]), [['2032-01-01 00:00:00', 'SUCCESS'], ['2032-02-01 00:00:00', 'SUCCESS'], ['2032-03-01 00:00:00', 'SKIPPED']]);
      assert.equal(shown.schedule.state, 'ENDED');
      assert.equal(shown.schedule.endReason, 'INSTRUCTION_EXPIRED');
    });

    it('a run missed while the gateway was down is made once, not once per missed fire time', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 * * * * ? *' })).json();
      t.clock.advance(2 * HOUR_MS);
      await drain(worker);
      const shown = (await getSchedule(t, merchant, created.id)).json();
      assert.equal(shown.schedule.runs.length, 1, JSON.stringify(shown.schedule.runs));
      assert.ok(shown.schedule.nextFireTime > shown.schedule.runs[0].fireTime);
      await deschedule(t, merchant, created.id);
    });

    it('a soft decline is retried later; a deregistered registration ends the schedule', async () => {
      const registrationId = await registrationWithInitialCit(t, merchant);
      const worker = scheduleWorker(t);
      // 5.06: the simulator's insufficient funds, a soft decline.
      const created = (await postSchedule(t, merchant, registrationId, { 'job.expression': '0 0 0 1 * ? *' }, '5.06')).json();
      untilFireTime(created.schedule.nextFireTime);
      await drain(worker);
      let shown = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(shown.schedule.runs.map((r: any) => [r.outcome, r.resultCode]), [['DECLINED', '800.100.203']]);
      assert.equal(shown.schedule.retry, 1);
      t.clock.advance(24 * HOUR_MS);
      await drain(worker);
      shown = (await getSchedule(t, merchant, created.id)).json();
      assert.deepEqual(shown.schedule.runs.map((r: any) => r.retry ?? 0), [0, 1]);

      assert.equal((await deleteRegistration(t, merchant, registrationId)).statusCode, 200);
      t.clock.advance(40 * 24 * HOUR_MS);
      await drain(worker);
      shown = (await getSchedule(t, merchant, created.id)).json();
      assert.equal(shown.schedule.state, 'ENDED');
      assert.equal(shown.schedule.endReason, 'DEREGISTERED');
    });
  });
}
