import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/load-config.js';

describe('THREE_DS_SERVER_* settings', () => {
  it('none: no 3DS server connector (the test system simulates, the live system has none)', () => {
    assert.equal(loadConfig({}).threeDsServer, undefined);
  });
  it('a DS URL with the defaults', () => {
    assert.deepEqual(loadConfig({ THREE_DS_SERVER_DS_URL: 'http://127.0.0.1:8590/ds/areq' }).threeDsServer, {
      areqUrl: 'http://127.0.0.1:8590/ds/areq', timeoutMs: 10_000, messageVersion: '2.2.0', cardRangesRefreshMinutes: 60, serverReferenceNumber: 'GATEWAY-3DS-SERVER',
      requestor: { id: 'gateway-requestor', name: 'Payment Gateway', url: 'https://gateway.example' },
      acquirer: { bin: '400000', merchantId: 'GATEWAY-MERCHANT', mcc: '5999', countryCode: '276' },
    });
  });
  it('the card ranges: a PReq URL and a refresh interval', () => {
    const settings = loadConfig({ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_SERVER_PREQ_URL: 'http://h/ds/preq', THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES: '15' }).threeDsServer!;
    assert.deepEqual([settings.preqUrl, settings.cardRangesRefreshMinutes], ['http://h/ds/preq', 15]);
  });
  it('the 3DS Method\'s timeout: 10 s by default, read without a DS URL too (3DS server routes run the method)', () => {
    assert.equal(loadConfig({}).threeDsMethodTimeoutMs, 10_000);
    assert.equal(loadConfig({ THREE_DS_SERVER_METHOD_TIMEOUT_MS: '250' }).threeDsMethodTimeoutMs, 250);
  });
  const rejected: [Record<string, string>, RegExp][] = [
    [{ THREE_DS_SERVER_METHOD_TIMEOUT_MS: '50' }, /THREE_DS_SERVER_METHOD_TIMEOUT_MS/],
    [{ THREE_DS_SERVER_METHOD_TIMEOUT_MS: '60000' }, /THREE_DS_SERVER_METHOD_TIMEOUT_MS/],
    [{ THREE_DS_SERVER_DS_URL: 'tcp://127.0.0.1:8590' }, /THREE_DS_SERVER_DS_URL must be a URL starting with http:\/\/ or https:\/\//],
    [{ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_SERVER_MESSAGE_VERSION: '2.1.0' }, /THREE_DS_SERVER_MESSAGE_VERSION/],
    [{ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_MCC: '59' }, /THREE_DS_MCC/],
    [{ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_SERVER_PREQ_URL: 'ftp://h/preq' }, /THREE_DS_SERVER_PREQ_URL/],
    [{ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES: '0' }, /THREE_DS_SERVER_CARD_RANGES_REFRESH_MINUTES/],
    [{ THREE_DS_SERVER_DS_URL: 'http://h/ds/areq', THREE_DS_SERVER_TIMEOUT_MS: '40000' }, /THREE_DS_SERVER_TIMEOUT_MS plus CONNECTOR_TIMEOUT_MS must be shorter than HANDLER_TIMEOUT_MS/],
  ];
  for (const [env, message] of rejected) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message));
    });
  }
});
