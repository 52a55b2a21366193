import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { collectHttpTimeouts, type HttpTimeouts } from '../../src/config/http-timeouts.js';
import { loadConfig } from '../../src/config/load-config.js';
import { connectionsCheckingIntervalMs } from '../../src/http/transport-options.js';

describe('HTTP timeouts', () => {
  it('bound every phase by default', () => {
    assert.deepEqual({ ...loadConfig({}).httpTimeouts }, {
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      handlerTimeoutMs: 60_000,
      connectionTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
    });
  });

  const rejected: [Record<string, string>, RegExp][] = [
    [{ REQUEST_TIMEOUT_MS: '0' }, /REQUEST_TIMEOUT_MS/],
    [{ HEADERS_TIMEOUT_MS: 'soon' }, /HEADERS_TIMEOUT_MS/],
    [{ KEEP_ALIVE_TIMEOUT_MS: '99' }, /KEEP_ALIVE_TIMEOUT_MS/],
    [{ HEADERS_TIMEOUT_MS: '40000' }, /HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS/],
    [{ HANDLER_TIMEOUT_MS: '30000' }, /HANDLER_TIMEOUT_MS must be longer than REQUEST_TIMEOUT_MS/],
    [{ CONNECTION_TIMEOUT_MS: '60000' }, /CONNECTION_TIMEOUT_MS must be longer than HANDLER_TIMEOUT_MS/],
  ];
  for (const [env, message] of rejected) {
    it(`rejects ${JSON.stringify(env)}`, () => {
      const problems: string[] = [];
      collectHttpTimeouts(env, problems);
      assert.ok(problems.some((problem) => message.test(problem)), problems.join('; '));
    });
  }

  const intervals: [Partial<HttpTimeouts>, number][] = [
    [{ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 }, 1_000],
    [{ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000 }, 250],
    [{ headersTimeoutMs: 100, requestTimeoutMs: 100 }, 25],
  ];
  for (const [timeouts, expected] of intervals) {
    it(`checks for expired requests every ${expected} ms with ${JSON.stringify(timeouts)}`, () => {
      assert.equal(connectionsCheckingIntervalMs(timeouts as HttpTimeouts), expected);
    });
  }
});
