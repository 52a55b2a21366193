import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { queueCheckoutCallbacksHandler, sendCheckoutCallbackHandler } from '../../src/jobs/checkout-callbacks.js';
import { silentLogger, type ClaimedJob } from '../../src/jobs/job-types.js';
import { SEND_CHECKOUT_CALLBACK_JOB } from '../../src/operations/checkouts/shopper-result-callback.js';
import type { NotificationRequest, NotificationSender, SendOutcome } from '../../src/operations/webhooks/ports.js';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { json, withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { checkoutStatus, createCheckout, widgetPost } from '../support/checkouts.js';

const MINUTE = 60_000;

/** A sender that records every request and answers what the test says. */
class RecordingSender implements NotificationSender {
  readonly sent: NotificationRequest[] = [];
  answer: SendOutcome = { httpStatus: 200, error: null, latencyMs: 1 };
  async send(request: NotificationRequest): Promise<SendOutcome> {
    this.sent.push(request);
    return this.answer;
  }
}

function job(kind: string, payload: Record<string, unknown>): ClaimedJob {
  return { id: '1', kind, payload, runAt: new Date(), failureCount: 0, createdAt: new Date() };
}

for (const db of testDatabases()) {
  describe(`the 29-minute shopper result callback (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(db.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    const sender = new RecordingSender();
    const deps = () => ({ storage: t.storage, clock: t.clock, ids: randomIds, sender, logger: silentLogger, sweepIntervalMs: 15_000 });

    /** One run of the sweep job, then every queued send job, as a worker would run them. */
    async function runCallbackJobs(): Promise<void> {
      await Promise.all(queueCheckoutCallbacksHandler(deps()).start([job('queue-checkout-callbacks', {})]));
      const { rows } = await t.storage.query<{ id: string; payload: Record<string, unknown> }>(`DELETE FROM jobs WHERE kind = $1 RETURNING id::text AS id, payload`, [SEND_CHECKOUT_CALLBACK_JOB]);
      await Promise.all(sendCheckoutCallbackHandler(deps()).start(rows.map((row) => job(SEND_CHECKOUT_CALLBACK_JOB, row.payload))));
    }

    async function paidCheckout(fields: Record<string, string> = {}): Promise<string> {
      const id = json(await createCheckout(t, merchant, fields)).id as string;
      assert.equal((await widgetPost(t, id, { ...SAMPLE_CARD })).statusCode, 200);
      return id;
    }

    it('sends GET shopperResultUrl?id=…&resourcePath=… once, 29 minutes after the checkout, when nobody fetched the status', async () => {
      sender.sent.length = 0;
      const id = await paidCheckout({ shopperResultUrl: 'https://shop.example.com/result?order=5' });
      t.clock.advance(29 * MINUTE - 1_000);
      await runCallbackJobs();
      assert.equal(sender.sent.length, 0, 'not before 29 minutes');
      t.clock.advance(2_000);
      await runCallbackJobs();
      assert.equal(sender.sent.length, 1);
      const sent = sender.sent[0]!;
      assert.equal(sent.method, 'GET');
      const url = new URL(sent.url);
      assert.equal(url.origin + url.pathname, 'https://shop.example.com/result');
      assert.equal(url.searchParams.get('order'), '5');
      assert.equal(url.searchParams.get('id'), id);
      assert.equal(url.searchParams.get('resourcePath'), `/v1/checkouts/${id}/payment`);
      // Once: further sweeps (on any process) find nothing to queue.
      t.clock.advance(MINUTE);
      await runCallbackJobs();
      await runCallbackJobs();
      assert.equal(sender.sent.length, 1);
    });

    it("the widget form's action is called when the merchant named no shopperResultUrl", async () => {
      sender.sent.length = 0;
      const id = await paidCheckout();
      t.clock.advance(29 * MINUTE + 1);
      await runCallbackJobs();
      assert.equal(sender.sent.length, 1);
      assert.equal(new URL(sender.sent[0]!.url).searchParams.get('id'), id);
      assert.equal(new URL(sender.sent[0]!.url).hostname, 'shop.example.com');
    });

    it('no callback when the merchant fetched the status, or when nobody paid', async () => {
      sender.sent.length = 0;
      const fetched = await paidCheckout({ shopperResultUrl: 'https://shop.example.com/result' });
      assert.equal((await checkoutStatus(t, merchant, fetched)).statusCode, 200);
      await createCheckout(t, merchant, { shopperResultUrl: 'https://shop.example.com/result' });
      t.clock.advance(29 * MINUTE + 1);
      await runCallbackJobs();
      assert.equal(sender.sent.length, 0);
    });

    it('a status call before the shopper paid does not cancel the callback; a new attempt after a fetched decline wants it again', async () => {
      sender.sent.length = 0;
      const early = json(await createCheckout(t, merchant, { shopperResultUrl: 'https://shop.example.com/result' })).id as string;
      assert.equal(json(await checkoutStatus(t, merchant, early)).result.code, '000.200.000');
      assert.equal((await widgetPost(t, early, { ...SAMPLE_CARD })).statusCode, 200);
      const retried = json(await createCheckout(t, merchant, { shopperResultUrl: 'https://shop.example.com/result' })).id as string;
      assert.equal((await widgetPost(t, retried, { ...SAMPLE_CARD, 'card.number': '4000000000000002' })).statusCode, 400);
      assert.equal(json(await checkoutStatus(t, merchant, retried)).result.code, '800.100.100');
      assert.equal((await widgetPost(t, retried, { ...SAMPLE_CARD })).statusCode, 200);
      t.clock.advance(29 * MINUTE + 1);
      await runCallbackJobs();
      assert.deepEqual(sender.sent.map((r) => new URL(r.url).searchParams.get('id')).sort(), [early, retried].sort());
    });

    it('a failed callback is retried by the job (the handler rejects); a refused address is not', async () => {
      sender.sent.length = 0;
      await paidCheckout({ shopperResultUrl: 'https://shop.example.com/result' });
      t.clock.advance(29 * MINUTE + 1);
      await Promise.all(queueCheckoutCallbacksHandler(deps()).start([job('queue-checkout-callbacks', {})]));
      const { rows } = await t.storage.query<{ payload: Record<string, unknown> }>(`DELETE FROM jobs WHERE kind = $1 RETURNING payload`, [SEND_CHECKOUT_CALLBACK_JOB]);
      assert.equal(rows.length, 1);
      sender.answer = { httpStatus: 503, error: null, latencyMs: 1 };
      await assert.rejects(sendCheckoutCallbackHandler(deps()).start([job(SEND_CHECKOUT_CALLBACK_JOB, rows[0]!.payload)])[0]!);
      sender.answer = { httpStatus: null, error: 'refused: private address', latencyMs: 1, refused: true };
      await sendCheckoutCallbackHandler(deps()).start([job(SEND_CHECKOUT_CALLBACK_JOB, rows[0]!.payload)])[0]!;
      sender.answer = { httpStatus: 200, error: null, latencyMs: 1 };
    });
  });
}
