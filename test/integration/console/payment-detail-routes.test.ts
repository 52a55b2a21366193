/**
 * The payment detail page and its actions through the console's routes (issue 31): every role
 * allowed and refused for the page and each action as the PERMISSIONS table says; a merchant's
 * person reaching another merchant's payment by id (404, the answer of a missing id); a refund
 * twice the amount refused with the operation's code; a form sent twice refunding once; bad
 * amounts, foreign ids and stale pages answered without a 500; the CSRF token required.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { mayPerform, type Action } from '../../../src/domain/access/permissions.js';
import { isOperatorRole, ROLES, type Role } from '../../../src/domain/access/roles.js';
import { randomIds } from '../../../src/domain/ids.js';
import { insertWebhook } from '../../../src/storage/repositories/webhooks.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { consoleGet, consolePost, signInAs, type ConsoleSession } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { json, startTestApp, type TestApp } from '../../support/test-app.js';
import { RECEIVER_ENV, WebhookReceiver } from '../../support/webhook-receiver.js';

const nonce = () => randomBytes(16).toString('hex');

const ACTIONS: ReadonlyArray<{ path: string; action: Action }> = [
  { path: 'capture', action: 'payments.capture' },
  { path: 'refund', action: 'payments.refund' },
  { path: 'reverse', action: 'payments.reverse' },
  { path: 'resolve', action: 'payments.resolve-pending' },
  { path: 'resend', action: 'notifications.resend' },
];

for (const database of testDatabases()) {
  describe(`the payment detail routes (${database.name})`, () => {
    let t: TestApp;
    let shopA: Merchant;
    let shopB: Merchant;
    let receiver: WebhookReceiver;
    const sessions = new Map<Role, ConsoleSession>();

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
      shopA = await t.createMerchant('Shop A');
      shopB = await t.createMerchant('Shop B');
      receiver = await WebhookReceiver.start();
      // Active from the start (no test notification to wait for): every payment of shop A has a delivery.
      const now = t.clock.now();
      await insertWebhook(t.storage, { id: randomIds.id(), entityId: shopA.entityId, url: receiver.url('/a'), secret: 'a'.repeat(64), status: 'active', createdAt: now, updatedAt: now, activatedAt: now, notificationTypes: ['PAYMENT'] });
      receiver.setSecret('/a', 'a'.repeat(64));
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: shopA.entityId }));
    });
    after(async () => {
      await receiver.stop();
      await t.close();
      await t.storage.close();
    });

    const session = (role: Role) => sessions.get(role)!;

    /** A transaction each action can act on: a PA to capture or reverse, a DB to refund, a pending refund, a payment with a delivery. */
    async function subjectOf(path: string): Promise<{ url: string; fields: Record<string, string> }> {
      if (path === 'capture' || path === 'reverse') {
        const pa = json(await cardPayment(t, shopA, 'PA', '10.00'));
        return { url: `/console/payments/${pa['id']}/${path}`, fields: path === 'capture' ? { amount: '4.00' } : {} };
      }
      const db = json(await cardPayment(t, shopA, 'DB', '20.00'));
      if (path === 'refund') return { url: `/console/payments/${db['id']}/refund`, fields: { amount: '2.50' } };
      if (path === 'resolve') {
        // 9.98: the simulated acquirer does not answer in time; the refund stays pending.
        const rf = json(await referencePayment(t, shopA, db['id'], 'RF', '9.98'));
        assert.equal(rf['result'].code, '000.200.000');
        return { url: `/console/payments/${db['id']}/resolve`, fields: { transaction: rf['id'], outcome: 'success', reason: 'Acquirer ticket 4711 confirms it' } };
      }
      const { rows } = await t.storage.query<{ id: string }>('SELECT d.id FROM webhook_deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.transaction_id = $1', [db['id']]);
      return { url: `/console/payments/${db['id']}/resend`, fields: { delivery: rows[0]!.id } };
    }

    it('opens the page for every role that may view payments; another merchant\'s people get a 404', async () => {
      const paid = json(await cardPayment(t, shopA, 'DB', '12.00'));
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), `/console/payments/${paid['id']}`);
        assert.equal(page.statusCode, mayPerform(role, 'payments.view') ? 200 : 403, role);
        assert.match(page.body, /Test system/);
      }
      const outsider = await signInAs(t, { role: 'merchant-admin', merchantId: shopB.entityId });
      const foreign = await consoleGet(t, outsider, `/console/payments/${paid['id']}`);
      const missing = await consoleGet(t, outsider, `/console/payments/${'f'.repeat(32)}`);
      const malformed = await consoleGet(t, outsider, '/console/payments/%27%3B--');
      assert.deepEqual([foreign.statusCode, missing.statusCode, malformed.statusCode], [404, 404, 404]);
      assert.equal(foreign.body.replaceAll(paid['id'], ''), foreign.body, 'nothing of the payment shows');
      const post = await consolePost(t, outsider, `/console/payments/${paid['id']}/refund`, { amount: '1.00', nonce: nonce() });
      assert.equal(post.statusCode, 404);
    });

    for (const { path, action } of ACTIONS) {
      it(`${path}: allowed to ${ROLES.filter((r) => mayPerform(r, action)).join(', ')}; refused (403) to the others; audited`, async () => {
        for (const role of ROLES) {
          const subject = await subjectOf(path);
          const response = await consolePost(t, session(role), subject.url, { ...subject.fields, nonce: nonce() });
          if (!mayPerform(role, action)) {
            assert.equal(response.statusCode, 403, `${role} ${path}: ${response.body.slice(0, 200)}`);
            continue;
          }
          assert.equal(response.statusCode, 303, `${role} ${path}: ${response.body.slice(0, 300)}`);
          const location = String(response.headers.location);
          assert.match(location, /\?done=/, location);
          const page = await consoleGet(t, session(role), location);
          assert.equal(page.statusCode, 200);
          assert.match(page.body, /class="flash flash-success"/, `${role} ${path}`);
          const entries = await listAuditEntries(t.storage, { action, actor: undefined }, undefined, 50);
          assert.ok(entries.some((e) => e.role === role && e.actorUserId === session(role).userId), `${role} ${path} audited`);
        }
      });
    }

    it('a refund beyond what is left is refused with the operation\'s code; a form sent twice refunds once', async () => {
      const who = session('finance');
      const db = json(await cardPayment(t, shopA, 'DB', '10.00'));
      const url = `/console/payments/${db['id']}/refund`;
      const first = await consolePost(t, who, url, { amount: '6.00', nonce: nonce() });
      assert.equal(first.statusCode, 303);
      const second = await consolePost(t, who, url, { amount: '6.00', nonce: nonce() });
      assert.equal(second.statusCode, 303);
      assert.match(String(second.headers.location), /refused=refund&code=700\.400\.200/);
      const shown = await consoleGet(t, who, String(second.headers.location));
      assert.match(shown.body, /Refund refused: 700\.400\.200/);

      const once = nonce();
      const [a, b] = await Promise.all([consolePost(t, who, url, { amount: '1.00', nonce: once }), consolePost(t, who, url, { amount: '1.00', nonce: once })]);
      assert.deepEqual([a.statusCode, b.statusCode], [303, 303]);
      const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE parent_id = $1 AND payment_type = 'RF' AND status = 'success'`, [db['id']]);
      assert.equal(rows[0]!.n, 2, 'the 6.00 and one 1.00');
    });

    it('answers bad amounts with the form and its message (400), stale pages with the refusal, a missing CSRF token with 403', async () => {
      const who = session('merchant-admin');
      const db = json(await cardPayment(t, shopA, 'DB', '10.00'));
      for (const amount of ['12,50', '-3', '0', '1.999', '9'.repeat(40), '']) {
        const response = await consolePost(t, who, `/console/payments/${db['id']}/refund`, { amount, nonce: nonce() });
        assert.equal(response.statusCode, 400, amount);
        assert.match(response.body, /aria-invalid="true"/);
        assert.match(response.body, /class="field-error"/);
      }
      const noNonce = await consolePost(t, who, `/console/payments/${db['id']}/refund`, { amount: '1.00' });
      assert.equal(noNonce.statusCode, 400);
      const pa = json(await cardPayment(t, shopA, 'PA', '10.00'));
      assert.equal((await consolePost(t, who, `/console/payments/${pa['id']}/reverse`, { nonce: nonce() })).statusCode, 303);
      const stale = await consolePost(t, who, `/console/payments/${pa['id']}/capture`, { amount: '10.00', nonce: nonce() });
      assert.equal(stale.statusCode, 303);
      assert.match(String(stale.headers.location), /refused=capture&code=/);
      const forged = await consolePost(t, { ...who, csrf: 'x' }, `/console/payments/${db['id']}/refund`, { amount: '1.00', nonce: nonce() });
      assert.equal(forged.statusCode, 403);
      const wrongDelivery = await consolePost(t, who, `/console/payments/${db['id']}/resend`, { delivery: 'zz', nonce: nonce() });
      assert.equal(wrongDelivery.statusCode, 404);
    });
  });
}
