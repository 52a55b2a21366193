/**
 * SIGTERM to the built gateway (dist/main.js) while a slow payment is in flight: readiness turns
 * 503 at once and requests are still served for SHUTDOWN_DRAIN_MS, then the listener stops
 * accepting, the payment in flight still gets its answer, and the process exits 0.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';

/** The acquirer host's `slow` row (emulators/acquirer-host/table.ts): approved, answered after slowMs. */
const SLOW_AMOUNT = '666.01';
const SLOW_MS = 12_000;
// Long enough for a busy host to see the 503 and pay once before the listener closes.
const DRAIN_MS = 5_000;
const CARD = { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' };

interface Merchant { readonly entityId: string; readonly accessToken: string }

async function pay(gateway: GatewayProcess, merchant: Merchant, amount: string): Promise<{ status: number; body: Record<string, any> }> {
  const body = new URLSearchParams({ entityId: merchant.entityId, amount, currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL', ...CARD });
  const response = await fetch(new URL('/v1/payments', gateway.url), { method: 'POST', headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function readiness(gateway: GatewayProcess): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(new URL('/health/ready', gateway.url), { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** Whether a new TCP connection to the gateway's port is refused (the listener closed). */
function refusesConnections(gateway: GatewayProcess): Promise<boolean> {
  const { hostname, port } = new URL(gateway.url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, output: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms\n${output()}`);
    await sleep(50);
  }
}

interface Running {
  readonly host: AcquirerHost;
  readonly gateway: GatewayProcess;
  readonly merchant: Merchant;
  stop(): Promise<void>;
}

/** The acquirer host with its slow row, and a gateway whose link waits for it (the slow payment is approved, late). */
async function startWithSlowHost(shutdown: { drainMs: number; graceMs: number }): Promise<Running> {
  const host = await startAcquirerHost({ slowMs: SLOW_MS });
  try {
    // A data folder of its own: a fresh database prints its demo merchant.
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-shutdown-'));
    const gateway = await startGateway({
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`,
      ACQUIRER_HOST_TIMEOUT_MS: '20000',
      CONNECTOR_TIMEOUT_MS: '25000',
      SHUTDOWN_DRAIN_MS: String(shutdown.drainMs),
      SHUTDOWN_GRACE_MS: String(shutdown.graceMs),
    });
    const output = gateway.output();
    const merchant = { entityId: /entityId:\s+(\w+)/.exec(output)![1]!, accessToken: /accessToken:\s+(\S+)/.exec(output)![1]! };
    return {
      host,
      gateway,
      merchant,
      async stop() {
        await gateway.stop('SIGKILL');
        await host.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await host.close();
    throw error;
  }
}

const slowPaymentAtHost = (host: AcquirerHost, gateway: GatewayProcess) =>
  until('the slow payment at the acquirer host', async () => ((host.received.get('0200') ?? 0) >= 1 ? true : undefined), gateway.output);

describe('SIGTERM to a gateway with a request in flight', () => {
  let running: Running | undefined;
  let host: AcquirerHost;
  let gateway: GatewayProcess;
  let merchant: Merchant;
  before(async () => {
    running = await startWithSlowHost({ drainMs: DRAIN_MS, graceMs: 30_000 });
    ({ host, gateway, merchant } = running);
  });
  after(() => running?.stop());

  it('drains (503 while serving), stops accepting, answers the request in flight, and exits 0', { timeout: 120_000 }, async () => {
    // Ready once its job worker has beaten and its ISO 8583 links are signed on.
    const readyBody = await until('ready', async () => {
      const answer = await readiness(gateway);
      return answer.status === 200 ? answer.body : undefined;
    }, gateway.output);
    assert.deepEqual(readyBody, { status: 'ok', checks: { database: 'ok', migrations: 'ok', 'job-worker': 'ok', 'iso8583:acquirer-host': 'ok' } });

    let slowAnswered = false;
    const slow = pay(gateway, merchant, SLOW_AMOUNT).finally(() => (slowAnswered = true));
    await slowPaymentAtHost(host, gateway);
    const exited = once(gateway.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    gateway.child.kill('SIGTERM');

    const draining = await until('readiness 503', async () => {
      const answer = await readiness(gateway);
      return answer.status === 503 ? answer.body : undefined;
    }, gateway.output);
    assert.deepEqual(draining, { status: 'draining' });
    // Still served while draining: a payment of its own, start to end.
    const during = await pay(gateway, merchant, '12.00');
    assert.equal(during.body.result.code, '000.100.112', JSON.stringify(during.body));
    assert.equal(slowAnswered, false, 'the slow payment is still in flight');

    await until('the listener closed', async () => ((await refusesConnections(gateway)) ? true : undefined), gateway.output);
    assert.equal(slowAnswered, false, 'the listener closed before the request in flight was answered');

    const answered = await slow;
    assert.equal(answered.status, 200);
    assert.equal(answered.body.result.code, '000.100.112', JSON.stringify(answered.body));
    const [code, signal] = await exited;
    assert.equal(signal, null, gateway.output());
    assert.equal(code, 0, gateway.output());
    assert.match(gateway.output(), new RegExp(`"drainMs":${DRAIN_MS},"graceMs":30000,"signal":"SIGTERM","msg":"stopping"`));
    assert.match(gateway.output(), /"msg":"job worker stopped"/);
  });
});

describe('SIGTERM to a gateway whose request in flight outlasts SHUTDOWN_GRACE_MS', () => {
  let running: Running | undefined;
  let host: AcquirerHost;
  let gateway: GatewayProcess;
  let merchant: Merchant;
  before(async () => {
    running = await startWithSlowHost({ drainMs: 0, graceMs: 1_000 });
    ({ host, gateway, merchant } = running);
  });
  after(() => running?.stop());

  it('cuts the request\'s connection at the end of the grace and still exits 0, long before the host answers', { timeout: 120_000 }, async () => {
    const slow = pay(gateway, merchant, SLOW_AMOUNT).then(() => 'answered', () => 'connection cut');
    await slowPaymentAtHost(host, gateway);
    const exited = once(gateway.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const signalledAt = Date.now();
    gateway.child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, gateway.output());
    assert.ok(Date.now() - signalledAt < SLOW_MS, `exited ${Date.now() - signalledAt} ms after SIGTERM, before the host's answer (${SLOW_MS} ms)`);
    assert.equal(await slow, 'connection cut');
    assert.match(gateway.output(), /"graceMs":1000,"msg":"requests still in flight at the end of SHUTDOWN_GRACE_MS: closing their connections"/);
  });
});
