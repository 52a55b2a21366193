import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config/load-config.js';
import { makePki } from '../../support/mutual-tls.js';

const pki = makePki();

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

describe('THREE_DS_SERVER_CLIENT_CERT_FILE, _CLIENT_KEY_FILE, _CA_FILE: mutual TLS of the default', { skip: pki ? false : 'no openssl to make certificates' }, () => {
  let dir: string;
  const file = (name: string) => join(dir, name);
  const https = { THREE_DS_SERVER_DS_URL: 'https://ds.example/ds/areq' };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'three-ds-tls-config-'));
    writeFileSync(file('client.pem'), pki!.client.cert);
    writeFileSync(file('client.key'), pki!.client.key);
    writeFileSync(file('other.key'), pki!.otherClient.key);
    writeFileSync(file('ca.pem'), pki!.ca);
    writeFileSync(file('not-pem.txt'), 'hello');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('certificate, key and CA: read once, for the connector\'s mutual TLS', () => {
    const settings = loadConfig({ ...https, THREE_DS_SERVER_PREQ_URL: 'https://ds.example/ds/preq', THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key'), THREE_DS_SERVER_CA_FILE: file('ca.pem') }).threeDsServer!;
    assert.deepEqual(settings.tls, { cert: pki!.client.cert, key: pki!.client.key, ca: pki!.ca });
  });
  it('a CA alone: the directory\'s certificate checked against it, no client certificate', () => {
    assert.deepEqual(loadConfig({ ...https, THREE_DS_SERVER_CA_FILE: file('ca.pem') }).threeDsServer!.tls, { cert: undefined, key: undefined, ca: pki!.ca });
  });
  it('none of them: no tls', () => {
    assert.equal(loadConfig(https).threeDsServer!.tls, undefined);
  });

  const rejected: [string, () => Record<string, string>, RegExp][] = [
    ['a certificate without its key', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem') }), /^THREE_DS_SERVER_CLIENT_CERT_FILE and THREE_DS_SERVER_CLIENT_KEY_FILE must be set together$/],
    ['a key without its certificate', () => ({ ...https, THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key') }), /^THREE_DS_SERVER_CLIENT_CERT_FILE and THREE_DS_SERVER_CLIENT_KEY_FILE must be set together$/],
    ['a missing certificate file', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('missing.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key') }), /^THREE_DS_SERVER_CLIENT_CERT_FILE=".*missing\.pem" cannot be read$/],
    ['a folder as the key file', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: dir }), /^THREE_DS_SERVER_CLIENT_KEY_FILE=".*" cannot be read$/],
    ['a missing CA file', () => ({ ...https, THREE_DS_SERVER_CA_FILE: file('missing-ca.pem') }), /^THREE_DS_SERVER_CA_FILE=".*missing-ca\.pem" cannot be read$/],
    ['a key of another certificate', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('other.key') }), /^THREE_DS_SERVER_CLIENT_KEY_FILE does not match the certificate of THREE_DS_SERVER_CLIENT_CERT_FILE$/],
    ['a certificate file that holds no certificate', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('not-pem.txt'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key') }), /^THREE_DS_SERVER_CLIENT_CERT_FILE holds no PEM certificate$/],
    ['a key file that holds no key', () => ({ ...https, THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('not-pem.txt') }), /^THREE_DS_SERVER_CLIENT_KEY_FILE holds no PEM private key/],
    ['a CA file that holds a key', () => ({ ...https, THREE_DS_SERVER_CA_FILE: file('client.key') }), /^THREE_DS_SERVER_CA_FILE holds no PEM certificate$/],
    ['a certificate for a plain-HTTP directory', () => ({ THREE_DS_SERVER_DS_URL: 'http://ds.example/ds/areq', THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key') }), /^THREE_DS_SERVER_DS_URL must be https with a certificate or CA file$/],
    ['a plain-HTTP PReq endpoint beside a certificate', () => ({ ...https, THREE_DS_SERVER_PREQ_URL: 'http://ds.example/ds/preq', THREE_DS_SERVER_CA_FILE: file('ca.pem') }), /^THREE_DS_SERVER_PREQ_URL must be https with a certificate or CA file$/],
    ['certificates without a directory', () => ({ THREE_DS_SERVER_CA_FILE: file('ca.pem') }), /^THREE_DS_SERVER_CLIENT_CERT_FILE, THREE_DS_SERVER_CLIENT_KEY_FILE and THREE_DS_SERVER_CA_FILE need THREE_DS_SERVER_DS_URL$/],
  ];
  for (const [name, env, line] of rejected) {
    it(`refuses ${name}: one line, nothing of the files`, () => {
      assert.throws(() => loadConfig(env()), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 1, error.message);
        assert.match(error.problems[0]!, line);
        for (const secret of ['BEGIN', pki!.client.key.slice(40, 80), pki!.otherClient.key.slice(40, 80)]) assert.equal(error.message.includes(secret), false);
        return true;
      });
    });
  }
});

describe('THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES', () => {
  const cases: [Record<string, string>, number | RegExp][] = [
    [{}, 15 * 60_000],
    // Read without THREE_DS_SERVER_DS_URL too: a route's challenge ends by it.
    [{ THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: '12' }, 12 * 60_000],
    [{ THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: '0.05' }, 3_000],
    [{ THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: '0' }, /THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES="0" must be a number of minutes from 0.01 to 10080/],
    [{ THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: 'ten' }, /THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES/],
    [{ THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES: '20000' }, /THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES/],
  ];
  for (const [env, expected] of cases) {
    it(`${JSON.stringify(env)} → ${String(expected)}`, () => {
      if (typeof expected === 'number') assert.equal(loadConfig(env).threeDsChallengeTimeoutMs, expected);
      else assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && expected.test(error.message));
    });
  }
});
