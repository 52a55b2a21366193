import assert from 'node:assert/strict';
import dc from 'node:diagnostics_channel';
import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { WebhookTargetRules } from '../../../src/domain/webhook-url.js';
import { httpNotificationSender } from '../../../src/jobs/http-sender.js';
import type { ResolveHost } from '../../../src/jobs/checked-target.js';

/**
 * The real sender checks the address it connects to at every attempt. Every address used here is
 * on 127.0.0.0/8: a "public" address is played by 127.0.0.2 on the allow-list, so a sender that
 * wrongly connected would still not leave this machine. Sockets are counted on the
 * 'net.client.socket' diagnostics channel: a refused target must not even open one.
 */
describe('the HTTP sender refuses forbidden addresses before connecting', () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  let sockets = 0;
  const countSocket = () => (sockets += 1);
  const noAllowList: WebhookTargetRules = { httpsOnly: false, allowedAddresses: [] };

  before(async () => {
    server = createServer((request, response) => {
      requests += 1;
      request.resume();
      request.on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    dc.subscribe('net.client.socket', countSocket);
  });
  after(async () => {
    dc.unsubscribe('net.client.socket', countSocket);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends once with a fresh sender; answers the outcome and the sockets and requests it caused. */
  async function sendOnce(url: string, targets: WebhookTargetRules, resolve?: ResolveHost) {
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 1, targets, resolve });
    const before = { sockets, requests };
    try {
      const outcome = await sender.send({ url, headers: { 'Content-Type': 'application/json' }, body: '{}' });
      return { outcome, sockets: sockets - before.sockets, requests: requests - before.requests };
    } finally {
      sender.close();
    }
  }

  const answering = (...addresses: string[]): ResolveHost & { calls: string[] } => {
    const calls: string[] = [];
    const resolve = async (hostname: string): Promise<LookupAddress[]> => {
      calls.push(hostname);
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    return Object.assign(resolve, { calls });
  };

  it('delivers to 127.0.0.1 when the operator allows it (the check does not block what it should not)', async () => {
    const sent = await sendOnce(`http://127.0.0.1:${port}/ok`, { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] });
    assert.deepEqual([sent.outcome.httpStatus, sent.outcome.refused, sent.requests, sent.sockets], [204, undefined, 1, 1]);
  });

  const refusedLiterals: [url: string, reason: RegExp][] = [
    ['http://127.0.0.1:{port}/', /127\.0\.0\.1 is a loopback address/],
    ['http://[::1]:{port}/', /\[::1\] is a loopback address/],
    ['http://2130706433:{port}/', /127\.0\.0\.1 is a loopback address/],
    ['http://0x7f000001:{port}/', /127\.0\.0\.1 is a loopback address/],
    ['http://10.0.0.1:{port}/', /10\.0\.0\.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
    ['http://user:pass@127.0.0.1:{port}/', /user name or password/],
  ];
  for (const [template, reason] of refusedLiterals) {
    it(`refuses ${template} without opening a socket`, async () => {
      const url = template.replace('{port}', String(port));
      const sent = await sendOnce(url, noAllowList);
      assert.equal(sent.outcome.refused, true);
      assert.equal(sent.outcome.httpStatus, null);
      assert.match(sent.outcome.error ?? '', /^refused: /);
      assert.match(sent.outcome.error ?? '', reason);
      assert.deepEqual([sent.sockets, sent.requests], [0, 0]);
    });
  }

  it('refuses http on the live system without opening a socket', async () => {
    const sent = await sendOnce(`http://127.0.0.1:${port}/`, { httpsOnly: true, allowedAddresses: ['127.0.0.1/32'] });
    assert.equal(sent.outcome.refused, true);
    assert.match(sent.outcome.error ?? '', /https URL on the live system/);
    assert.equal(sent.sockets, 0);
  });

  it('refuses http://localhost: the name resolves to a loopback address (system resolver)', async () => {
    const sent = await sendOnce(`http://localhost:${port}/`, noAllowList);
    assert.equal(sent.outcome.refused, true);
    assert.match(sent.outcome.error ?? '', /^refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback address/);
    assert.deepEqual([sent.sockets, sent.requests], [0, 0]);
  });

  it('refuses a name resolving to a private address, checked before any connection', async () => {
    const resolve = answering('10.1.2.3');
    const sent = await sendOnce(`http://intranet.test:${port}/`, noAllowList, resolve);
    assert.equal(sent.outcome.refused, true);
    assert.match(sent.outcome.error ?? '', /intranet\.test resolves to 10\.1\.2\.3 is a private address/);
    assert.deepEqual([resolve.calls, sent.sockets], [['intranet.test'], 0]);
  });

  it('refuses the whole answer when one of its addresses is forbidden (a "public" one first, loopback second)', async () => {
    const resolve = answering('127.0.0.2', '127.0.0.1');
    const sent = await sendOnce(`http://mixed.test:${port}/`, { httpsOnly: false, allowedAddresses: ['127.0.0.2/32'] }, resolve);
    assert.equal(sent.outcome.refused, true);
    assert.match(sent.outcome.error ?? '', /mixed\.test resolves to 127\.0\.0\.1 is a loopback address/);
    assert.deepEqual([sent.sockets, sent.requests], [0, 0]);
  });

  it('connects to the address it checked: a DNS answer that changes after the check is never asked for', async () => {
    // A rebinding name: allowed at the first lookup, loopback from then on.
    const calls: string[] = [];
    const rebinding: ResolveHost = async (hostname) => {
      calls.push(hostname);
      return [{ address: calls.length === 1 ? '127.0.0.1' : '127.0.0.3', family: 4 }];
    };
    const sent = await sendOnce(`http://rebind.test:${port}/`, { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] }, rebinding);
    assert.deepEqual([sent.outcome.httpStatus, sent.requests, calls.length], [204, 1, 1]);
    // The next attempt resolves again, gets the forbidden address, and is refused.
    const again = await sendOnce(`http://rebind.test:${port}/`, { httpsOnly: false, allowedAddresses: ['127.0.0.1/32'] }, rebinding);
    assert.equal(again.outcome.refused, true);
    assert.deepEqual([again.sockets, again.requests], [0, 0]);
  });

  it('a name that does not resolve is an ordinary failure, retried later', async () => {
    const failing: ResolveHost = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
    };
    const sent = await sendOnce('http://nowhere.test/', noAllowList, failing);
    assert.equal(sent.outcome.refused, undefined);
    assert.match(sent.outcome.error ?? '', /ENOTFOUND/);
  });
});
