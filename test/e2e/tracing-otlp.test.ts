import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { runCli, startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { RECEIVER_ENV, WebhookReceiver } from '../support/webhook-receiver.js';

const PAN = '4200000000000000';

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface OtlpSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: { key: string; value: OtlpValue }[] }
interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  readonly attributes: Record<string, string>;
  /** The attributes of the process that exported it. */
  readonly resource: Record<string, string>;
}

/** An OTLP/HTTP receiver as a collector would be: POST /v1/traces with JSON bodies, every span kept. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly resourceValues: string[] = [];
  readonly contentTypes = new Set<string>();
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        this.contentTypes.add(String(request.headers['content-type']));
        this.take(JSON.parse(body));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private take(request: { resourceSpans?: { resource?: { attributes?: { key: string; value: OtlpValue }[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[] }): void {
    for (const resourceSpans of request.resourceSpans ?? []) {
      const resource = Object.fromEntries((resourceSpans.resource?.attributes ?? []).map((a) => [a.key, valueOf(a.value)]));
      this.resourceValues.push(...Object.values(resource));
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          const attributes = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)]));
          this.spans.push({ traceId: span.traceId, spanId: span.spanId, parentSpanId: span.parentSpanId || undefined, name: span.name, attributes, resource });
        }
      }
    }
  }
}

function valueOf(value: OtlpValue): string {
  return String(value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue ?? JSON.stringify(value));
}

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('traces of a real gateway exported over OTLP/HTTP JSON', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let gateway: GatewayProcess | undefined;
  const otlp = new OtlpReceiver();
  let receiver: WebhookReceiver;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-tracing-'));
    receiver = await WebhookReceiver.start();
    env = {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ACQUIRER_HOST_URL: '',
      ...RECEIVER_ENV,
      WORKER_POLL_INTERVAL_MS: '50',
      OTEL_EXPORTER_OTLP_ENDPOINT: await otlp.listen(),
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'gateway-e2e',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    gateway = await startGateway(env);
  });
  after(async () => {
    await gateway?.stop();
    await receiver.stop();
    await otlp.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a card payment through the ISO 8583 emulator arrives as one trace with HTTP, database, connector and delivery spans, and no card number', async () => {
    const created = await runCli(['entity', 'create', '--name', 'Shop'], env);
    assert.equal(created.code, 0, created.stderr);
    const { entityId, accessToken } = JSON.parse(created.stdout) as { entityId: string; accessToken: string };
    const webhook = await runCli(['webhook', 'create', '--entity', entityId, '--url', receiver.url('/shop')], env);
    assert.equal(webhook.code, 0, webhook.stderr);
    const { webhookId, secret } = JSON.parse(webhook.stdout) as { webhookId: string; secret: string };
    receiver.setSecret('/shop', secret);
    // Its test notification now, acknowledged by the receiver that knows the secret: active.
    const activated = await runCli(['webhook', 'activate', '--webhook', webhookId], env);
    assert.equal(activated.code, 0, activated.stderr);
    assert.match(activated.stdout, /"status":\s*"active"/);

    const body = new URLSearchParams({ entityId, amount: '12.00', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL', paymentBrand: 'VISA', 'card.number': PAN, 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' });
    const response = await fetch(new URL('/v1/payments', gateway!.url), { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
    const paid = (await response.json()) as Record<string, any>;
    assert.equal(paid.result.code, '000.100.112', JSON.stringify(paid));

    const server = await until('the request span', () => otlp.spans.find((s) => s.name === 'POST /v1/payments' && s.attributes['gateway.transaction.id'] === paid.id));
    assert.equal(server.attributes['http.route'], '/v1/payments');
    assert.equal(server.attributes['http.response.status_code'], '200');
    assert.equal(server.attributes['gateway.result.code'], '000.100.112');
    assert.equal(server.attributes['gateway.entity.id'], entityId);
    // The request's log line names the same trace and span.
    const line = gateway!.output().split('\n').filter((l) => l.includes('"request completed"')).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['transactionId'] === paid.id);
    assert.deepEqual({ traceId: line?.['traceId'], spanId: line?.['spanId'] }, { traceId: server.traceId, spanId: server.spanId });
    const inTrace = () => otlp.spans.filter((s) => s.traceId === server.traceId);
    const delivery = await until('the notification delivery in the payment trace', () => inTrace().find((s) => s.name === 'notification delivery'));
    assert.equal(delivery.attributes['http.response.status_code'], '200');
    const notified = await until('the notification', () => receiver.on('/shop').find((r) => r.body.type === 'PAYMENT' && r.body.payload['id'] === paid.id));
    assert.equal(notified.headers['traceparent'], `00-${server.traceId}-${delivery.spanId}-01`);

    const spans = inTrace();
    const names = spans.map((s) => s.name).join(', ');
    assert.ok(spans.some((s) => s.attributes['db.system.name'] === 'postgresql' && s.attributes['db.operation.name']), `database spans: ${names}`);
    const connector = spans.find((s) => s.attributes['gateway.connector.operation'] === 'debit');
    assert.ok(connector, `connector span: ${names}`);
    const exchange = spans.find((s) => s.attributes['iso8583.mti'] === '0200');
    assert.ok(exchange, `ISO 8583 exchange: ${names}`);
    assert.equal(exchange.parentSpanId, connector.spanId);
    assert.match(exchange.attributes['iso8583.stan']!, /^\d{6}$/);
    assert.equal(exchange.attributes['iso8583.response_code'], '00');
    const job = spans.find((s) => s.name === 'job deliver-webhook');
    assert.ok(job && delivery.parentSpanId === job.spanId, `job span: ${names}`);
    assert.ok(otlp.resourceValues.includes('gateway-e2e'), 'OTEL_SERVICE_NAME names the service');
    assert.deepEqual([...otlp.contentTypes], ['application/json']);

    // Every attribute value of every span received, not only this trace's.
    const values = [...otlp.spans.flatMap((s) => Object.values(s.attributes)), ...otlp.resourceValues];
    assert.deepEqual(values.filter((v) => v.includes(PAN)), []);
    // The gateway's random ids (32 hex) may hold a digit run by chance, alone or inside a path
    // (/v1/payments/<id>); they are generated, never sent, so they are taken out before the search.
    assert.deepEqual(values.map((v) => v.replace(/[0-9a-fA-F]{32}/g, '')).flatMap((v) => v.match(/\d{13,19}/g) ?? []), []);
    assert.equal(await gateway!.stop(), 0, gateway!.output());
  });
});

/** A GET on a connection of its own: the cluster hands each new connection to the next process. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    }).on('error', reject);
  });
}

const databaseUrl = process.env['TEST_DATABASE_URL'];

describe('GATEWAY_PROCESSES=2 with tracing: each process exports its own spans', { skip: databaseUrl ? false : 'TEST_DATABASE_URL not set: GATEWAY_PROCESSES needs PostgreSQL' }, () => {
  const schema = `tracing_cluster_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  const otlp = new OtlpReceiver();
  let gateway: GatewayProcess | undefined;
  before(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = `${databaseUrl}${databaseUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    gateway = await startGateway({ DATABASE_URL: url, GATEWAY_PROCESSES: '2', ACQUIRER_HOST_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: await otlp.listen(), OTEL_BSP_SCHEDULE_DELAY: '100' });
  });
  after(async () => {
    await gateway?.stop();
    await otlp.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('requests spread over both processes arrive from both, each naming its process', async () => {
    for (let i = 0; i < 8; i += 1) assert.equal(await getOnNewConnection(new URL('/health', gateway!.url).href), 200);
    const roles = await until('spans of both processes', () => {
      const seen = new Set(otlp.spans.filter((s) => s.name === 'GET /health').map((s) => `${s.resource['gateway.process.role']} ${s.resource['process.pid']}`));
      return seen.size === 2 ? [...seen].sort() : undefined;
    });
    assert.match(roles[0]!, /^gateway process 0 \d+$/);
    assert.match(roles[1]!, /^gateway process 1 \d+$/);
    assert.equal(otlp.spans.find((s) => s.name === 'GET /health')!.resource['service.name'], 'payment-gateway');
  });
});
