/**
 * The console's payment detail and actions, through the operations (issue 31): the timeline of a
 * payment with 3-D Secure, a refund, a chargeback and a notification delivered at the second
 * attempt; visibility by merchant; capture, refund, reverse, resend and resolution through the
 * API's own operations, each with its audit entry; refunds beyond the amount refused with the
 * operation's code; a form submitted twice refunding once.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { SettlementRecord } from '../../../src/connectors/connector.js';
import type { Visibility } from '../../../src/domain/access/actor.js';
import { randomIds } from '../../../src/domain/ids.js';
import { deliverWebhookHandler } from '../../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../../src/jobs/http-sender.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import type { ConsoleActor } from '../../../src/operations/console/console-action.js';
import { loadPaymentDetail } from '../../../src/operations/console/load-payment-detail.js';
import { referenceFromConsole } from '../../../src/operations/console/reference-from-console.js';
import { resendFromConsole } from '../../../src/operations/console/resend-from-console.js';
import { resolvePendingFromConsole } from '../../../src/operations/console/resolve-pending-from-console.js';
import { ingestSettlement } from '../../../src/operations/settlement/ingest-settlement.js';
import { GatewayError } from '../../../src/results/gateway-error.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { insertWebhook } from '../../../src/storage/repositories/webhooks.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, postPayment, SAMPLE_CARD, type Merchant } from '../../support/payments.js';
import { fixedSource } from '../../support/settlement.js';
import { findSecrets } from '../../support/secrets.js';
import { json, startTestApp, type TestApp } from '../../support/test-app.js';
import { BROWSER } from '../../support/three-d-secure.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../../support/webhook-receiver.js';

const nonce = () => randomBytes(16).toString('hex');

function operator(): ConsoleActor {
  return { actor: { kind: 'user', userId: randomIds.id(), email: 'ops@example.com', role: 'operator-admin', merchantId: null, address: '127.0.0.1' }, visibility: { kind: 'all' } };
}

function merchantPerson(merchantId: string): ConsoleActor {
  return { actor: { kind: 'user', userId: randomIds.id(), email: 'clerk@shop.example', role: 'finance', merchantId, address: '127.0.0.1' }, visibility: { kind: 'merchant', merchantId } };
}

async function notFound(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof GatewayError && error.code === '700.400.580' && error.httpStatus === 404);
}

async function auditOf(t: TestApp, action: string, targetId: string) {
  return listAuditEntries(t.storage, { action, targetId }, undefined, 10);
}

for (const database of testDatabases()) {
  describe(`the console's payment detail and actions (${database.name})`, () => {
    let t: TestApp;
    let shopA: Merchant;
    let shopB: Merchant;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS });
    const deliveryDeps = () => ({ storage: t.storage, clock: t.clock, ids: randomIds, sender });

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
      shopA = await t.createMerchant('Shop A');
      shopB = await t.createMerchant('Shop B');
      receiver = await WebhookReceiver.start();
      const handler = deliverWebhookHandler({ storage: t.storage, clock: t.clock, sender, logger: silentLogger });
      worker = new JobWorker({ storage: t.storage, clock: t.clock, handlers: [handler], logger: silentLogger, concurrency: 4, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
      // Active from the start (no activation to wait for): every payment of shop A is notified.
      const now = t.clock.now();
      await insertWebhook(t.storage, { id: randomIds.id(), entityId: shopA.entityId, url: receiver.url('/a'), secret: 'c'.repeat(64), status: 'active', createdAt: now, updatedAt: now, activatedAt: now, notificationTypes: ['PAYMENT'] });
      receiver.setSecret('/a', 'c'.repeat(64));
    });
    after(async () => {
      sender.close();
      await receiver.stop();
      await t.close();
      await t.storage.close();
    });

    async function drain(): Promise<void> {
      while ((await worker.runOnce()) > 0);
    }

    it('shows the family and a timeline: request, 3-D Secure, answer, refund, chargeback, a notification failed then delivered', async () => {
      receiver.answer(500, '/a');
      const paid = json(await postPayment(t, shopA, { amount: '40.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, 'card.number': '4200000000000091', shopperResultUrl: 'https://shop.example/back', ...BROWSER }));
      assert.equal(paid['threeDSecure'].eci, '05', JSON.stringify(paid));
      await drain();
      receiver.answer(200, '/a');
      t.clock.advance(60 * 60 * 1000);
      await drain();
      const refund = await referenceFromConsole(t.app.gateway.payments, { ...operator(), parentId: paid['id'], paymentType: 'RF', amount: '10', nonce: nonce() });
      assert.equal(refund.kind, 'done');
      const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(`SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [paid['id']]);
      const record: SettlementRecord = {
        recordId: `CB-${paid['id']}`, type: 'CHARGEBACK', status: 'SUCCESS', settlementDate: '2026-11-22', transactionDate: new Date('2026-11-22T10:00:00Z'),
        clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-1', paymentType: 'DB', amountMinor: 3000n, currency: 'EUR', settlementAmountMinor: 3000n,
        settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR', connectorReferences: { ConnectorTxID1: rows[0]!.reference }, resultCode: '000.100.220', reasonCode: '20',
      };
      await ingestSettlement({ storage: t.storage, clock: t.clock, ids: randomIds }, [fixedSource(rows[0]!.connector_id, [record])], '2026-11-22');

      const detail = await loadPaymentDetail({ storage: t.storage }, { transactionId: paid['id'], visibility: { kind: 'merchant', merchantId: shopA.entityId } });
      assert.equal(detail.payment.bin, '420000');
      assert.equal(detail.payment.last4, '0091');
      assert.equal(detail.payment.holder, 'Jane Jones');
      assert.deepEqual(detail.family.children.map((c) => c.summary.paymentType).sort(), ['CB', 'RF']);
      const kinds = detail.timeline.map((e) => e.kind);
      assert.deepEqual(kinds.slice(0, 3), ['request', 'three-d-secure', 'answer'], kinds.join(' '));
      const threeDs = detail.timeline.find((e) => e.kind === 'three-d-secure')!;
      assert.ok(threeDs.details.some(([label, value]) => label === 'eci' && value === '05'));
      assert.ok(detail.timeline.some((e) => e.kind === 'request' && e.title.startsWith('RF requested: 10.00 EUR')));
      assert.ok(detail.timeline.some((e) => e.kind === 'request' && e.title.startsWith('CB requested: 30.00 EUR')));
      assert.ok(detail.timeline.some((e) => e.kind === 'settlement' && e.title.includes('CHARGEBACK')), 'the settlement record matched');
      const attempts = detail.timeline.filter((e) => e.kind === 'attempt' && e.transactionId === paid['id']).map((e) => e.title);
      assert.deepEqual(attempts, ['Delivery failed: HTTP 500', 'Delivery acknowledged: HTTP 200']);
      const delivery = detail.deliveries.find((d) => d.transactionId === paid['id'])!;
      assert.deepEqual(delivery.attempts.map((a) => a.httpStatus), [500, 200]);
      assert.equal(delivery.status, 'delivered');
      const times = detail.timeline.map((e) => e.at.getTime());
      assert.deepEqual(times, [...times].sort((a, b) => a - b), 'in time order');
      assert.deepEqual(findSecrets(JSON.stringify(detail, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))), [], 'no card number anywhere');
    });

    it("a merchant's person cannot open another merchant's payment: the answer of a missing id", async () => {
      const paid = json(await cardPayment(t, shopA, 'DB', '5.00'));
      const otherMerchant: Visibility = { kind: 'merchant', merchantId: shopB.entityId };
      await notFound(loadPaymentDetail(t.app.gateway.payments, { transactionId: paid['id'], visibility: otherMerchant }));
      await notFound(loadPaymentDetail(t.app.gateway.payments, { transactionId: 'f'.repeat(32), visibility: { kind: 'all' } }));
      await notFound(loadPaymentDetail(t.app.gateway.payments, { transactionId: "'; DROP TABLE x; --", visibility: { kind: 'all' } }));
      await notFound(referenceFromConsole(t.app.gateway.payments, { ...merchantPerson(shopB.entityId), parentId: paid['id'], paymentType: 'RF', amount: '1.00', nonce: nonce() }));
      assert.equal((await loadPaymentDetail(t.app.gateway.payments, { transactionId: paid['id'], visibility: { kind: 'merchant', merchantId: shopA.entityId } })).payment.id, paid['id']);
    });

    it('captures, refunds and reverses through the API operations, each with its audit entry', async () => {
      const person = merchantPerson(shopA.entityId);
      const pa = json(await cardPayment(t, shopA, 'PA', '20.00'));
      const capture = await referenceFromConsole(t.app.gateway.payments, { ...person, parentId: pa['id'], paymentType: 'CP', amount: '12.5', nonce: nonce() });
      assert.equal(capture.kind, 'done');
      assert.equal(capture.kind === 'done' && capture.status, 'success');
      const captured = await auditOf(t, 'payments.capture', pa['id']);
      assert.equal(captured.length, 1);
      assert.deepEqual(captured[0]!.after, { transactionId: capture.kind === 'done' ? capture.transactionId : '', paymentType: 'CP', amountMinor: '1250', currency: 'EUR' });
      assert.equal(captured[0]!.merchantId, shopA.entityId);
      assert.equal(captured[0]!.actor, 'clerk@shop.example');

      const db = json(await cardPayment(t, shopA, 'DB', '10.00'));
      const refund = await referenceFromConsole(t.app.gateway.payments, { ...person, parentId: db['id'], paymentType: 'RF', amount: '6.00', nonce: nonce() });
      assert.equal(refund.kind === 'done' && refund.status, 'success');
      const tooMuch = await referenceFromConsole(t.app.gateway.payments, { ...person, parentId: db['id'], paymentType: 'RF', amount: '6.00', nonce: nonce() });
      assert.deepEqual(tooMuch.kind === 'refused' && tooMuch.resultCode, '700.400.200');
      assert.equal((await auditOf(t, 'payments.refund', db['id'])).length, 1, 'a refused request changes nothing and records nothing');

      const toReverse = json(await cardPayment(t, shopA, 'PA', '7.00'));
      const reversal = await referenceFromConsole(t.app.gateway.payments, { ...person, parentId: toReverse['id'], paymentType: 'RV', amount: '', nonce: nonce() });
      assert.equal(reversal.kind === 'done' && reversal.status, 'success');
      assert.equal((await auditOf(t, 'payments.reverse', toReverse['id'])).length, 1);
    });

    it('refuses amounts that are not amounts with a field message, never a 500', async () => {
      const db = json(await cardPayment(t, shopA, 'DB', '10.00'));
      for (const amount of ['12,50', '-1', '0', '1.505', 'ten', '', '12345678901']) {
        await assert.rejects(
          referenceFromConsole(t.app.gateway.payments, { ...operator(), parentId: db['id'], paymentType: 'RF', amount, nonce: nonce() }),
          (error: unknown) => error instanceof GatewayError && error.parameterErrors?.[0]?.name === 'amount',
          amount,
        );
      }
      await assert.rejects(
        referenceFromConsole(t.app.gateway.payments, { ...operator(), parentId: db['id'], paymentType: 'RF', amount: '1.00', nonce: 'not-a-nonce' }),
        (error: unknown) => error instanceof GatewayError && error.parameterErrors?.[0]?.name === 'nonce',
      );
    });

    it('a form submitted twice (same nonce) refunds once, whether the second comes after or alongside the first', async () => {
      const db = json(await cardPayment(t, shopA, 'DB', '10.00'));
      const person = operator();
      const form = { ...person, parentId: db['id'], paymentType: 'RF' as const, amount: '3.00', nonce: nonce() };
      const [first, second] = await Promise.all([referenceFromConsole(t.app.gateway.payments, form), referenceFromConsole(t.app.gateway.payments, form)]);
      const third = await referenceFromConsole(t.app.gateway.payments, form);
      assert.equal(first.kind, 'done');
      const ids = [first, second, third].map((r) => (r.kind === 'done' ? r.transactionId : r.resultCode));
      assert.equal(new Set(ids).size, 1, ids.join(' '));
      assert.equal(third.kind === 'done' && third.repeated, true);
      const { rows } = await t.storage.query<{ n: number; refunded: string }>(
        `SELECT (SELECT count(*)::int FROM transactions WHERE parent_id = $1) AS n, (SELECT refunded_minor::text FROM transactions WHERE id = $1) AS refunded`, [db['id']]);
      assert.deepEqual(rows[0], { n: 1, refunded: '300' });
      assert.equal((await auditOf(t, 'payments.refund', db['id'])).length, 1);
    });

    it('resends a notification of the payment, and resolves a pending refund by hand with a reason, each audited', async () => {
      const paid = json(await cardPayment(t, shopA, 'DB', '40.00'));
      await drain();
      const detail = await loadPaymentDetail(t.app.gateway.payments, { transactionId: paid['id'], visibility: { kind: 'all' } });
      const deliveryId = detail.deliveries[0]!.deliveryId;
      const resent = await resendFromConsole(deliveryDeps(), { ...operator(), paymentId: paid['id'], deliveryId });
      assert.equal(resent.attempt.acknowledged, true);
      assert.equal((await auditOf(t, 'notifications.resend', deliveryId)).length, 1);
      const other = json(await cardPayment(t, shopB, 'DB', '1.00'));
      await notFound(resendFromConsole(deliveryDeps(), { ...operator(), paymentId: other['id'], deliveryId }));

      // 9.98: the simulated acquirer does not answer in time, so the refund stays pending.
      const pending = await referenceFromConsole(t.app.gateway.payments, { ...operator(), parentId: paid['id'], paymentType: 'RF', amount: '9.98', nonce: nonce() });
      assert.equal(pending.kind === 'done' && pending.resultCode, '000.200.000');
      const childId = pending.kind === 'done' ? pending.transactionId : '';
      const resolved = await resolvePendingFromConsole(t.app.gateway.payments, { ...operator(), transactionId: childId, outcome: 'success', reason: 'Acquirer ticket 4711 confirms the refund' });
      assert.equal(resolved.kind === 'done' && resolved.status, 'success');
      const entries = await auditOf(t, 'payments.resolve-pending', childId);
      assert.equal(entries.length, 1);
      assert.equal((entries[0]!.after as Record<string, string>)['reason'], 'Acquirer ticket 4711 confirms the refund');
      await assert.rejects(
        resolvePendingFromConsole(t.app.gateway.payments, { ...operator(), transactionId: childId, outcome: 'success', reason: 'again' }),
        (error: unknown) => error instanceof GatewayError && error.parameterErrors?.[0]?.name === 'transaction',
      );
      const after = await loadPaymentDetail(t.app.gateway.payments, { transactionId: paid['id'], visibility: { kind: 'all' } });
      assert.ok(after.timeline.some((e) => e.kind === 'resolution' && e.details.some(([, v]) => v.includes('4711'))));
    });
  });
}
