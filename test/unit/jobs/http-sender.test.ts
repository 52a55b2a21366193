import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { httpNotificationSender } from '../../../src/jobs/http-sender.js';
import { RECEIVER_TARGETS } from '../../support/webhook-receiver.js';

describe('HTTP notification sender', () => {
  let server: Server;
  let base = '';
  const seen: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  // Answers from this process may take long on a busy machine; only the hang test needs a short limit.
  const sender = httpNotificationSender({ timeoutMs: 30_000, maxSocketsPerHost: 4, targets: RECEIVER_TARGETS });
  const impatient = httpNotificationSender({ timeoutMs: 200, maxSocketsPerHost: 4, targets: RECEIVER_TARGETS });

  before(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ path: request.url ?? '', headers: request.headers, body });
        if (request.url === '/hang') return;
        if (request.url === '/redirect') return void response.writeHead(302, { location: '/ok' }).end();
        response.writeHead(request.url === '/fail' ? 503 : 204).end('ignored body');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    sender.close();
    impatient.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (path: string, using = sender) => using.send({ url: `${base}${path}`, headers: { 'Content-Type': 'text/plain', 'X-Notification-Id': 'n1' }, body: 'ABCD' });

  it('posts the body with its headers and reports the status and latency', async () => {
    const outcome = await send('/ok');
    assert.deepEqual([outcome.httpStatus, outcome.error], [204, null]);
    assert.ok(outcome.latencyMs >= 0);
    const request = seen.find((s) => s.path === '/ok')!;
    assert.equal(request.body, 'ABCD');
    assert.equal(request.headers['x-notification-id'], 'n1');
    assert.equal(request.headers['content-length'], '4');
  });

  it('reports a non-2xx status as it is', async () => {
    assert.equal((await send('/fail')).httpStatus, 503);
  });

  it('does not follow redirects', async () => {
    assert.equal((await send('/redirect')).httpStatus, 302);
    assert.equal(seen.filter((s) => s.path === '/ok').length, 1);
  });

  it('gives up when the receiver does not answer in time', async () => {
    const outcome = await send('/hang', impatient);
    assert.equal(outcome.httpStatus, null);
    assert.match(outcome.error ?? '', /no answer within 200 ms/);
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await sender.send({ url: `http://127.0.0.1:${port}/x`, headers: {}, body: '' });
    assert.equal(outcome.httpStatus, null);
    assert.match(outcome.error ?? '', /ECONNREFUSED/);
  });
});
