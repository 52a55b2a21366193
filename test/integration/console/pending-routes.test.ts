/**
 * The console's pending payments queue (issue 32): every role allowed and refused, a merchant's
 * people seeing theirs only, what each payment waits on (a shopper's open redirect, a connector's
 * status check read from its job) and its age, the filters (merchant, connector, age) with bad
 * values answered by field, and the resolve link to the payment page's own action, whose use
 * takes the payment out of the queue.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { isOperatorRole, ROLES, type Role } from '../../../src/domain/access/roles.js';
import { addPendingChecks } from '../../../src/storage/repositories/pending-checks.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, postPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { json, startTestApp, type TestApp } from '../../support/test-app.js';

const HOUR_MS = 3_600_000;

for (const database of testDatabases()) {
  describe(`the console's pending payments (${database.name})`, () => {
    let t: TestApp;
    let shopA: Merchant;
    let shopB: Merchant;
    let refundA: string;
    let refundB: string;
    let shopperA: string;
    const sessions = new Map<Role, ConsoleSession>();

    /** A refund the simulated acquirer leaves pending (9.98: no answer in time). */
    async function pendingRefund(merchant: Merchant): Promise<string> {
      const db = json(await cardPayment(t, merchant, 'DB', '20.00'));
      const rf = json(await referencePayment(t, merchant, db['id'], 'RF', '9.98'));
      assert.equal(rf['result'].code, '000.200.000');
      return rf['id'];
    }

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      shopA = await t.createMerchant('Shop A');
      shopB = await t.createMerchant('Shop B');
      refundA = await pendingRefund(shopA);
      refundB = await pendingRefund(shopB);
      const paypal = await postPayment(t, shopA, { amount: '7.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example/back' });
      shopperA = json(paypal)['id'];
      assert.equal(json(paypal)['result'].code, '000.200.000', paypal.body);
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: shopA.entityId }));
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });
    const session = (role: Role) => sessions.get(role)!;

    it('shows the queue to the roles that may see it (a merchant\'s people theirs only) and refuses the others (403)', async () => {
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), '/console/pending');
        assert.equal(page.statusCode, mayPerform(role, 'pending.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.ok(page.body.includes(refundA) && page.body.includes(shopperA), `${role} sees shop A's pending payments`);
        assert.equal(page.body.includes(refundB), isOperatorRole(role), `${role} and shop B's`);
        assert.equal(page.body.includes(`/console/payments/${refundA}#actions`), mayPerform(role, 'payments.resolve-pending'), `${role}: the resolve link`);
      }
    });

    it('says what each waits on: the shopper until the redirect expires, the connector\'s next status check from its job', async () => {
      const who = session('support');
      const before = await consoleGet(t, who, '/console/pending');
      assert.match(before.body, /the shopper, until/);
      assert.match(before.body, /not planned yet/);
      const planned = new Date(t.clock.now().getTime() + HOUR_MS);
      await addPendingChecks(t.storage, { createdBefore: t.clock.now(), now: planned, limit: 100 });
      const after = await consoleGet(t, who, '/console/pending');
      assert.ok(after.body.includes(`${planned.toISOString().slice(0, 16).replace('T', ' ')} UTC`), 'the job\'s run time');
    });

    it('filters by merchant (operators), connector and age, and answers bad values by field (400)', async () => {
      const operator = session('operator-support');
      const onlyB = await consoleGet(t, operator, `/console/pending?merchant=${shopB.entityId}`);
      assert.ok(onlyB.body.includes(refundB) && !onlyB.body.includes(refundA));
      const noSuchConnector = await consoleGet(t, operator, '/console/pending?connector=elsewhere');
      assert.match(noSuchConnector.body, /No payment is pending/);
      const simulator = await consoleGet(t, operator, '/console/pending?connector=simulator');
      assert.ok(simulator.body.includes(refundA));
      const young = await consoleGet(t, operator, '/console/pending?olderThan=1440');
      assert.match(young.body, /No payment is pending/);
      t.clock.advance(25 * HOUR_MS);
      // A day later every session has ended: the people sign in again.
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: shopA.entityId }));
      const old = await consoleGet(t, session('operator-support'), '/console/pending?olderThan=1440');
      assert.ok(old.body.includes(refundA), 'a day later it is older than a day');
      assert.match(old.body, /1 d 1 h/);
      for (const [query, field] of [['merchant=%27%3B--', 'must be a merchant id'], ['connector=%3Cscript%3E', 'must be a connector id'], ['olderThan=-5', 'must be a number of minutes']] as const) {
        const bad = await consoleGet(t, session('operator-support'), `/console/pending?${query}`);
        assert.equal(bad.statusCode, 400, query);
        assert.ok(bad.body.includes(field), query);
        assert.match(bad.body, /aria-invalid="true"/);
      }
      const merchantPerson = await consoleGet(t, session('finance'), `/console/pending?merchant=${shopB.entityId}`);
      assert.equal(merchantPerson.statusCode, 400);
      assert.ok(!merchantPerson.body.includes(refundB));
    });

    it('a payment resolved by hand (the payment page\'s action, audited there) leaves the queue', async () => {
      const who = session('operator-admin');
      const resolved = await consolePost(t, who, `/console/payments/${refundA}/resolve`, { transaction: refundA, outcome: 'rejected', reason: 'Acquirer says it never arrived' });
      assert.equal(resolved.statusCode, 303, resolved.body.slice(0, 300));
      const page = await consoleGet(t, who, '/console/pending');
      assert.ok(!page.body.includes(refundA));
      assert.ok(page.body.includes(refundB));
    });
  });
}
