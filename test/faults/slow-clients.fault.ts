/**
 * A thousand slow clients against a real gateway process (embedded PGlite): connections that
 * never send a byte, headers a byte at a time (slowloris), bodies that never end, a chunk of
 * 2^64 - 1 bytes. While they hold their sockets a normal client must still be answered, and the
 * server must close every one of them itself, within the configured bounds (short ones here,
 * set through the environment). Outcomes are asserted, not durations: the wait is far longer
 * than the bounds, so a busy machine passes and a server that never closes fails.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { drip, openRaw, type RawAnswer, type RawClient } from '../support/raw-socket.js';

const SLOW_CLIENTS = 1_000;
const TIMEOUTS = { HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '4000', HANDLER_TIMEOUT_MS: '8000', DATABASE_FAILOVER_WAIT_MS: '2000', CONNECTION_TIMEOUT_MS: '10000', CONNECTOR_TIMEOUT_MS: '5000' };
/** Ten times the request timeout: only a server that does not close them runs into it. */
const WAIT_MS = 40_000;
const AUTH = `Authorization: Bearer ${'x'.repeat(43)}\r\n`;
const FORM = 'Content-Type: application/x-www-form-urlencoded\r\n';

/** Each kind starts a request it never finishes. */
const SLOW_KINDS: Record<string, (client: RawClient) => void> = {
  silent: () => undefined,
  slowloris: (client) => drip(client, `GET /v1/resultcodes HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(2000)}\r\n\r\n`, 500),
  endlessBody: (client) => client.socket.write(`POST /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}${FORM}Content-Length: 100000\r\n\r\namount=1`),
  hugeChunk: (client) => client.socket.write(`POST /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}${FORM}Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\nabc`),
};

async function openSlowClients(port: number): Promise<{ kind: string; answer: Promise<RawAnswer> }[]> {
  const kinds = Object.keys(SLOW_KINDS);
  const clients: { kind: string; answer: Promise<RawAnswer> }[] = [];
  // In batches, so the listen backlog never overflows.
  for (let batch = 0; batch < SLOW_CLIENTS; batch += 100) {
    const opened = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const kind = kinds[(batch + i) % kinds.length]!;
      const client = await openRaw(port, WAIT_MS);
      SLOW_KINDS[kind]!(client);
      return { kind, answer: client.answer };
    }));
    clients.push(...opened);
  }
  return clients;
}

describe('a thousand slow clients against a real gateway process', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'gateway-slow-'));
    gateway = await startGateway({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', THROTTLE_MAX_REQUESTS: '10000000', ...TIMEOUTS });
  });
  after(async () => {
    await gateway?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`${SLOW_CLIENTS} slow connections: a normal client is still answered, the server closes every one`, { timeout: 120_000 }, async () => {
    const port = Number(new URL(gateway.url).port);
    const clients = await openSlowClients(port);

    // While all of them hold a socket.
    for (let i = 0; i < 20; i += 1) {
      const response = await fetch(`${gateway.url}/v1/resultcodes`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { result: { code: string } }).result.code, '000.000.100');
    }

    const answers = await Promise.all(clients.map(async ({ kind, answer }) => ({ kind, ...(await answer) })));
    const leftOpen = answers.filter((a) => !a.closedByServer);
    assert.equal(leftOpen.length, 0, `${leftOpen.length} connections were still open after ${WAIT_MS} ms: ${[...new Set(leftOpen.map((a) => a.kind))].join(', ')}`);
    // Those that sent anything get an answer before the close: 408 with the envelope.
    const answered = answers.filter((a) => a.kind !== 'silent');
    const wrong = answered.filter((a) => a.status !== 408 || JSON.parse(a.body).result?.code !== '200.100.103');
    assert.deepEqual(wrong.slice(0, 3).map((a) => ({ kind: a.kind, status: a.status, body: a.body })), []);

    assert.ok(gateway.child.exitCode === null, 'the gateway is still running');
    assert.equal((await fetch(`${gateway.url}/health`)).status, 200);
  });
});
