import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deliverWebhookHandler } from '../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { activateWebhook } from '../../src/operations/webhooks/test-webhook.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { findSecrets } from '../support/secrets.js';
import { bearer, startTestApp, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

for (const database of testDatabases()) {
  describe(`payments and registrations notify their webhooks on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS });

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
      merchant = await t.createMerchant();
      receiver = await WebhookReceiver.start();
      const handler = deliverWebhookHandler({ storage: t.storage, clock: t.clock, sender, logger: silentLogger });
      worker = new JobWorker({ storage: t.storage, clock: t.clock, handlers: [handler], logger: silentLogger, concurrency: 8, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
      const created = await createWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, webhookTargets: RECEIVER_TARGETS }, { entityId: merchant.entityId, url: receiver.url('/shop') });
      receiver.setSecret('/shop', created.secret);
      // Activated once the receiver holds the secret: the test notification is sent now.
      await activateWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, sender }, created.webhookId);
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

    it('every payment, capture, registration and deregistration arrives decrypted, with the API answer as payload', async () => {
      const pa = (await cardPayment(t, merchant, 'PA', '10.00')).json();
      const cp = (await referencePayment(t, merchant, pa.id, 'CP', '10.00')).json();
      const declined = (await cardPayment(t, merchant, 'DB', '10.00', { 'card.number': '4000000000000002' })).json();
      const withRegistration = (await postPayment(t, merchant, { amount: '5.00', currency: 'EUR', paymentType: 'DB', createRegistration: 'true', ...SAMPLE_CARD })).json();
      const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/registrations/${withRegistration.registrationId}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      assert.equal(deleted.statusCode, 200, deleted.body);
      await drain();

      const got = receiver.on('/shop').filter((r) => r.body.type !== 'TEST' && r.status === 200);
      const payments = got.filter((r) => r.body.type === 'PAYMENT').map((r) => r.body.payload);
      assert.deepEqual(new Set(payments.map((p) => p['id'])), new Set([pa.id, cp.id, declined.id, withRegistration.id]));
      const capture = payments.find((p) => p['id'] === cp.id)!;
      assert.equal(capture['referencedId'], pa.id);
      assert.equal(capture['presentationAmount'], '10.00');
      assert.equal((capture['result'] as { code: string }).code, cp.result.code);
      const registrations = got.filter((r) => r.body.type === 'REGISTRATION').map((r) => `${r.body.action}:${r.body.payload['id']}`);
      assert.ok(registrations.includes(`CREATED:${withRegistration.registrationId}`), registrations.join(' '));
      assert.ok(registrations.some((r) => r.startsWith('DELETED:')), registrations.join(' '));
      assert.deepEqual(findSecrets(got.map((r) => r.rawBody + JSON.stringify(r.body)).join('\n')), []);
    });

    it('concurrent payments, written together by group commit, are stored and notified once each', async () => {
      const before = receiver.on('/shop').length;
      const answers = await Promise.all(Array.from({ length: 40 }, (_, n) =>
        cardPayment(t, merchant, n % 2 ? 'DB' : 'PA', `${n + 1}.00`, n % 5 === 0 ? { notificationUrl: receiver.url(`/each/${n}`) } : {})));
      assert.deepEqual(answers.map((a) => a.statusCode), answers.map(() => 200));
      for (const answer of answers) {
        const stored = await t.app.inject({ method: 'GET', url: `/v1/payments/${answer.json().id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
        const { timestamp: _a, ndc: _b, buildNumber: _c, ...shown } = stored.json();
        const { timestamp: _d, ndc: _e, buildNumber: _f, ...answered } = answer.json();
        assert.deepEqual(Object.keys(shown), Object.keys(answered), 'the stored response keeps its key order');
        assert.deepEqual(shown, answered);
      }
      await drain();
      const notified = receiver.on('/shop').slice(before).filter((r) => r.status === 200).map((r) => r.body.payload['id']);
      assert.deepEqual([...notified].sort(), answers.map((a) => a.json().id).sort(), 'one notification per payment, to the webhook');
      for (let n = 0; n < 40; n += 5) assert.deepEqual(receiver.on(`/each/${n}`).map((r) => r.body.payload['id']), [answers[n]!.json().id]);
    });

    it('a notificationUrl on the request is honoured', async () => {
      const response = await cardPayment(t, merchant, 'DB', '3.00', { notificationUrl: receiver.url('/legacy') });
      await drain();
      const legacy = receiver.on('/legacy');
      assert.equal(legacy.length, 1);
      assert.equal(legacy[0]!.body.payload['id'], response.json().id);
    });
  });
}
