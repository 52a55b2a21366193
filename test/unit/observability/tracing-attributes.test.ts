import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { operationOf, statementAttributes } from '../../../src/observability/tracing/db-attributes.js';
import { deliveryAttributes } from '../../../src/observability/tracing/delivery-span.js';
import { answerAttributes, requestAttributes, serverSpanName, tracedPath } from '../../../src/observability/tracing/http-attributes.js';
import { exchangeAttributes } from '../../../src/observability/tracing/iso8583-span.js';
import { connectorCallAttributes, connectorOutcomeAttributes } from '../../../src/observability/tracing/traced-connector.js';
import { tracingSettingsOf, TracingConfigError } from '../../../src/observability/tracing/settings.js';

const PAN = '4200000000000000';
const ID = '8ac7a4a1234567890123456789abcdef';

describe('span attributes', () => {
  it('a request span keeps the path with card-number-like digits masked and never the query string', () => {
    const attributes = requestAttributes({ method: 'GET', url: `/v1/payments/${PAN}?entityId=${ID}&card.number=${PAN}`, route: '/v1/payments/:id', scheme: 'http' });
    assert.equal(attributes['http.request.method'], 'GET');
    assert.equal(attributes['http.route'], '/v1/payments/:id');
    assert.equal(attributes['url.scheme'], 'http');
    const path = String(attributes['url.path']);
    assert.ok(path.startsWith('/v1/payments/'), path);
    assert.ok(!path.includes(PAN) && !path.includes('?') && !path.includes('entityId'), path);
    assert.equal(JSON.stringify(attributes).includes(PAN), false);
  });

  it('a PAN hidden behind percent-encoding in the path is masked too', () => {
    const encoded = [...PAN].map((d) => `%3${d}`).join('');
    // Shown as the receipts show a card: first six and last four digits at most.
    assert.equal(tracedPath(`/v1/payments/${encoded}`), '/v1/payments/420000******0000');
    assert.equal(tracedPath(`/v1/payments/${PAN}`), '/v1/payments/420000******0000');
  });

  it('names a server span by method and route template, the method alone without a route', () => {
    assert.equal(serverSpanName('POST', '/v1/payments/:id'), 'POST /v1/payments/:id');
    assert.equal(serverSpanName('GET', undefined), 'GET');
    assert.equal(requestAttributes({ method: 'GET', url: '/nowhere', route: undefined, scheme: 'https' })['http.route'], undefined);
  });

  it('names the entity, payment, checkout and result code a request noted, each only in its format', () => {
    const checkoutId = '4928452E6F5D95CC9B1A18207C086446.gw01';
    assert.deepEqual(answerAttributes({ entityId: ID, transactionId: ID, referencedId: ID, checkoutId, resultCode: '000.100.110' }), {
      'gateway.entity.id': ID,
      'gateway.transaction.id': ID,
      'gateway.referenced_transaction.id': ID,
      'gateway.checkout.id': checkoutId,
      'gateway.result.code': '000.100.110',
    });
    assert.deepEqual(answerAttributes({ transactionId: PAN, checkoutId: PAN, resultCode: PAN, entityId: `${PAN}x` }), {});
    assert.deepEqual(answerAttributes({}), {});
  });

  it('a statement is named by its prepared name or its first keyword, never its text or parameters', () => {
    assert.equal(operationOf('  -- a comment\n  select 1'), 'SELECT');
    assert.equal(operationOf('WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a'), 'WITH');
    const named = statementAttributes(`INSERT INTO transactions VALUES ('${PAN}')`, undefined, 'pglite');
    assert.deepEqual(named, { name: 'INSERT', attributes: { 'db.system.name': 'postgresql', 'db.operation.name': 'INSERT', 'db.query.summary': 'INSERT', 'gateway.storage.kind': 'pglite' } });
    assert.equal(statementAttributes('WITH outcome AS (…)', 'settle_payments', 'postgres').name, 'settle_payments');
  });

  it('an ISO 8583 exchange shows MTI, STAN and response code, never the card fields', () => {
    const request = { mti: '0200', fields: { 2: PAN, 3: '000000', 4: '000000001000', 11: '000123', 14: '3405', 35: `${PAN}=3405`, 41: 'TERM0001', 52: 'ABCDEF0123456789', 55: '9F02060000000010' } };
    const answer = { mti: '0210', fields: { 2: PAN, 11: '000123', 39: '00' } };
    const attributes = exchangeAttributes(request, { ok: true, answer });
    assert.deepEqual(attributes, { 'iso8583.mti': '0200', 'iso8583.stan': '000123', 'iso8583.response.mti': '0210', 'iso8583.response_code': '00' });
    assert.deepEqual(exchangeAttributes(request, { ok: false, because: 'timeout' }), { 'iso8583.mti': '0200', 'iso8583.stan': '000123', 'iso8583.no_answer': 'timeout' });
    // A STAN or a code out of its format (a misconfigured profile) is left out rather than trusted.
    assert.deepEqual(exchangeAttributes({ mti: '0200', fields: { 11: PAN } }, { ok: true, answer: { mti: '0210', fields: { 39: PAN } } }), { 'iso8583.mti': '0200', 'iso8583.response.mti': '0210' });
  });

  it('a connector call names the connector, the operation and the transaction, and the outcome only by kind and code', () => {
    assert.deepEqual(connectorCallAttributes('iso8583-test', 'debit', { transactionId: ID, method: { kind: 'card', card: { number: PAN } } }), {
      'gateway.connector.id': 'iso8583-test',
      'gateway.connector.operation': 'debit',
      'gateway.transaction.id': ID,
    });
    assert.deepEqual(connectorOutcomeAttributes({ kind: 'success', code: '000.100.112', resultDetails: { pan: PAN } }), { 'gateway.connector.outcome': 'success', 'gateway.result.code': '000.100.112' });
    assert.deepEqual(connectorOutcomeAttributes({ kind: PAN, code: PAN }), {});
  });

  it('a delivery shows its ids and the receiver host, never the path or query of the merchant URL', () => {
    const attributes = deliveryAttributes({ id: 'd1', notificationId: 'n1', webhookId: 'w1', attemptCount: 2, url: `https://shop.example:8443/hook/${PAN}?token=secret` });
    assert.deepEqual(attributes, {
      'http.request.method': 'POST',
      'gateway.delivery.id': 'd1',
      'gateway.notification.id': 'n1',
      'gateway.delivery.attempt': 3,
      'gateway.webhook.id': 'w1',
      'server.address': 'shop.example',
      'server.port': 8443,
      'url.scheme': 'https',
    });
  });
});

describe('tracing settings from OTEL_*', () => {
  it('is off without an endpoint, and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none', () => {
    assert.deepEqual(tracingSettingsOf({}), { on: false });
    assert.deepEqual(tracingSettingsOf({ OTEL_SERVICE_NAME: 'gw' }), { on: false });
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    assert.deepEqual(tracingSettingsOf(endpoint), { on: true, exporter: 'otlp' });
    assert.deepEqual(tracingSettingsOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' }), { on: true, exporter: 'otlp' });
    assert.deepEqual(tracingSettingsOf({ ...endpoint, OTEL_SDK_DISABLED: 'true' }), { on: false });
    assert.deepEqual(tracingSettingsOf({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }), { on: false });
    assert.deepEqual(tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'console' }), { on: true, exporter: 'console' });
    assert.deepEqual(tracingSettingsOf({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }), { on: true, exporter: 'otlp' });
  });

  it('refuses what it cannot honour instead of exporting what a collector cannot read', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };
    assert.throws(() => tracingSettingsOf({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), TracingConfigError);
    assert.throws(() => tracingSettingsOf({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }), TracingConfigError);
    assert.throws(() => tracingSettingsOf({ OTEL_TRACES_EXPORTER: 'jaeger' }), /only otlp, console or none/);
  });
});
