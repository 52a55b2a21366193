/**
 * The console's schedules (issue 32): the list and a schedule's page for every role, a merchant's
 * people seeing only theirs (another merchant's schedule answers 404), the next fire times as the
 * runner plans them, reschedule / deschedule / the test clock through the API's operations,
 * allowed and refused per the PERMISSIONS table, audited, CSRF-protected, bad input answered with
 * the field and the catalogue's code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { isOperatorRole, ROLES, type Role } from '../../../src/domain/access/roles.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import type { Merchant } from '../../support/payments.js';
import { drain, getSchedule, postSchedule, registrationWithInitialCit, scheduleWorker } from '../../support/schedules.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const MONTHLY = { 'job.expression': '0 0 6 1 * ? *', 'job.timeZone': 'Europe/Berlin' };

for (const database of testDatabases()) {
  describe(`the console's schedules (${database.name})`, () => {
    let t: TestApp;
    let shopA: Merchant;
    let shopB: Merchant;
    let registrationA: string;
    let scheduleB: string;
    const sessions = new Map<Role, ConsoleSession>();

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      shopA = await t.createMerchant('Shop A');
      shopB = await t.createMerchant('Shop B');
      registrationA = await registrationWithInitialCit(t, shopA);
      const created = await postSchedule(t, shopB, await registrationWithInitialCit(t, shopB), MONTHLY);
      scheduleB = created.json().id;
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: shopA.entityId }));
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const session = (role: Role) => sessions.get(role)!;
    const newSchedule = async (fields: Record<string, string> = MONTHLY): Promise<string> => {
      const created = await postSchedule(t, shopA, registrationA, fields);
      assert.equal(created.statusCode, 200, created.body);
      return created.json().id;
    };

    it('lists schedules for every role that may view them: operators every merchant\'s, a merchant\'s people theirs only', async () => {
      const id = await newSchedule();
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), '/console/schedules');
        assert.equal(page.statusCode, mayPerform(role, 'schedules.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.ok(page.body.includes(id), `${role} sees its merchant's schedule`);
        assert.equal(page.body.includes(scheduleB), isOperatorRole(role), `${role} and shop B's schedule`);
      }
      const byMerchant = await consoleGet(t, session('operator-read-only'), `/console/schedules?merchant=${shopB.entityId}`);
      assert.ok(byMerchant.body.includes(scheduleB) && !byMerchant.body.includes(id), 'the merchant filter');
    });

    it('answers a bad filter with its field (400), and a merchant\'s person choosing a merchant likewise', async () => {
      const bad = await consoleGet(t, session('operator-admin'), '/console/schedules?status=paused');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /must be active or ended/);
      const notHex = await consoleGet(t, session('operator-admin'), '/console/schedules?merchant=%27%3B--');
      assert.equal(notHex.statusCode, 400);
      const merchantPerson = await consoleGet(t, session('merchant-admin'), `/console/schedules?merchant=${shopB.entityId}`);
      assert.equal(merchantPerson.statusCode, 400);
      assert.ok(!merchantPerson.body.includes(scheduleB));
    });

    it('shows a schedule with its next fire times (the runner\'s own) and its runs linked to their payments', async () => {
      const id = await newSchedule();
      const api = (await getSchedule(t, shopA, id)).json();
      const worker = scheduleWorker(t);
      const advanced = await consolePost(t, session('developer'), `/console/schedules/${id}/advance`, { to: '2031-03-15 00:00:00' });
      assert.equal(advanced.statusCode, 303, advanced.body.slice(0, 300));
      await drain(worker);
      const page = await consoleGet(t, session('read-only'), `/console/schedules/${id}`);
      assert.equal(page.statusCode, 200);
      const runs = (await getSchedule(t, shopA, id)).json().schedule.runs as Array<{ paymentId: string }>;
      assert.ok(runs.length > 1, 'the test clock played the fire times');
      for (const run of runs) assert.ok(page.body.includes(`href="/console/payments/${run.paymentId}"`), 'each run links its payment');
      const runPayment = await consoleGet(t, session('read-only'), `/console/payments/${runs[0]!.paymentId}`);
      assert.ok(runPayment.body.includes(`href="/console/schedules/${id}"`), 'and the payment links back to its schedule');
      const next = (await getSchedule(t, shopA, id)).json().schedule.nextFireTime as string;
      assert.ok(page.body.includes(`${next} UTC`), 'the first of the next fire times is the one the runner waits for');
      assert.match(page.body, /2031-05-01 04:00:00 UTC/, 'and the ones after, in Berlin summer time');
      assert.ok(api.schedule.nextFireTime, 'the schedule had a next fire time');
      const foreign = await consoleGet(t, session('merchant-admin'), `/console/schedules/${scheduleB}`);
      const malformed = await consoleGet(t, session('merchant-admin'), '/console/schedules/%27%3B--');
      assert.deepEqual([foreign.statusCode, malformed.statusCode], [404, 404]);
      assert.ok(!foreign.body.includes(scheduleB));
    });

    const CHANGES: ReadonlyArray<{ path: string; action: Action; audit: string; fields: Record<string, string> }> = [
      { path: 'reschedule', action: 'schedules.manage', audit: 'schedules.reschedule', fields: { 'job.expression': '0 30 8 ? * MON *', 'job.timeZone': 'UTC' } },
      { path: 'deschedule', action: 'schedules.manage', audit: 'schedules.deschedule', fields: {} },
      { path: 'advance', action: 'schedules.test-clock', audit: 'schedules.advance', fields: { to: '2030-01-02 00:00:00' } },
    ];

    for (const { path, action, audit, fields } of CHANGES) {
      it(`${path}: allowed to ${ROLES.filter((r) => mayPerform(r, action)).join(', ')}; refused (403) to the others; audited`, async () => {
        for (const role of ROLES) {
          const id = await newSchedule();
          const response = await consolePost(t, session(role), `/console/schedules/${id}/${path}`, fields);
          if (!mayPerform(role, action)) {
            assert.equal(response.statusCode, 403, role);
            assert.equal((await getSchedule(t, shopA, id)).json().schedule.state, 'ACTIVE', 'nothing changed');
            continue;
          }
          assert.equal(response.statusCode, 303, `${role}: ${response.body.slice(0, 400)}`);
          const location = String(response.headers.location);
          const shown = await consoleGet(t, session(role), location);
          assert.match(shown.body, /class="flash flash-success"/);
          const state = (await getSchedule(t, shopA, id)).json().schedule;
          if (path === 'reschedule') {
            assert.equal(state.endReason, 'RESCHEDULED');
            assert.ok(location.includes(state.replacedBy), 'the page of the new schedule');
            assert.match(shown.body, /0 30 8 \? \* MON \*/);
          }
          if (path === 'deschedule') assert.equal(state.endReason, 'DESCHEDULED');
          if (path === 'advance') assert.ok(state.testClockOffsetSeconds > 0);
          const entries = await listAuditEntries(t.storage, { action: audit, actor: undefined }, undefined, 100);
          assert.ok(entries.some((e) => e.targetId === id && e.actorUserId === session(role).userId), `${role} ${path} audited`);
        }
      });
    }

    it('refuses a bad expression as the API does (field and code), a time zone it does not know, and an ended schedule', async () => {
      const id = await newSchedule();
      const who = session('support');
      const bad = await consolePost(t, who, `/console/schedules/${id}/reschedule`, { 'job.expression': '0 0 25 1 * ? *', 'job.timeZone': 'UTC' });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /aria-invalid="true"/);
      assert.match(bad.body, /100\.250\.121/, 'the hour\'s code');
      assert.match(bad.body, /value="0 0 25 1 \* \? \*"/, 'what was typed is kept');
      const zone = await consolePost(t, who, `/console/schedules/${id}/reschedule`, { 'job.expression': '0 0 6 1 * ? *', 'job.timeZone': 'Mars/Olympus' });
      assert.equal(zone.statusCode, 400);
      const empty = await consolePost(t, who, `/console/schedules/${id}/reschedule`, { 'job.expression': ' ', 'job.timeZone': '' });
      assert.equal(empty.statusCode, 400);
      assert.match(empty.body, /enter the new job expression/);
      assert.equal((await getSchedule(t, shopA, id)).json().schedule.state, 'ACTIVE', 'nothing changed');
      assert.equal((await consolePost(t, who, `/console/schedules/${id}/deschedule`)).statusCode, 303);
      const again = await consolePost(t, who, `/console/schedules/${id}/deschedule`);
      assert.equal(again.statusCode, 400);
      assert.match(again.body, /already ended/);
      const clock = await consolePost(t, session('developer'), `/console/schedules/${id}/advance`, { to: 'tomorrow' });
      assert.equal(clock.statusCode, 400);
      const live = await consolePost(t, session('developer'), `/console/schedules/${await newSchedule()}/advance`, { to: '2001-01-01 00:00:00' });
      assert.equal(live.statusCode, 400);
      assert.match(live.body, /must be later than/);
    });

    it('refuses a change without the CSRF token (403) and another merchant\'s schedule (404)', async () => {
      const id = await newSchedule();
      const noToken = await consolePost(t, session('merchant-admin'), `/console/schedules/${id}/deschedule`, { _csrf: '' });
      assert.equal(noToken.statusCode, 403);
      const foreign = await consolePost(t, session('merchant-admin'), `/console/schedules/${scheduleB}/deschedule`);
      assert.equal(foreign.statusCode, 404);
      assert.equal((await getSchedule(t, shopB, scheduleB)).json().schedule.state, 'ACTIVE');
      assert.equal((await getSchedule(t, shopA, id)).json().schedule.state, 'ACTIVE');
    });
  });
}
