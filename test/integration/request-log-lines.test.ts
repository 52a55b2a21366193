import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { context, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { testDatabases } from '../support/databases.js';
import { checkoutStatus, createCheckout, widgetPost } from '../support/checkouts.js';
import { cardPayment, getPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { BROWSER } from '../support/three-d-secure.js';
import { bearer, form, FORM_HEADERS, json, LogCapture, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';
import { deliverWebhookHandler } from '../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { jsonLogger } from '../../src/jobs/json-logger.js';

/** Issue 30, item 3: each request's one line names the payment, its result and what failed (docs/observability.md, Logs). */

type Line = Record<string, any>;

/** A real test card number: it must appear in no log line, whatever the request's fate. */
const PAN = SAMPLE_CARD['card.number'];
const CARD = { paymentBrand: 'VISA', 'card.number': PAN, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };

function parsed(t: TestApp, from: number): Line[] {
  return t.logs.lines.slice(from).map((line) => JSON.parse(line) as Line);
}

/** The completion lines written since `from`, waiting for the request's line on a busy host. */
async function completionLines(t: TestApp, from: number, count = 1): Promise<Line[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = parsed(t, from).filter((line) => line['msg'] === 'request completed');
    if (lines.length >= count || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs one request and answers with its response and its completion line. */
async function logged(t: TestApp, request: () => Promise<{ statusCode: number; body: string }>): Promise<{ response: { statusCode: number; body: string }; line: Line }> {
  const from = t.logs.lines.length;
  const response = await request();
  const [line] = await completionLines(t, from);
  assert.ok(line, `a completion line for ${response.statusCode} ${response.body}`);
  return { response, line };
}

function adminCall(t: TestApp, method: 'PUT' | 'POST', url: string, fields: Record<string, string>) {
  return t.app.inject({ method, url, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form(fields) });
}

for (const database of testDatabases()) {
  describe(`request log lines on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('a successful payment: one line at info with entity, transaction, result code, method, path, status and time', async () => {
      const from = t.logs.lines.length;
      const { response, line } = await logged(t, () => cardPayment(t, merchant, 'PA', '30.00'));
      const body = json(response as never);
      assert.equal(line['entityId'], merchant.entityId);
      assert.equal(line['transactionId'], body.id);
      assert.equal(line['resultCode'], body.result.code);
      assert.deepEqual(line['req'], { method: 'POST', path: '/v1/payments', remoteAddress: '127.0.0.1' });
      assert.equal(line['res'].statusCode, 200);
      assert.equal(typeof line['responseTime'], 'number');
      assert.match(line['reqId'], /^[0-9a-f]{32}$/);
      assert.ok(body.ndc.endsWith(line['reqId']), 'the line is found by the ndc the merchant holds');
      assert.equal(line['reason'], undefined, 'a success has no reason');
      assert.equal(line['traceId'], undefined, 'no trace ids while tracing is off');
      // One line per request: the arrival line is at debug.
      assert.deepEqual(parsed(t, from).filter((l) => l['reqId'] === line['reqId']).map((l) => l['msg']), ['request completed']);
    });

    it('a capture names its own id and the payment it refers to; a GET names the payment read', async () => {
      const pa = json(await cardPayment(t, merchant, 'PA', '30.00'));
      const { response, line } = await logged(t, () => referencePayment(t, merchant, pa.id, 'CP', '30.00'));
      assert.equal(line['transactionId'], json(response as never).id);
      assert.equal(line['referencedId'], pa.id);
      const refused = await logged(t, () => referencePayment(t, merchant, pa.id, 'RF', '99.00'));
      assert.equal(refused.line['referencedId'], pa.id, 'a refused refund names its parent');
      assert.equal(refused.line['resultCode'], json(refused.response as never).result.code);
      assert.equal((await logged(t, () => getPayment(t, merchant, pa.id))).line['transactionId'], pa.id);
    });

    it('a validation refusal names the parameters that failed and the result code, never the card number', async () => {
      const from = t.logs.lines.length;
      const { response, line } = await logged(t, () => cardPayment(t, merchant, 'DB', '10.00', { ...CARD, 'card.expiryMonth': '13', 'billing.country': 'Germany' }));
      assert.equal(response.statusCode, 400);
      assert.equal(line['resultCode'], json(response as never).result.code);
      assert.equal(line['reason'], json(response as never).result.description);
      assert.deepEqual(line['failedParameters'], json(response as never).result.parameterErrors.map((e: { name: string }) => e.name));
      assert.ok(line['failedParameters'].includes('card.expiryMonth'), JSON.stringify(line));
      const mistyped = await logged(t, () => cardPayment(t, merchant, 'DB', '10.00', { 'card.number': '4200000000000001' }));
      assert.deepEqual(mistyped.line['failedParameters'], ['card.number']);
      const text = t.logs.lines.slice(from).join('\n');
      assert.ok(!text.includes(PAN) && !text.includes('4200000000000001'), 'no card number in the log');
      assert.ok(!text.includes('Germany') && !text.includes('"13"'), 'no value of a failed parameter');
    });

    it('a 401 names its result code', async () => {
      const { response, line } = await logged(t, () =>
        t.app.inject({ method: 'POST', url: '/v1/payments', headers: FORM_HEADERS, payload: form({ entityId: merchant.entityId, amount: '1.00', currency: 'EUR', paymentType: 'DB', ...CARD }) }),
      );
      assert.equal(response.statusCode, 401);
      assert.equal(line['res'].statusCode, 401);
      assert.equal(line['resultCode'], '800.900.300');
      assert.equal(typeof line['reason'], 'string');
      assert.equal(line['entityId'], undefined, 'an entity is named only once the request is authenticated');
    });

    it("a widget payment declined for the billing address its checkout lacks: the checkout id, the result code and why, in the log and in the merchant's status call", async () => {
      const checkout = json(await createCheckout(t, merchant));
      const { line: created } = await logged(t, () => createCheckout(t, merchant));
      assert.match(created['checkoutId'], /^[0-9A-F]{32}\./, 'a created checkout is named on its line');
      const browser = Object.fromEntries(Object.entries(BROWSER).filter(([name]) => name.startsWith('customer.browser.')));
      // The 3-D Secure card the widget docs recommend, posted as the widget does (browser data, no billing address).
      const { response, line } = await logged(t, () => widgetPost(t, checkout.id, { ...CARD, 'card.number': '4200000000000042', ...browser, shopperResultUrl: 'https://shop.example/result' }));
      const answer = json(response as never);
      // The shopper could correct nothing (the address is the checkout's): a declined payment, which the shop's result page shows.
      assert.equal(answer.result.code, '100.800.100');
      assert.equal(answer.resultDetails.ExtendedDescription, '3-D Secure authentication needs billing.street1, billing.city, billing.postcode, billing.country');
      assert.equal(line['checkoutId'], checkout.id);
      assert.equal(line['transactionId'], answer.id);
      assert.equal(line['resultCode'], '100.800.100');
      assert.equal(line['reason'], answer.result.description);
      const status = json(await checkoutStatus(t, merchant, checkout.id));
      assert.equal(status.id, answer.id);
      assert.equal(status.result.code, '100.800.100', 'the status call says why, not "pending"');
      assert.match(status.resultDetails.ExtendedDescription, /billing\.street1/);
      assert.ok(!t.logs.text.includes('4200000000000042'), 'no card number in the log');
    });

    it('a widget payment without the browser data 3-D Secure needs is refused as a request: the widget sends it, a poster can correct it', async () => {
      const checkout = json(await createCheckout(t, merchant));
      const { response, line } = await logged(t, () => widgetPost(t, checkout.id, { ...CARD, 'card.number': '4200000000000042', shopperResultUrl: 'https://shop.example/result' }));
      assert.equal(response.statusCode, 400);
      assert.equal(line['checkoutId'], checkout.id);
      assert.ok((line['failedParameters'] as string[]).includes('customer.browser.language'));
    });

    it('a widget payment declined or refused by risk: the checkout id, the transaction, the result code and the reason', async () => {
      const checkout = json(await createCheckout(t, merchant));
      const declined = await logged(t, () => widgetPost(t, checkout.id, { ...CARD, 'card.number': '4000000000000002' }));
      assert.equal(declined.line['checkoutId'], checkout.id);
      assert.equal(declined.line['transactionId'], json(declined.response as never).id);
      assert.equal(declined.line['resultCode'], '800.100.100');
      assert.equal(typeof declined.line['reason'], 'string');

      const limited = await t.createMerchant('Limited shop');
      assert.equal((await adminCall(t, 'PUT', `/admin/entities/${limited.entityId}/risk/rules`, { rules: JSON.stringify({ amountLimits: [{ currency: 'EUR', max: '50.00' }] }), by: 'alice' })).statusCode, 200);
      const risky = json(await createCheckout(t, limited));
      const refused = await logged(t, () => widgetPost(t, risky.id, CARD));
      assert.equal(refused.line['checkoutId'], risky.id);
      assert.equal(refused.line['resultCode'], '100.550.312');
      assert.equal(refused.line['reason'], json(refused.response as never).result.description);
      assert.equal(refused.line['transactionId'], json(refused.response as never).id);
      assert.equal(typeof refused.line['transactionId'], 'string', 'the refused attempt is a transaction of its own');
      // The merchant's status call is found by the same id, with the entity it is authenticated for.
      const status = await logged(t, () => t.app.inject({ method: 'GET', url: `/v1/checkouts/${risky.id}/payment?entityId=${limited.entityId}`, headers: bearer(limited.accessToken) }));
      assert.equal(status.line['checkoutId'], risky.id);
      assert.equal(status.line['entityId'], limited.entityId);
      assert.equal(status.line['resultCode'], json(status.response as never).result.code);
    });

    it("a widget payment whose 3-D Secure challenge the shopper fails: the shopper's return names the checkout, the payment and the result", async () => {
      const billing = Object.fromEntries(Object.entries(BROWSER).filter(([name]) => name.startsWith('billing.')));
      const browser = Object.fromEntries(Object.entries(BROWSER).filter(([name]) => name.startsWith('customer.browser.')));
      const checkout = json(await createCheckout(t, merchant, billing));
      const pending = await logged(t, () => widgetPost(t, checkout.id, { ...CARD, 'card.number': '4200000000000042', ...browser }));
      const payment = json(pending.response as never);
      assert.equal(payment.result.code, '000.200.000', pending.response.body);
      assert.equal(pending.line['transactionId'], payment.id);
      assert.equal(pending.line['reason'], undefined, 'pending is no refusal');
      const acsPath = new URL(payment.redirect.url).pathname;
      const fields = Object.fromEntries((payment.redirect.parameters as { name: string; value: string }[]).map((p) => [p.name, p.value]));
      if (Object.keys(fields).length > 0) await t.app.inject({ method: 'POST', url: acsPath, headers: FORM_HEADERS, payload: form(fields) });
      const { response, line } = await logged(t, () => t.app.inject({ method: 'POST', url: acsPath, headers: FORM_HEADERS, payload: form({ outcome: 'N' }) }));
      assert.equal(response.statusCode, 303, response.body);
      const status = json(await t.app.inject({ method: 'GET', url: `/v1/payments/${payment.id}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) }));
      assert.equal(line['checkoutId'], checkout.id);
      assert.equal(line['transactionId'], payment.id);
      assert.equal(line['resultCode'], status.result.code);
      assert.doesNotMatch(line['resultCode'], /^000\./);
      assert.equal(line['reason'], status.result.description);
    });

    it("the widget's script names the checkout of its query, and nothing else of the query", async () => {
      const checkout = json(await createCheckout(t, merchant));
      const { line } = await logged(t, () => t.app.inject({ method: 'GET', url: `/v1/paymentWidgets.js?checkoutId=${checkout.id}&x=${PAN}` }));
      assert.equal(line['checkoutId'], checkout.id);
      assert.equal(line['req'].path, '/v1/paymentWidgets.js');
      const hostile = await logged(t, () => t.app.inject({ method: 'GET', url: `/v1/paymentWidgets.js?checkoutId=${PAN}AAAAAAAAAAAAAAAA.gw01` }));
      assert.equal(hostile.line['checkoutId'], undefined, 'an id holding a card number is left out');
      const forged = await logged(t, () => t.app.inject({ method: 'POST', url: `/v1/checkouts/${PAN}AAAAAAAAAAAAAAAA.gw01/payment`, headers: FORM_HEADERS, payload: form(CARD) }));
      assert.equal(forged.line['checkoutId'], undefined);
      assert.ok(!t.logs.text.includes(PAN), 'no card number in the log');
    });
  });
}

for (const database of testDatabases()) {
  describe(`job log lines on ${database.name}`, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 4, targets: RECEIVER_TARGETS });
    before(async () => {
      t = await startTestApp(await database.open(), { env: RECEIVER_ENV });
      receiver = await WebhookReceiver.start();
    });
    after(async () => {
      sender.close();
      await receiver.stop();
      await t.close();
      await t.storage.close();
    });

    it("a webhook attempt the merchant's server refuses names its notification and the payment it is about", async () => {
      const merchant = await t.createMerchant();
      receiver.answer(500, '/failing');
      const payment = json(await cardPayment(t, merchant, 'DB', '7.00', { notificationUrl: receiver.url('/failing') }));
      const jobLogs = new LogCapture();
      const logger = jsonLogger('info', jobLogs);
      const worker = new JobWorker({ storage: t.storage, clock: t.clock, handlers: [deliverWebhookHandler({ storage: t.storage, clock: t.clock, sender, logger })], logger, concurrency: 4, batchSize: 8, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
      while ((await worker.runOnce()) > 0);
      const lines = jobLogs.lines.map((line) => JSON.parse(line) as Line).filter((line) => line['msg'] === 'webhook attempt not acknowledged');
      assert.equal(lines.length, 1, jobLogs.text);
      assert.equal(lines[0]!['transactionId'], payment.id);
      assert.equal(lines[0]!['notificationType'], 'PAYMENT');
      assert.equal(typeof lines[0]!['notificationId'], 'string');
      assert.equal(lines[0]!['httpStatus'], 500);
      assert.ok(!jobLogs.text.includes(PAN), 'no card number in the log');
    });
  });
}

describe('request log lines with tracing on', () => {
  let t: TestApp;
  const provider = new NodeTracerProvider();
  before(async () => {
    provider.register();
    t = await startTestApp(await testDatabases()[0]!.open());
  });
  after(async () => {
    await t.close();
    await t.storage.close();
    trace.disable();
    context.disable();
    await provider.shutdown();
  });

  it('the line carries the trace and span of the request', async () => {
    const merchant = await t.createMerchant();
    const span = trace.getTracer('test').startSpan('POST /v1/payments');
    // inject's answer is lazy (it dispatches when awaited): awaited inside the span's context.
    const { line } = await logged(t, () => context.with(trace.setSpan(context.active(), span), async () => await cardPayment(t, merchant, 'DB', '5.00')));
    span.end();
    assert.equal(line['traceId'], span.spanContext().traceId);
    assert.equal(line['spanId'], span.spanContext().spanId);
    assert.match(line['traceId'], /^[0-9a-f]{32}$/);
  });
});
