import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDirectAdmin } from '../../src/cli/direct-admin.js';
import { httpAdmin } from '../../src/cli/http-admin.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { GatewayError } from '../../src/results/gateway-error.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { deliverWebhookHandler } from '../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { activateWebhook } from '../../src/operations/webhooks/test-webhook.js';
import { checkoutStatus, createCheckout, RESULT_URL, widgetPost } from '../support/checkouts.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, getPayment, postPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { bearer, FORM_HEADERS, form, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

const CONNECTOR_DETAILS = ['ConnectorTxID1', 'ConnectorTxID3', 'AcquirerResponse', 'clearingInstituteName'];
const MERCHANT_ACCOUNT = { holder: 'Shop GmbH', number: 'DE89370400440532013000', bic: 'COBADEFFXXX', country: 'DE' };

type Body = Record<string, any>;

function assertHidden(payment: Body, where: string): void {
  for (const name of CONNECTOR_DETAILS) assert.equal(payment['resultDetails']?.[name], undefined, `${where}: ${name} is hidden`);
}

function assertShown(payment: Body, where: string): void {
  for (const name of CONNECTOR_DETAILS) assert.equal(typeof payment['resultDetails']?.[name], 'string', `${where}: ${name} is shown`);
}

for (const database of testDatabases()) {
  describe(`payment answer fields and the connector-details setting on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS });

    const admin = (method: 'PUT' | 'DELETE', path: string, fields?: Record<string, string>) =>
      t.app.inject({ method, url: path, headers: { ...bearer(TEST_ADMIN_TOKEN), ...(fields ? FORM_HEADERS : {}) }, ...(fields ? { payload: form(fields) } : {}) });
    const setShown = async (entityId: string, enabled: boolean) => {
      const answer = await admin('PUT', `/admin/entities/${entityId}/connector-details`, { enabled: String(enabled) });
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.json().showConnectorDetails, enabled);
    };
    const drain = async () => {
      while ((await worker.runOnce()) > 0);
    };
    const storedResponse = async (id: string): Promise<Body> =>
      (await t.storage.query<{ response: Body }>('SELECT response FROM transactions WHERE id = $1', [id])).rows[0]!.response;

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
      merchant = await t.createMerchant();
      receiver = await WebhookReceiver.start();
      const handler = deliverWebhookHandler({ storage: t.storage, clock: t.clock, sender, logger: silentLogger });
      worker = new JobWorker({ storage: t.storage, clock: t.clock, handlers: [handler], logger: silentLogger, concurrency: 4, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
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

    it('a card payment answers brandResult and card.regulatedFlag as the issuer reports them', async () => {
      const visa = (await cardPayment(t, merchant, 'DB', '10.00')).json();
      assert.equal(visa.brandResult, 'VISA');
      assert.equal(visa.card.regulatedFlag, 'false');
      const master = (await cardPayment(t, merchant, 'DB', '10.00', { paymentBrand: 'MASTER', 'card.number': '5454545454545454' })).json();
      assert.equal(master.brandResult, 'MASTER');
      assert.equal(master.card.regulatedFlag, 'true', 'the simulated Mastercard issuer reports regulated debit cards');
      assert.equal((await getPayment(t, merchant, master.id)).json().brandResult, 'MASTER', 'GET answers what POST did');
    });

    it('a declined Mastercard payment answers resultDetails.MerchantAdviceCode; a Visa one none', async () => {
      const master = await cardPayment(t, merchant, 'DB', '5.06', { paymentBrand: 'MASTER', 'card.number': '5454545454545454' });
      assert.equal(master.json().result.code, '800.100.203');
      assert.equal(master.json().resultDetails.MerchantAdviceCode, '02', 'insufficient funds: try again later');
      const visa = (await cardPayment(t, merchant, 'DB', '5.06')).json();
      assert.equal(visa.result.code, '800.100.203');
      assert.equal(visa.resultDetails.MerchantAdviceCode, undefined);
      await setShown(merchant.entityId, false);
      try {
        const hidden = (await getPayment(t, merchant, master.json().id)).json();
        assert.deepEqual(Object.keys(hidden.resultDetails).sort(), ['ExtendedDescription', 'MerchantAdviceCode'], 'the advice code is never hidden');
      } finally {
        await setShown(merchant.entityId, true);
      }
    });

    it('connector details are shown by default, as the test system of the public interface shows them', async () => {
      const paid = (await cardPayment(t, merchant, 'PA', '12.00')).json();
      assertShown(paid, 'POST');
      assertShown((await getPayment(t, merchant, paid.id)).json(), 'GET');
    });

    it('hidden: POST, capture, GET, query, checkout status and the widget answer without them; the stored response keeps them', async () => {
      await setShown(merchant.entityId, false);
      try {
        const pa = (await cardPayment(t, merchant, 'PA', '20.00', { merchantTransactionId: 'hidden-details-1' })).json();
        assertHidden(pa, 'POST');
        assert.equal(typeof pa.resultDetails?.ExtendedDescription, 'string', 'the description stays: it is not a connector detail');
        assertShown(await storedResponse(pa.id), 'stored');
        const cp = (await referencePayment(t, merchant, pa.id, 'CP', '20.00')).json();
        assertHidden(cp, 'capture');
        assertHidden((await getPayment(t, merchant, pa.id)).json(), 'GET');
        const byId = await t.app.inject({ method: 'GET', url: `/v1/query/${pa.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
        assert.equal(byId.statusCode, 200, byId.body);
        for (const payment of byId.json().payments) assertHidden(payment, 'query by id');
        const byReference = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=hidden-details-1`, headers: bearer(merchant.accessToken) });
        assert.equal(byReference.json().payments.length, 1, byReference.body);
        assertHidden(byReference.json().payments[0], 'query by merchantTransactionId');

        const checkout = (await createCheckout(t, merchant)).json();
        const widget = (await widgetPost(t, checkout.id, { paymentBrand: 'VISA', 'card.number': SAMPLE_CARD['card.number'], 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' })).json();
        assert.match(widget.result.code, /^000\.100\.1/, JSON.stringify(widget.result));
        assertHidden(widget, 'widget post');
        const status = (await checkoutStatus(t, merchant, checkout.id)).json();
        assert.equal(status.id, widget.id);
        assertHidden(status, 'checkout status');
        assertShown(await storedResponse(widget.id), 'stored widget payment');

        await drain();
        const notified = receiver.on('/shop').filter((r) => r.body.type === 'PAYMENT').map((r) => r.body.payload as Body);
        for (const id of [pa.id, cp.id, widget.id]) {
          const payload = notified.find((p) => p['id'] === id);
          assert.ok(payload, `a webhook for ${id}`);
          assertHidden(payload, `webhook of ${id}`);
        }
      } finally {
        await setShown(merchant.entityId, true);
      }
    });

    it('turned back on, the same payments show them again (the filter is at rendering, never in storage)', async () => {
      await setShown(merchant.entityId, false);
      const pa = (await cardPayment(t, merchant, 'PA', '21.00')).json();
      assertHidden(pa, 'POST while hidden');
      await setShown(merchant.entityId, true);
      assertShown((await getPayment(t, merchant, pa.id)).json(), 'GET after turning back on');
      const before = receiver.on('/shop').length;
      const db = (await cardPayment(t, merchant, 'DB', '22.00')).json();
      await drain();
      const payload = receiver.on('/shop').slice(before).find((r) => r.body.payload?.['id'] === db.id)?.body.payload as Body;
      assertShown(payload, 'webhook while shown');
    });

    it('the setting is per entity: a channel hiding them does not hide its merchant\'s', async () => {
      const channel = await t.createChannel(merchant.entityId);
      await setShown(channel.entityId, false);
      const onChannel = (await cardPayment(t, channel, 'DB', '5.00')).json();
      assertHidden(onChannel, 'channel');
      assertShown((await cardPayment(t, merchant, 'DB', '5.00')).json(), 'merchant');
      const unknown = await admin('PUT', `/admin/entities/${'f'.repeat(32)}/connector-details`, { enabled: 'false' });
      assert.equal(unknown.statusCode, 404);
      const wrong = await admin('PUT', `/admin/entities/${merchant.entityId}/connector-details`, { enabled: 'maybe' });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().result.parameterErrors[0].name, 'enabled');
    });

    it('PREPAYMENT answers merchant.bankAccount.* from the merchant\'s account; a card payment never does', async () => {
      const prepay = (entity: Merchant) => postPayment(t, entity, { amount: '92.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'PREPAYMENT', shopperResultUrl: RESULT_URL });
      const without = (await prepay(merchant)).json();
      assert.equal(without.merchant?.bankAccount, undefined, 'no account set: none shown');

      const set = await admin('PUT', `/admin/entities/${merchant.entityId}/bank-account`, { ...MERCHANT_ACCOUNT, number: 'de89 3704 0044 0532 0130 00' });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().bankAccount, MERCHANT_ACCOUNT, 'stored in electronic form');
      const answered = (await prepay(merchant)).json();
      assert.equal(answered.result.code, '000.200.000', JSON.stringify(answered.result));
      assert.deepEqual(answered.merchant.bankAccount, MERCHANT_ACCOUNT);
      assert.deepEqual((await getPayment(t, merchant, answered.id)).json().merchant.bankAccount, MERCHANT_ACCOUNT);
      assert.equal((await cardPayment(t, merchant, 'DB', '3.00')).json().merchant, undefined);

      const channel = await t.createChannel(merchant.entityId, 'Prepay channel');
      assert.deepEqual((await prepay(channel)).json().merchant.bankAccount, MERCHANT_ACCOUNT, 'a channel uses its merchant\'s account');

      const bad = await admin('PUT', `/admin/entities/${merchant.entityId}/bank-account`, { holder: 'Shop', number: 'DE00370400440532013000', bic: 'NOTABIC' });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(bad.json().result.parameterErrors.map((e: { name: string }) => e.name), ['number', 'bic']);

      const removed = await admin('DELETE', `/admin/entities/${merchant.entityId}/bank-account`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal((await prepay(merchant)).json().merchant?.bankAccount, undefined);
    });

    it('the command line sets both through a running gateway (httpAdmin)', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = httpAdmin(address, TEST_ADMIN_TOKEN);
      const channel = await t.createChannel(merchant.entityId, 'CLI channel');
      assert.deepEqual(await port.setConnectorDetails(channel.entityId, false), { entityId: channel.entityId, showConnectorDetails: false });
      assertHidden((await cardPayment(t, channel, 'DB', '4.00')).json(), 'after the command');
      const account = await port.setBankAccount(channel.entityId, { holder: 'CLI Shop', number: 'DE89370400440532013000', bic: undefined, country: 'DE' });
      assert.deepEqual(account.bankAccount, { holder: 'CLI Shop', number: 'DE89370400440532013000', country: 'DE' });
      assert.equal((await port.setBankAccount(channel.entityId, null)).bankAccount, null);
    });
  });
}

/** The same commands on an embedded database no gateway holds: the command line opens it itself. */
describe('connector-details and bank-account commands (command line, direct)', () => {
  it('store the settings the answers read', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-answers-'));
    try {
      const port = await openDirectAdmin(loadConfig({ DATA_DIR: dataDir }));
      try {
        const { entityId } = await port.createEntity({ name: 'Direct shop' });
        assert.deepEqual(await port.setConnectorDetails(entityId, false), { entityId, showConnectorDetails: false });
        const account = await port.setBankAccount(entityId, { holder: 'Direct Shop', number: undefined, bic: 'COBADEFFXXX', country: undefined });
        assert.deepEqual(account.bankAccount, { holder: 'Direct Shop', bic: 'COBADEFFXXX' });
        await assert.rejects(port.setConnectorDetails('0'.repeat(32), true), (error: GatewayError) => error.code === '200.300.406');
      } finally {
        await port.close();
      }
      const storage = await createPgliteStorage(join(dataDir, 'pglite'));
      try {
        const { rows } = await storage.query<{ show_connector_details: boolean; payout_bank_account: Record<string, string> }>('SELECT show_connector_details, payout_bank_account FROM entities');
        assert.deepEqual(rows, [{ show_connector_details: false, payout_bank_account: { holder: 'Direct Shop', bic: 'COBADEFFXXX' } }]);
      } finally {
        await storage.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
