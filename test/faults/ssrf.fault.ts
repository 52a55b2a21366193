/**
 * SSRF against a real gateway process (embedded PGlite, built as `npm start` runs it): webhooks
 * and notificationUrl pointing into the gateway's own network. A receiver on 127.0.0.1 counts
 * every request; none may reach it. A URL that names its address is refused at creation (400,
 * 200.300.404 naming the field); a host name resolving to loopback (localhost) is accepted, and
 * its delivery is refused at the first attempt and marked failed, never retried. A second
 * gateway with WEBHOOK_ALLOWED_ADDRESSES=127.0.0.1/32 shows the receiver is reachable when the
 * operator allows it. Only 127.0.0.0/8 and ::1 are ever addressed: 10.x and 169.254.169.254
 * are refused before any connection, and go to a gateway that runs no jobs, so that even a
 * gateway that wrongly accepted them would not send anything there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';

const ADMIN_TOKEN = 'ssrf-fault-admin-token-0123456789';
const SETTLE_WITHIN_MS = 20_000;

interface Receiver {
  readonly port: number;
  readonly paths: string[];
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    paths,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Stage {
  readonly gateway: GatewayProcess;
  readonly merchant: { entityId: string; token: string };
  readonly dataDir: string;
}

async function startStage(env: Record<string, string> = {}): Promise<Stage> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-ssrf-'));
  const gateway = await startGateway({ DATABASE_URL: '', DATA_DIR: dataDir, ADMIN_TOKEN, WORKER_POLL_INTERVAL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000', ...env });
  const entityId = /entityId:\s+([0-9a-f]{32})/.exec(gateway.output())?.[1];
  const token = /accessToken: (\S+)/.exec(gateway.output())?.[1];
  if (!entityId || !token) throw new Error(`no demo merchant printed:\n${gateway.output()}`);
  return { gateway, merchant: { entityId, token }, dataDir };
}

async function stopStage(stage: Stage | undefined): Promise<void> {
  if (!stage) return;
  await stage.gateway.stop();
  rmSync(stage.dataDir, { recursive: true, force: true });
}

async function registerWebhook(stage: Stage, url: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stage.gateway.url}/admin/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entity: stage.merchant.entityId, url }),
  });
  return { status: response.status, body: await response.json() };
}

async function activate(stage: Stage, webhookId: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stage.gateway.url}/admin/webhooks/${webhookId}/activate`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return { status: response.status, body: await response.json() };
}

async function payWithNotificationUrl(stage: Stage, notificationUrl: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${stage.gateway.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stage.merchant.token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      entityId: stage.merchant.entityId, amount: '12.00', currency: 'EUR', paymentType: 'DB', paymentBrand: 'VISA', notificationUrl,
      'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123',
    }),
  });
  return { status: response.status, body: await response.json() };
}

async function attemptsOf(stage: Stage, webhookId: string): Promise<any[]> {
  const response = await fetch(`${stage.gateway.url}/admin/webhooks/${webhookId}/attempts`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return ((await response.json()) as { attempts: any[] }).attempts;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + SETTLE_WITHIN_MS;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${SETTLE_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The worker's log lines about attempts that gave up (one per refused delivery). */
function givenUp(stage: Stage): any[] {
  return stage.gateway.output().split('\n').filter((line) => line.includes('"giveUp":true')).map((line) => JSON.parse(line));
}

describe('SSRF: webhook and notificationUrl targets inside the gateway’s network', () => {
  let receiver: Receiver;
  /** Runs no jobs: even a gateway that wrongly accepted 10.x or 169.254.x would send nothing there. */
  let creating: Stage | undefined;
  let stage: Stage | undefined;
  let allowing: Stage | undefined;

  before(async () => {
    receiver = await startReceiver();
    [creating, stage] = await Promise.all([startStage({ WORKERS_IN_GATEWAY: 'false' }), startStage()]);
  });
  after(async () => {
    for (const running of [creating, stage, allowing]) await stopStage(running);
    await receiver.close();
  });

  // Each names its address: refused when registered or requested, before anything is queued.
  const literalTargets = (port: number) => [
    `http://127.0.0.1:${port}/literal-v4`,
    `http://10.0.0.1:${port}/private`,
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    `http://[::1]:${port}/literal-v6`,
    `http://[::ffff:127.0.0.1]:${port}/mapped`,
    `http://2130706433:${port}/decimal`,
    `http://0x7f000001:${port}/hex`,
    `http://0177.0.0.1:${port}/octal`,
  ];

  it('refuses webhooks whose URL names a forbidden address: 400 200.300.404 naming url', { timeout: 60_000 }, async () => {
    for (const url of literalTargets(receiver.port)) {
      const { status, body } = await registerWebhook(creating!, url);
      assert.equal(status, 400, `${url}: ${JSON.stringify(body)}`);
      assert.equal(body.result.code, '200.300.404');
      assert.equal(body.result.parameterErrors[0].name, 'url');
      assert.match(body.result.parameterErrors[0].message, /webhooks go to public addresses only/);
    }
  });

  it('refuses payments whose notificationUrl names a forbidden address: 400 naming notificationUrl, no payment', { timeout: 60_000 }, async () => {
    for (const url of literalTargets(receiver.port)) {
      const { status, body } = await payWithNotificationUrl(creating!, url);
      assert.equal(status, 400, `${url}: ${JSON.stringify(body)}`);
      assert.equal(body.result.code, '200.300.404');
      assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['notificationUrl']);
      // An error body's id is the request's (docs/api.md, Error bodies); a payment answer, declines included, has a paymentType.
      assert.equal(body.paymentType, undefined, 'no payment was created');
    }
  });

  it('accepts http://localhost, then refuses its deliveries at the first attempt and never retries them', { timeout: 60_000 }, async () => {
    const webhookUrl = `http://localhost:${receiver.port}/by-name?secret=query-not-logged`;
    const created = await registerWebhook(stage!, webhookUrl);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    // Activation sends the test notification now (nothing is sent at registration): refused.
    const activated = await activate(stage!, created.body.webhookId);
    assert.equal(activated.status, 502, JSON.stringify(activated.body));
    assert.match(activated.body.result.parameterErrors[0].message, /refused: localhost resolves to/);
    const paid = await payWithNotificationUrl(stage!, `http://localhost:${receiver.port}/legacy-by-name?secret=query-not-logged`);
    assert.equal(paid.status, 200, JSON.stringify(paid.body));

    // The payment's notificationUrl delivery, by the workers.
    const refusals = await waitFor('a refused delivery', async () => (givenUp(stage!).length >= 1 ? givenUp(stage!) : undefined));
    assert.equal(refusals.length, 1);
    for (const line of refusals) {
      assert.equal(line.attempt, 1, 'failed at the first attempt');
      assert.equal(line.nextAttemptAt, null, 'no retry is planned');
      assert.match(line.error, /^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    }
    const [attempt] = await attemptsOf(stage!, created.body.webhookId);
    assert.match(attempt.error, /^refused: /);
    assert.equal(attempt.deliveryStatus, 'failed');
    assert.ok(!stage!.gateway.output().includes('query-not-logged'), 'the URL\'s query string is never logged');
  });

  it('contacted the receiver zero times', () => {
    assert.deepEqual(receiver.paths, []);
  });

  it('with WEBHOOK_ALLOWED_ADDRESSES=127.0.0.1/32 the same receiver is registered and reached (the counter works)', { timeout: 90_000 }, async () => {
    allowing = await startStage({ WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1/32' });
    const created = await registerWebhook(allowing, `http://127.0.0.1:${receiver.port}/allowed`);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await activate(allowing, created.body.webhookId);
    await waitFor('the test notification', async () => (receiver.paths.includes('/allowed') ? true : undefined));
    const refused = await registerWebhook(allowing, `http://2130706433:${receiver.port}/still-allowed`);
    assert.equal(refused.status, 201, '2130706433 is 127.0.0.1, which the operator allowed');
    assert.deepEqual((await registerWebhook(allowing, 'http://169.254.169.254/latest/meta-data/')).status, 400, 'the allow-list admits only what it names');
  });
});
