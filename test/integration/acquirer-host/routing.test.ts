import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Iso8583Connector } from '../../../src/connectors/iso8583/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID, createDefaultConnectors } from '../../../src/connectors/default-connectors.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { randomIds } from '../../../src/domain/ids.js';
import { startAcquirerHost, type AcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

for (const database of testDatabases()) {
  describe(`routes to the ISO 8583 connector on ${database.name}: credentials, fallback on technical failure only`, () => {
    let host: AcquirerHost;
    let t: TestApp;
    let merchant: Merchant;
    let primary: string;
    let fallback: string;
    before(async () => {
      host = await startAcquirerHost({ slowMs: 15_000 });
      t = await startTestApp(await database.open(), { env: { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`, ACQUIRER_HOST_TIMEOUT_MS: '4000' } });
      merchant = await t.createMerchant();
      const add = async (fields: Record<string, string>) => {
        const response = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ system: 'test', ...fields }) });
        assert.equal(response.statusCode, 201, response.body);
        return response.json().routeId as string;
      };
      // The fallback: the simulator, for every entity; the merchant's own route: the acquirer host with its terminal.
      fallback = await add({ connector: 'simulator', currency: 'USD' });
      primary = await add({ connector: ACQUIRER_HOST_CONNECTOR_ID, entity: merchant.entityId, 'credentials[terminalId]': 'TERM7777', 'credentials[merchantId]': 'MERCHANT7777777', fallback });
    });
    after(async () => {
      (t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
      await t.close();
      await t.storage.close();
      await host.close();
    });

    const pay = async (amount: string, extra: Record<string, string> = {}) => (await cardPayment(t, merchant, 'DB', amount, { testMode: 'EXTERNAL', ...extra })).json() as Record<string, any>;
    const routeOf = async (id: string) => (await t.storage.query<{ route_id: string; connector_id: string }>('SELECT route_id, connector_id FROM transactions WHERE id = $1', [id])).rows[0]!;

    it('the route\'s sealed credentials become the terminal and merchant ids of the message', async () => {
      const paid = await pay('10.00');
      assert.equal(paid.result.code, '000.100.112');
      assert.deepEqual(await routeOf(paid.id), { route_id: primary, connector_id: ACQUIRER_HOST_CONNECTOR_ID });
      const dump = JSON.stringify((await t.storage.query('SELECT * FROM connector_routes')).rows);
      assert.ok(!dump.includes('TERM7777'), 'credentials are sealed at rest');
      assert.ok(host.ledger.get(paid.id), 'the host booked it');
    });

    it('a technical refusal (91) falls back to the operator\'s fallback route, and the row says so', async () => {
      const paid = await pay('666.04');
      assert.equal(paid.result.code, '000.100.110', 'answered by the fallback (the simulator)');
      assert.deepEqual(await routeOf(paid.id), { route_id: fallback, connector_id: 'simulator' });
    });

    it('an issuer\'s decline does not fall back', async () => {
      const declined = await pay('10.00', { 'card.number': '4000000000000002' });
      assert.equal(declined.result.code, '800.100.152');
      assert.equal((await routeOf(declined.id)).route_id, primary);
    });

    it('no answer (the acquirer may have approved) never falls back: pending on the first route', async () => {
      const pending = await pay('666.01');
      assert.equal(pending.result.code, '000.200.000');
      assert.equal((await routeOf(pending.id)).route_id, primary);
    });

    it('a fallback must be an enabled route of the same system', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ system: 'test', connector: 'simulator', currency: 'GBP', fallback: 'f'.repeat(32) }) });
      assert.equal(response.statusCode, 400);
      assert.match(response.body, /"name":"fallback"/);
    });
  });

  describe(`a connector's payment types on ${database.name}`, () => {
    it('a payment type the connector\'s acquirer does not take is refused before anything is written', async () => {
      const host = await startAcquirerHost();
      const storage = await database.open();
      const acquirer = loadConfig({ ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}` }).acquirer;
      // An acquirer without credits: its policy leaves CD out.
      const connectors = createDefaultConnectors({ storage, clock: { now: () => new Date() }, ids: randomIds, acquirer, system: 'test', policy: { paymentTypes: ['PA', 'DB', 'CP', 'RF', 'RV'] } });
      const t = await startTestApp(storage, { overrides: { connectors } });
      try {
        const merchant = await t.createMerchant();
        const count = async () => Number((await t.storage.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM transactions')).rows[0]!.n);
        const refused = await cardPayment(t, merchant, 'CD', '5.00', { testMode: 'EXTERNAL' });
        assert.equal(refused.statusCode, 400, refused.body);
        assert.equal(refused.json().result.code, '600.200.202');
        assert.equal(await count(), 0);
        assert.equal((await cardPayment(t, merchant, 'DB', '5.00', { testMode: 'EXTERNAL' })).json().result.code, '000.100.112');
      } finally {
        (connectors.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector).close();
        await t.close();
        await storage.close();
        await host.close();
      }
    });
  });
}
