/**
 * Mutual TLS of the gateway-wide default 3DS server (docs/three-d-secure.md, "Settings and the
 * rehearsal"): on the live system, THREE_DS_SERVER_DS_URL with THREE_DS_SERVER_CLIENT_CERT_FILE,
 * _CLIENT_KEY_FILE and _CA_FILE makes the connector present its client certificate to the
 * emulator's DS, which requires one of its CA (--client-ca). The right certificate authenticates
 * (frictionless Y) and the acquirer host authorises; without one, with one of another CA, or
 * trusting another CA than the DS's: no result, declined 100.390.112 for an entity that requires
 * 3-D Secure, on without 3-D Secure (no threeDSecure block) for one that authenticates only
 * enrolled cards; never a success of the authentication. One database per run, a gateway per
 * setting on it; certificates made at test time (test/support/mutual-tls.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startAcquirerHost, type AcquirerHost } from '../../emulators/acquirer-host/server.js';
import { startThreeDsHost, type ThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard } from '../../emulators/three-ds-host/table.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../src/connectors/default-connectors.js';
import type { Iso8583Connector } from '../../src/connectors/iso8583/connector.js';
import type { Storage } from '../../src/storage/port.js';
import type { Vault } from '../../src/domain/vault/index.js';
import { testDatabases } from '../support/databases.js';
import { makePki } from '../support/mutual-tls.js';
import { postPayment, SAMPLE_CARD, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { BROWSER, setThreeDSecureRequirement } from '../support/three-d-secure.js';
import { selfSignedLocalhost } from './acquirer-host/tls-fixture.js';

const https = { 'x-forwarded-proto': 'https' };
const admin = { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS, ...https };
const pki = makePki();
const acquirerTls = selfSignedLocalhost();
const FRICTIONLESS_Y = exampleCard(CARD_RANGES.find((r) => r.outcome === 'frictionless' && r.transStatus === 'Y')!);

for (const db of testDatabases()) {
  describe(`the live system's default 3DS server over mutual TLS (${db.name})`, { skip: pki && acquirerTls ? false : 'no openssl to make certificates' }, () => {
    let dir: string;
    let ds: ThreeDsHost;
    let acquirer: AcquirerHost;
    let storage: Storage;
    let t: TestApp | undefined;
    /** The first gateway's vault, kept for the next ones: the acquirer routes' credentials are sealed by it. */
    let vault: Vault | undefined;
    /** Requires 3-D Secure (always), and authenticates only enrolled cards (if-enrolled). */
    const merchants: { always?: Merchant; ifEnrolled?: Merchant } = {};
    const file = (name: string) => join(dir, name);

    /** A gateway of the given TLS files on the one database (the previous one closed). */
    async function gateway(tls: Record<string, string>): Promise<TestApp> {
      await stopGateway();
      t = await startTestApp(storage, {
        env: {
          GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', LOG_LEVEL: 'warn',
          ACQUIRER_HOST_URL: `tls://localhost:${acquirer.port}`, ACQUIRER_HOST_CA_FILE: file('acquirer-ca.pem'),
          THREE_DS_SERVER_DS_URL: `${ds.url}/ds/areq`, ...tls,
        },
        ...(vault ? { vault } : {}),
      });
      vault = t.vault;
      return t;
    }
    async function stopGateway(): Promise<void> {
      if (!t) return;
      (t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
      await t.close();
      t = undefined;
    }
    const pay = (app: TestApp, merchant: Merchant) => postPayment(app, merchant, { amount: '31.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...BROWSER, 'card.number': FRICTIONLESS_Y, shopperResultUrl: 'https://shop.example.com/result' }, https);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'three-ds-default-mtls-'));
      writeFileSync(file('acquirer-ca.pem'), acquirerTls!.cert);
      writeFileSync(file('client.pem'), pki!.client.cert);
      writeFileSync(file('client.key'), pki!.client.key);
      writeFileSync(file('other-client.pem'), pki!.otherClient.cert);
      writeFileSync(file('other-client.key'), pki!.otherClient.key);
      writeFileSync(file('ca.pem'), pki!.ca);
      writeFileSync(file('other-ca.pem'), pki!.otherCa);
      ds = await startThreeDsHost({ port: 0, tls: { cert: pki!.server.cert, key: pki!.server.key, clientCa: pki!.ca } });
      acquirer = await startAcquirerHost({ tls: acquirerTls!, settlementDir: dir });
      storage = await db.open();
      const first = await gateway({});
      for (const [key, requirement] of [['always', 'always'], ['ifEnrolled', 'if-enrolled']] as const) {
        const merchant = await first.createMerchant(`Default mTLS ${requirement}`);
        await setThreeDSecureRequirement(first.app, merchant.entityId, requirement, https);
        const route = await first.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM0001', 'credentials[merchantId]': 'REHEARSAL000001' }) });
        assert.equal(route.statusCode, 201, route.body);
        merchants[key] = merchant;
      }
    });
    after(async () => {
      await stopGateway();
      await storage?.close();
      await ds?.close();
      await acquirer?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the right client certificate: authenticated over mutual TLS (frictionless Y), authorised by the acquirer host', async () => {
      const app = await gateway({ THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key'), THREE_DS_SERVER_CA_FILE: file('ca.pem') });
      const body = json(await pay(app, merchants.always!));
      assert.equal(body.result.code, '000.000.000', JSON.stringify(body));
      assert.deepEqual([body.threeDSecure.authenticationStatus, body.threeDSecure.eci], ['Y', '05']);
      assert.equal(acquirer.ledger.charged(body.id), true);
      assert.ok(ds.log.entries().some((e) => e.dsTransID === body.threeDSecure.dsTransactionId), 'the DS logged the AReq');
      for (const secret of ['BEGIN', pki!.client.key.slice(40, 80)]) assert.equal(app.logs.text.includes(secret), false, 'no key material logged');
    });

    const refused: [string, () => Record<string, string>, string][] = [
      ['no client certificate (the DS\'s CA trusted)', () => ({ THREE_DS_SERVER_CA_FILE: file('ca.pem') }), 'http-403'],
      ['a client certificate of another CA', () => ({ THREE_DS_SERVER_CLIENT_CERT_FILE: file('other-client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('other-client.key'), THREE_DS_SERVER_CA_FILE: file('ca.pem') }), 'unreachable|http-403'],
      ['trusting another CA than the DS\'s', () => ({ THREE_DS_SERVER_CLIENT_CERT_FILE: file('client.pem'), THREE_DS_SERVER_CLIENT_KEY_FILE: file('client.key'), THREE_DS_SERVER_CA_FILE: file('other-ca.pem') }), 'unreachable'],
    ];
    for (const [name, env, reason] of refused) {
      it(`${name}: no result; declined 100.390.112 where required, on without 3-D Secure where not`, async () => {
        const app = await gateway(env());
        const before = ds.log.entries().length;
        const required = json(await pay(app, merchants.always!));
        assert.equal(required.result.code, '100.390.112', JSON.stringify(required));
        assert.equal(required.threeDSecure, undefined);
        assert.equal(acquirer.ledger.charged(required.id), false);
        assert.ok(app.logs.lines.some((line) => new RegExp(`"reason":"(${reason})"`).test(line)), app.logs.text);
        const optional = json(await pay(app, merchants.ifEnrolled!));
        assert.equal(optional.result.code, '000.000.000', JSON.stringify(optional));
        assert.equal(optional.threeDSecure, undefined, 'no authentication data: no liability shift');
        assert.equal(ds.log.entries().length, before, 'the DS never took an AReq');
      });
    }
  });
}
