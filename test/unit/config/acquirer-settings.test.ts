import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/load-config.js';

describe('ACQUIRER_HOST_* settings', () => {
  it('none: no acquirer host (testMode EXTERNAL stays on the stub)', () => {
    assert.equal(loadConfig({}).acquirer, undefined);
  });
  it('tcp:// and tls:// with their defaults', () => {
    assert.deepEqual(loadConfig({ ACQUIRER_HOST_URL: 'tcp://127.0.0.1:8583' }).acquirer, { host: '127.0.0.1', port: 8583, tls: false, caPem: undefined, responseTimeoutMs: 10_000, poolSize: 4, settlementSource: undefined });
    const tls = loadConfig({ ACQUIRER_HOST_URL: 'tls://acquirer.example:9000', ACQUIRER_HOST_POOL_SIZE: '8', ACQUIRER_HOST_TIMEOUT_MS: '5000', ACQUIRER_HOST_SETTLEMENT: 'http://h/settlement/{date}' }).acquirer!;
    assert.deepEqual([tls.host, tls.port, tls.tls, tls.poolSize, tls.responseTimeoutMs, tls.settlementSource], ['acquirer.example', 9000, true, 8, 5000, 'http://h/settlement/{date}']);
  });
  const rejected: [Record<string, string>, RegExp][] = [
    [{ ACQUIRER_HOST_URL: 'http://127.0.0.1:8583' }, /ACQUIRER_HOST_URL must be a URL starting with tcp:\/\/ or tls:\/\//],
    [{ ACQUIRER_HOST_URL: 'tcp://127.0.0.1' }, /must name a host and a port/],
    [{ ACQUIRER_HOST_URL: 'tcp://127.0.0.1:8583', ACQUIRER_HOST_TIMEOUT_MS: '30000' }, /ACQUIRER_HOST_TIMEOUT_MS must be shorter than CONNECTOR_TIMEOUT_MS/],
    [{ ACQUIRER_HOST_URL: 'tls://h:1', ACQUIRER_HOST_CA_FILE: '/nonexistent/ca.pem' }, /ACQUIRER_HOST_CA_FILE/],
    [{ ACQUIRER_HOST_POOL_SIZE: '0' }, /ACQUIRER_HOST_POOL_SIZE/],
  ];
  for (const [env, message] of rejected) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }
});
