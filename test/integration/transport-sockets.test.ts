/**
 * What only a real socket can send: malformed URLs, absurd chunk sizes, clients that are too
 * slow. Each gets the envelope where an answer is possible, and is closed within the configured
 * bounds. Pure transport: one database is enough.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { drip, openRaw, rawRequest, type RawAnswer } from '../support/raw-socket.js';
import { ENVELOPE_TIMESTAMP, startTestApp, type TestApp } from '../support/test-app.js';

const TIMEOUTS = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', HANDLER_TIMEOUT_MS: '3000', DATABASE_FAILOVER_WAIT_MS: '1000', CONNECTION_TIMEOUT_MS: '4000', CONNECTOR_TIMEOUT_MS: '2500' };
/** Far above every bound: a busy machine is slow, but a server that never closes is caught. */
const WAIT_MS = 20_000;
const PAN = '4200000000000000';
/** Well-formed, so the request passes the header check and the server waits for its body. */
const AUTH = `Authorization: Bearer ${'x'.repeat(43)}\r\n`;

function assertEnvelope(answer: RawAnswer, status: number, code: string): Record<string, any> {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, any>;
  assert.equal(body.result.code, code);
  assert.ok(body.result.description.length > 0);
  assert.match(body.timestamp, ENVELOPE_TIMESTAMP);
  assert.match(body.buildNumber, /^[0-9a-f]{40}@/);
  assert.match(body.ndc, /^[0-9a-f]{32}$/);
  assert.equal(answer.headers['x-content-type-options'], 'nosniff');
  assert.equal(answer.headers['cache-control'], 'no-store');
  return body;
}

function assertNothingReflected(t: TestApp, answer: RawAnswer): void {
  for (const secret of [PAN, 'card.number', 'card.cvv', 'cvv=']) {
    assert.ok(!answer.text.includes(secret), `the answer does not reflect ${secret}: ${answer.text}`);
    assert.ok(!t.logs.text.includes(secret), `no log line reflects ${secret}`);
  }
}

describe('transport over real sockets', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open(), { env: { ...TIMEOUTS, LOG_LEVEL: 'trace' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  const malformed = [
    { name: 'bad percent-encoding in the path', request: `GET /v1/payments/%zz?card.number=${PAN}&card.cvv=123 HTTP/1.1\r\nHost: x\r\n\r\n`, status: 400 },
    { name: 'bad percent-encoding in the query', request: `GET /v1/resultcodes?card.number=${PAN}&card.cvv=%zz HTTP/1.1\r\nHost: x\r\n\r\n`, status: 200 },
    { name: 'unknown path with a query', request: `GET /v1/nothing/${PAN}?card.number=${PAN}&card.cvv=123 HTTP/1.1\r\nHost: x\r\n\r\n`, status: 404 },
    { name: 'a path segment over 100 characters', request: `GET /v1/payments/${'a'.repeat(150)}?card.number=${PAN} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 414 },
    { name: 'a URL over the header limit', request: `GET /v1/payments?card.number=${PAN}&pad=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 431 },
    { name: 'a NUL in the request line', request: `GET /v1/\0payments?card.number=${PAN} HTTP/1.1\r\nHost: x\r\n\r\n`, status: 400 },
    { name: 'a chunk size of 2^64', request: 'POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\nx\r\n', status: 400 },
    { name: 'both Content-Length and chunked', request: 'POST /v1/payments HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', status: 400 },
  ];
  for (const row of malformed) {
    it(`${row.name} → ${row.status} with the envelope, nothing reflected`, async () => {
      const answer = await rawRequest(port, row.request, WAIT_MS);
      const body = JSON.parse(answer.body || '{}') as Record<string, any>;
      if (row.status === 200) assert.equal(answer.status, 200, answer.text);
      else assertEnvelope(answer, row.status, row.status === 404 ? '200.300.404' : '200.100.103');
      assert.ok(body.result, 'an envelope');
      assertNothingReflected(t, answer);
    });
  }

  it('a chunk size of 2^64 - 1 with no data behind it is answered 408 within the request timeout', async () => {
    const answer = await rawRequest(port, `POST /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\nabc`, WAIT_MS);
    assert.ok(answer.closedByServer, 'the server closed the connection');
    assertEnvelope(answer, 408, '200.100.103');
  });

  it('a body that never ends is answered 408 and closed', async () => {
    const answer = await rawRequest(port, `POST /v1/payments HTTP/1.1\r\nHost: x\r\n${AUTH}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\namount=1`, WAIT_MS);
    assert.ok(answer.closedByServer, 'the server closed the connection');
    const body = assertEnvelope(answer, 408, '200.100.103');
    assert.deepEqual(body.result.parameterErrors.map((e: { name: string }) => e.name), ['request']);
  });

  it('headers sent a byte at a time (slowloris) are answered 408 and closed', async () => {
    const client = await openRaw(port, WAIT_MS);
    drip(client, `GET /v1/resultcodes HTTP/1.1\r\nHost: x\r\nX-Slow: ${'s'.repeat(1000)}\r\n\r\n`, 100);
    const answer = await client.answer;
    assert.ok(answer.closedByServer, 'the server closed the connection');
    assertEnvelope(answer, 408, '200.100.103');
  });

  it('a connection that never sends a byte is closed', async () => {
    const client = await openRaw(port, WAIT_MS);
    const answer = await client.answer;
    assert.ok(answer.closedByServer, 'the server closed the connection');
  });

  it('a client that answers nothing after a complete request is still answered', async () => {
    const answer = await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n', WAIT_MS);
    assert.equal(answer.status, 200, answer.text);
  });

  it('none of it was logged as an error of ours', () => {
    const errors = t.logs.lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
    assert.deepEqual(errors, []);
  });
});

describe('the handler timeout over real sockets', () => {
  const env = { HEADERS_TIMEOUT_MS: '100', REQUEST_TIMEOUT_MS: '200', HANDLER_TIMEOUT_MS: '400', DATABASE_FAILOVER_WAIT_MS: '100', CONNECTION_TIMEOUT_MS: '5000', CONNECTOR_TIMEOUT_MS: '250' };
  let t: TestApp;
  let port: number;
  let handlerDone!: Promise<void>;
  before(async () => {
    let finished!: () => void;
    handlerDone = new Promise<void>((resolve) => (finished = resolve));
    t = await startTestApp(await testDatabases()[0]!.open(), {
      env,
      extraRoutes: (app) => {
        app.post('/v1/slow-form', async () => {
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          finished();
          return { late: true };
        });
        app.post('/v1/quick-form', async () => ({ quick: true }));
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });
  const post = (path: string) => fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: 'amount=1.00', headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  // Fastify's own handlerTimeout let such a request run on: its timer ended when the body had
  // been read (plugins/handler-timeout.ts).
  it('a handler slower than HANDLER_TIMEOUT_MS on a request with a body answers 504 900.100.300', async () => {
    const response = await post('/v1/slow-form');
    assert.equal(response.status, 504);
    const body = (await response.json()) as Record<string, any>;
    assert.equal(body.result.code, '900.100.300');
    assert.match(body.timestamp, ENVELOPE_TIMESTAMP);
    await handlerDone;
    await new Promise((resolve) => setImmediate(resolve));
    const errors = t.logs.lines.map((line) => JSON.parse(line) as { level: number }).filter((line) => line.level >= 50);
    assert.deepEqual(errors, [], 'the late answer is dropped quietly');
  });

  it('a quick one is answered as usual, and the connection serves the next request after the bound', async () => {
    assert.equal((await post('/v1/quick-form')).status, 200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const response = await post('/v1/quick-form');
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { quick: true });
  });
});
