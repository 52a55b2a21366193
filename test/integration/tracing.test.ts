import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { deliverWebhookHandler } from '../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { JobWorker } from '../../src/jobs/job-worker.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { activateWebhook } from '../../src/operations/webhooks/test-webhook.js';
import { installTracing, type TracingHandle } from '../../src/observability/tracing/start-tracing.js';
import { tracedStorage } from '../../src/observability/tracing/traced-storage.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { bearer, startTestApp, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

const exporter = new InMemorySpanExporter();
let tracing: TracingHandle;
before(async () => {
  tracing = await installTracing([new SimpleSpanProcessor(exporter)], { serviceName: 'gateway-test', role: 'test' });
});
after(() => tracing.shutdown());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const traceOf = (span: ReadableSpan) => span.spanContext().traceId;

/** Every span of one trace, by name, and whether `child` descends from `ancestor` in it. */
function traceSpans(traceId: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => traceOf(span) === traceId);
}

function descendsFrom(spans: readonly ReadableSpan[], child: ReadableSpan, ancestor: ReadableSpan): boolean {
  const byId = new Map(spans.map((span) => [idOf(span), span]));
  for (let at: ReadableSpan | undefined = child; at; at = byId.get(parentOf(at) ?? '')) if (parentOf(at) === idOf(ancestor)) return true;
  return false;
}

/** The gateway's own random ids (32 hex, a checkout's with its suffix): digits may run in them by chance. */
const GENERATED_ID = /^[0-9a-fA-F]{32}(\.[A-Za-z0-9]+)?$/;

/** Every 13–19 digit run in any attribute of any span, the gateway's generated ids aside. */
function digitRunsIn(spans: readonly ReadableSpan[]): string[] {
  const values = spans.flatMap((span) => Object.values(span.attributes).map(String));
  return values.filter((value) => !GENERATED_ID.test(value)).flatMap((value) => value.match(/\d{13,19}/g) ?? []);
}

for (const database of testDatabases()) {
  describe(`traces on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let receiver: WebhookReceiver;
    let worker: JobWorker;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS });

    before(async () => {
      t = await startTestApp(tracedStorage(await database.open()), { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
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

    it('a card payment through the ISO 8583 host is one trace: request, statements, connector, exchange, job and delivery', async () => {
      exporter.reset();
      const answer = await cardPayment(t, merchant, 'DB', '12.00', { testMode: 'EXTERNAL' });
      const paid = answer.json();
      assert.equal(paid.result.code, '000.100.112', answer.body);
      while ((await worker.runOnce()) > 0);

      const server = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER && span.name === 'POST /v1/payments')!;
      assert.ok(server, exporter.getFinishedSpans().map((s) => s.name).join(', '));
      assert.equal(parentOf(server), undefined, 'a request without traceparent starts a trace');
      assert.deepEqual(
        { ...server.attributes, 'url.scheme': undefined },
        {
          'http.request.method': 'POST',
          'url.path': '/v1/payments',
          'url.scheme': undefined,
          'http.route': '/v1/payments',
          'http.response.status_code': 200,
          'gateway.entity.id': merchant.entityId,
          'gateway.transaction.id': paid.id,
          'gateway.result.code': '000.100.112',
        },
      );
      const spans = traceSpans(traceOf(server));
      const named = (pattern: RegExp) => spans.filter((span) => pattern.test(span.name));

      const statements = spans.filter((span) => span.attributes['db.system.name'] === 'postgresql' && span.kind === SpanKind.CLIENT);
      assert.ok(statements.length >= 3, statements.map((s) => s.name).join(', '));
      for (const statement of statements) {
        assert.ok(descendsFrom(spans, statement, server), `${statement.name} under the request`);
        assert.equal(statement.attributes['gateway.storage.kind'], database.name === 'pglite' ? 'pglite' : 'postgres');
      }
      assert.ok(statements.some((s) => s.attributes['db.operation.name'] === 'SELECT'), 'the token and entity look-ups');
      // A group write of one statement is one client span, named after its prepared statement.
      const settles = spans.filter((span) => span.attributes['gateway.group_commit.name'] === 'settle');
      assert.equal(settles.length, 1, spans.map((s) => s.name).join(', '));
      const settle = settles[0]!;
      assert.ok(descendsFrom(spans, settle, server), 'the settle write belongs to the payment');
      assert.equal(settle.name, 'settle_payments');
      assert.equal(settle.kind, SpanKind.CLIENT);
      assert.equal(settle.attributes['db.query.summary'], 'settle_payments');
      assert.equal(settle.attributes['db.operation.name'], 'WITH');
      assert.equal(settle.attributes['db.operation.batch.size'], 1);
      assert.equal(spans.filter((span) => parentOf(span) === idOf(settle)).length, 0, 'no second span for its statement');

      const connector = named(/^connector .* debit$/)[0]!;
      assert.ok(connector, spans.map((s) => s.name).join(', '));
      assert.equal(connector.kind, SpanKind.CLIENT);
      assert.equal(connector.attributes['gateway.connector.operation'], 'debit');
      assert.equal(connector.attributes['gateway.transaction.id'], paid.id);
      assert.equal(connector.attributes['gateway.connector.outcome'], 'success');
      const exchange = named(/^iso8583 0200$/)[0]!;
      assert.ok(exchange && parentOf(exchange) === idOf(connector), 'the ISO 8583 exchange under the connector call');
      assert.match(String(exchange.attributes['iso8583.stan']), /^\d{6}$/);
      assert.equal(exchange.attributes['iso8583.response_code'], '00');
      assert.equal(exchange.attributes['iso8583.response.mti'], '0210');

      const job = named(/^job deliver-webhook$/)[0]!;
      assert.ok(job, 'the delivery job joins the payment trace');
      assert.equal(job.kind, SpanKind.CONSUMER);
      assert.ok(descendsFrom(spans, job, server));
      const delivery = named(/^notification delivery$/)[0]!;
      assert.ok(delivery && parentOf(delivery) === idOf(job));
      assert.equal(delivery.attributes['http.response.status_code'], 200);
      assert.equal(delivery.attributes['server.address'], '127.0.0.1');

      // The receiver got the delivery's context: it can join the payment's trace.
      const notified = receiver.on('/shop').find((r) => r.body.type === 'PAYMENT' && r.body.payload['id'] === paid.id)!;
      assert.equal(notified.headers['traceparent'], `00-${traceOf(server)}-${idOf(delivery)}-01`);

      assert.deepEqual(digitRunsIn(exporter.getFinishedSpans()), [], 'no attribute holds a card number');
      assert.equal(JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes)).includes(SAMPLE_CARD['card.number']), false);
    });

    it('an incoming traceparent is honoured: the request span is its child', async () => {
      exporter.reset();
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const parent = '00f067aa0ba902b7';
      const answer = await t.app.inject({ method: 'GET', url: `/v1/payments/${SAMPLE_CARD['card.number']}?entityId=${merchant.entityId}`, headers: { ...bearer(merchant.accessToken), traceparent: `00-${traceId}-${parent}-01` } });
      assert.equal(answer.statusCode, 404, answer.body);
      const server = exporter.getFinishedSpans().find((span) => span.kind === SpanKind.SERVER)!;
      assert.equal(traceOf(server), traceId);
      assert.equal(parentOf(server), parent);
      assert.equal(server.name, 'GET /v1/payments/:id');
      assert.equal(server.attributes['url.path'], '/v1/payments/420000******0000');
      assert.equal(server.attributes['http.response.status_code'], 404);
      assert.deepEqual(digitRunsIn(exporter.getFinishedSpans()), []);
    });

    it('a capture\'s reservation, a transactional group write, is a group span over its transaction and statements', async () => {
      const authorised = (await cardPayment(t, merchant, 'PA', '5.00')).json();
      exporter.reset();
      const captured = await referencePayment(t, merchant, authorised.id, 'CP', '5.00');
      assert.equal(captured.statusCode, 200, captured.body);
      const spans = exporter.getFinishedSpans();
      const group = spans.find((span) => span.name === 'group commit reserve')!;
      assert.ok(group, spans.map((s) => s.name).join(', '));
      const transaction = spans.find((span) => span.name === 'transaction' && parentOf(span) === idOf(group))!;
      assert.ok(transaction, 'the reservation\'s transaction under its group');
      assert.ok(spans.filter((span) => parentOf(span) === idOf(transaction)).length >= 2, 'the lock and the writes, each a span');
      const server = spans.find((span) => span.kind === SpanKind.SERVER)!;
      assert.equal(server.name, 'POST /v1/payments/:id');
      assert.ok(descendsFrom(spans, group, server));
      assert.equal(server.attributes['gateway.transaction.id'], captured.json().id);
    });

    it('concurrent payments written by one group statement each lead to it: a child of one, linked from the others', async () => {
      exporter.reset();
      const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => cardPayment(t, merchant, 'DB', `${n + 1}.00`)));
      assert.deepEqual(answers.map((a) => a.statusCode), answers.map(() => 200));
      const finished = exporter.getFinishedSpans();
      const servers = finished.filter((span) => span.kind === SpanKind.SERVER);
      assert.equal(servers.length, 12);
      const groups = finished.filter((span) => span.attributes['gateway.group_commit.name'] === 'settle');
      const covered = new Set(groups.flatMap((group) => [traceOf(group), ...group.links.map((link) => link.context.traceId)]));
      for (const server of servers) assert.ok(covered.has(traceOf(server)), 'every payment reaches its settle write');
      const sizes = groups.reduce((sum, group) => sum + Number(group.attributes['db.operation.batch.size']), 0);
      assert.equal(sizes, 12);
    });
  });
}
