/**
 * Rolling restart behind HAProxy under load: three gateway processes (built dist/, on a PostgreSQL
 * schema of their own) behind HAProxy checking GET /health/ready, a steady load of payments,
 * refunds and GETs through HAProxy, and every process restarted one after the other (SIGTERM, wait
 * for its exit, start it again on its port, wait until HAProxy sends it traffic again). Not one
 * request may fail: each is answered with its normal answer, no reset, no 502/503.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import type { NodeProcess } from '../../bench/support/node-process.js';
import { createPayment, openStage, SUCCESS_CODE, testDatabaseUrl } from './support/fault-setup.js';
import { minimumDrainMs, startHaproxy, waitFor, type HealthCheckTiming, type RunningHaproxy } from './support/haproxy.js';
import { answered, startLoad, type SentRequest } from './support/payment-load.js';

const url = testDatabaseUrl();
const HAPROXY_PORT = 8490;
const HAPROXY_STATS_PORT = 8491;
const GATEWAYS = 3;
const WORKERS = 8;
const REFUND_PARENTS = 60;
// Short checks keep the test short; production values are in docs/deployment.md.
const TIMING: HealthCheckTiming = { intervalMs: 250, fall: 2, rise: 2, checkTimeoutMs: 1_000 };
// The rule under test (docs/deployment.md): the drain outlasts the balancer's way of noticing it.
const DRAIN_MS = minimumDrainMs(TIMING) + 500;
const GATEWAY_ENV = {
  SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
  SHUTDOWN_GRACE_MS: '20000',
  // Below HAProxy's `timeout check`, so that a slow check is a 503 it can read, not a timeout.
  HEALTH_CHECK_TIMEOUT_MS: '800',
  LOG_LEVEL: 'info',
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const startOn = (databaseUrl: string, port: number): Promise<NodeProcess> =>
  startGatewayProcess({ databaseUrl, poolSize: 5, env: { ...GATEWAY_ENV, PORT: String(port) } });

/** Up in HAProxy, and it has taken new sessions since: the balancer sends it traffic again. */
async function servingAgain(haproxy: RunningHaproxy, name: string): Promise<void> {
  await waitFor(async () => (await haproxy.serverStates()).get(name)?.status === 'UP', 30_000, haproxy.output);
  const sessionsWhenUp = (await haproxy.serverStates()).get(name)!.sessions;
  await waitFor(async () => (await haproxy.serverStates()).get(name)!.sessions > sessionsWhenUp + 5, 30_000, haproxy.output);
}

/** A request that did not get the answer it would have got from an untroubled gateway. */
function failed(request: SentRequest): boolean {
  return request.error !== undefined || request.status !== 200 || !SUCCESS_CODE.test(request.code ?? '');
}

describe('rolling restart behind HAProxy under load', { skip: url ? false : 'TEST_DATABASE_URL not set: the rolling restart needs PostgreSQL' }, () => {
  // About a minute on two idle cores; the bound leaves room for a machine busy with other work,
  // where each process's start takes much longer.
  it('restarts every gateway process one after the other and fails no request', { timeout: 240_000 }, async () => {
    const ports = await Promise.all(Array.from({ length: GATEWAYS }, freePort));
    const names = ports.map((_, index) => `gateway${index + 1}`);
    // The first process migrates the schema and the merchant is made; the others join it.
    const stage = await openStage(url!, 'fault_rolling', (schemaUrl) => schemaUrl, { ...GATEWAY_ENV, PORT: String(ports[0]) });
    const gateways: NodeProcess[] = [stage.gateway];
    let haproxy: RunningHaproxy | undefined;
    try {
      for (const port of ports.slice(1)) gateways.push(await startOn(stage.schema.url, port));
      haproxy = await startHaproxy({ port: HAPROXY_PORT, statsPort: HAPROXY_STATS_PORT, servers: names.map((name, index) => ({ name, port: ports[index]! })), timing: TIMING });
      for (const name of names) await waitFor(async () => (await haproxy!.serverStates()).get(name)?.status === 'UP', 30_000, haproxy.output);
      const parents = await Promise.all(Array.from({ length: REFUND_PARENTS }, () => createPayment(haproxy!.url, stage.merchant, '9999.00')));
      const load = startLoad({ url: haproxy.url, merchant: stage.merchant, workers: WORKERS, refundParents: parents, getShare: 0.2, clientTimeoutMs: 15_000 });
      try {
        for (const [index, name] of names.entries()) {
          await waitFor(async () => answered(load.sent).length > (index + 1) * 50, 30_000);
          const exitCode = await gateways[index]!.stop('SIGTERM', 30_000);
          assert.equal(exitCode, 0, gateways[index]!.output());
          assert.match(gateways[index]!.output(), new RegExp(`"drainMs":${DRAIN_MS},.*"signal":"SIGTERM","msg":"stopping"`));
          gateways[index] = await startOn(stage.schema.url, ports[index]!);
          await servingAgain(haproxy, name);
        }
      } finally {
        await load.stop();
      }
      const requests = load.sent;
      const failures = requests.filter(failed);
      const states = await haproxy.serverStates();
      console.log(JSON.stringify({
        requests: requests.length,
        byKind: Object.fromEntries(['DB', 'RF', 'GET'].map((kind) => [kind, requests.filter((r) => r.kind === kind).length])),
        failed: failures.length,
        sessionsPerGateway: Object.fromEntries([...states].map(([name, state]) => [name, state.sessions])),
        drainMs: DRAIN_MS,
        maxMs: Math.round(Math.max(...requests.map((r) => r.ms ?? 0))),
      }));
      assert.deepEqual(failures.slice(0, 10).map(({ kind, status, code, error }) => ({ kind, status, code, error })), []);
      assert.ok(requests.length >= GATEWAYS * 50, `only ${requests.length} requests were sent`);
      for (const kind of ['DB', 'RF', 'GET']) assert.ok(requests.some((r) => r.kind === kind), `no ${kind} in the load`);
    } finally {
      await haproxy?.stop();
      for (const gateway of gateways.slice(1)) await gateway.stop('SIGKILL');
      stage.gateway = gateways[0]!;
      await stage.close();
    }
  });
});
