import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROUTE_DEFAULTS, threeDsRouteProblems, threeDsRouteSettings } from '../../../../src/connectors/emv3ds-server/route-settings.js';
import { checkThreeDsRouteCredentials } from '../../../../src/operations/routing/three-ds-route-input.js';
import { GatewayError } from '../../../../src/results/gateway-error.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHfake\n-----END PRIVATE KEY-----\n';

describe('a 3DS server route\'s credentials', () => {
  it('need dsUrl only; the rest falls back to the base settings', () => {
    const read = threeDsRouteSettings({ dsUrl: 'https://ds.example/areq', mcc: '5411' });
    assert.equal(read?.settings.areqUrl, 'https://ds.example/areq');
    assert.equal(read?.settings.acquirer.mcc, '5411');
    assert.equal(read?.settings.acquirer.bin, ROUTE_DEFAULTS.acquirer.bin);
    assert.equal(read?.settings.messageVersion, '2.2.0');
    assert.deepEqual(read?.tls, { cert: undefined, key: undefined, ca: undefined });
  });

  it('carry the client certificate, its key and the CA', () => {
    const read = threeDsRouteSettings({ dsUrl: 'https://ds.example/areq', clientCert: PEM, clientKey: KEY, caCert: PEM, messageVersion: '2.3.1' });
    assert.deepEqual(read?.tls, { cert: PEM, key: KEY, ca: PEM });
    assert.equal(read?.settings.messageVersion, '2.3.1');
  });

  it('never take the default\'s certificates (THREE_DS_SERVER_*_FILE): a route without them presents none', () => {
    const base = { ...ROUTE_DEFAULTS, tls: { cert: PEM, key: KEY, ca: PEM } };
    const read = threeDsRouteSettings({ dsUrl: 'https://ds.example/areq' }, base);
    assert.deepEqual(read?.tls, { cert: undefined, key: undefined, ca: undefined });
    assert.equal((read?.settings as { tls?: unknown }).tls, undefined, 'the route\'s connector builds no transport of the default\'s');
  });

  const refused: [string, Record<string, string>, string[]][] = [
    ['no dsUrl', {}, ['dsUrl']],
    ['an unknown credential', { dsUrl: 'https://ds.example', apiKey: 'x' }, ['apiKey']],
    ['a certificate without its key', { dsUrl: 'https://ds.example', clientCert: PEM }, ['clientKey']],
    ['a certificate over plain HTTP', { dsUrl: 'http://ds.example', caCert: PEM }, ['dsUrl']],
    ['not PEM', { dsUrl: 'https://ds.example', caCert: 'abc' }, ['caCert']],
    ['a bad version and MCC', { dsUrl: 'https://ds.example', messageVersion: '2.1.0', mcc: '12' }, ['messageVersion', 'mcc']],
  ];
  for (const [name, credentials, problems] of refused) {
    it(`refuses ${name}`, () => {
      assert.deepEqual(threeDsRouteProblems(credentials).map((p) => p.name).sort(), problems.sort());
      assert.equal(threeDsRouteSettings(credentials), undefined);
    });
  }

  it('the admin check lets PEM line breaks through, names every problem and shows no value', () => {
    assert.deepEqual(checkThreeDsRouteCredentials({ dsUrl: 'https://ds.example', clientCert: PEM, clientKey: KEY }), { dsUrl: 'https://ds.example', clientCert: PEM, clientKey: KEY });
    assert.throws(() => checkThreeDsRouteCredentials({ dsUrl: 'https://ds.example\n' }), GatewayError);
    try {
      checkThreeDsRouteCredentials({ dsUrl: 'http://ds.example', clientCert: KEY });
      assert.fail('accepted');
    } catch (error) {
      const text = JSON.stringify(error);
      assert.equal(text.includes('MIGH'), false);
    }
  });
});
