import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Connector, ConnectorOutcome, PaymentConnectorRequest, ReferencingConnectorRequest } from '../../src/connectors/connector.js';
import { createDefaultConnectors } from '../../src/connectors/default-connectors.js';
import { randomIds } from '../../src/domain/ids.js';
import { DEFAULT_LIFECYCLE_POLICY } from '../../src/domain/lifecycle/policy.js';
import { reportUnroutedEntities } from '../../src/operations/routing/report-unrouted.js';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const https = { 'x-forwarded-proto': 'https' };
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...https };

/** A live-capable acquirer that records what it was asked, with which credentials. */
function recordingAcquirer(): Connector & { readonly calls: Array<{ operation: string; credentials: unknown; amount: bigint }> } {
  const calls: Array<{ operation: string; credentials: unknown; amount: bigint }> = [];
  const approve = (operation: string) => async (request: PaymentConnectorRequest | ReferencingConnectorRequest): Promise<ConnectorOutcome> => {
    calls.push({ operation, credentials: request.credentials, amount: request.amountMinor });
    return { kind: 'success', code: '000.000.000', resultDetails: { ConnectorTxID1: `ACQ-${calls.length}` } };
  };
  return {
    id: 'acquirer-a',
    policy: DEFAULT_LIFECYCLE_POLICY,
    liveCapable: true,
    calls,
    authorize: approve('PA'),
    debit: approve('DB'),
    credit: approve('CD'),
    capture: approve('CP'),
    refund: approve('RF'),
    reverse: approve('RV'),
  };
}

for (const database of testDatabases()) {
  describe(`live routing on ${database.name}: the live system never answers from the simulator`, () => {
    let t: TestApp;
    let merchant: { entityId: string; accessToken: string };
    let channel: { entityId: string; accessToken: string };
    const acquirer = recordingAcquirer();

    before(async () => {
      const storage = await database.open();
      const connectors = createDefaultConnectors({ storage, clock: { now: () => new Date() }, ids: randomIds, extra: [acquirer] });
      t = await startTestApp(storage, { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true', LOG_LEVEL: 'warn' }, overrides: { connectors } });
      merchant = await t.createMerchant('Routed shop');
      channel = await t.createChannel(merchant.entityId, 'Web');
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const pay = (who: { entityId: string; accessToken: string }, fields: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/payments', headers: { ...bearer(who.accessToken), ...FORM_HEADERS, ...https }, payload: form({ entityId: who.entityId, amount: '10.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...fields }) });
    const addRoute = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: '/admin/routes', headers: { ...admin, ...FORM_HEADERS }, payload: form(fields) });
    const countTransactions = async () => Number((await t.storage.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM transactions')).rows[0]!.n);

    it('without a route a test card is refused with 600.200.201, and nothing is written', async () => {
      const response = await pay(channel);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().result.code, '600.200.201');
      assert.equal(await countTransactions(), 0);
      assert.equal(acquirer.calls.length, 0);
    });

    it('the start-up report names the entities without a route', async () => {
      const report = await reportUnroutedEntities(t.storage, 'live');
      assert.deepEqual(report.map((entry) => entry.entityId).sort(), [merchant.entityId, channel.entityId].sort());
    });

    it('a live route to the simulator is refused by the admin API', async () => {
      for (const connector of ['simulator', 'external-test-platform']) {
        const response = await addRoute({ connector, entity: merchant.entityId });
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.json().result.parameterErrors[0].name, 'connector');
      }
      const unknown = await addRoute({ connector: 'nope' });
      assert.match(unknown.json().result.parameterErrors[0].message, /acquirer-a/);
    });

    it('a merchant\'s EUR route serves its channel, with credentials sealed at rest and never shown', async () => {
      const created = await addRoute({ connector: 'acquirer-a', entity: merchant.entityId, currency: 'EUR', 'credentials[terminalId]': 'T-1001', 'credentials[secret]': 'sekret-value-1' });
      assert.equal(created.statusCode, 201, created.body);
      const route = created.json();
      assert.deepEqual(route.credentialNames, ['secret', 'terminalId']);
      assert.ok(!created.body.includes('sekret-value-1'));
      const listed = await t.app.inject({ method: 'GET', url: '/admin/routes', headers: admin });
      assert.ok(!listed.body.includes('sekret-value-1') && listed.body.includes(route.routeId));
      const dump = JSON.stringify((await t.storage.query('SELECT * FROM connector_routes')).rows);
      assert.ok(!dump.includes('sekret-value-1') && !dump.includes('T-1001'), 'credentials are sealed');

      const paid = await pay(channel);
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal(paid.json().result.code, '000.000.000');
      assert.deepEqual(acquirer.calls.at(-1), { operation: 'DB', credentials: { secret: 'sekret-value-1', terminalId: 'T-1001' }, amount: 1000n });
      const usd = await pay(channel, { currency: 'USD' });
      assert.equal(usd.json().result.code, '600.200.500', 'routes for EUR only');
      const duplicate = await addRoute({ connector: 'acquirer-a', entity: merchant.entityId, currency: 'EUR' });
      assert.equal(duplicate.statusCode, 400);
    });

    it('rotated credentials serve the next payment and the follow-ups; a disabled route serves follow-ups only', async () => {
      const routeId = (await t.app.inject({ method: 'GET', url: '/admin/routes', headers: admin })).json().routes[0].routeId;
      const pa = (await pay(merchant, { paymentType: 'PA' })).json();
      const rotated = await t.app.inject({ method: 'POST', url: `/admin/routes/${routeId}/credentials`, headers: { ...admin, ...FORM_HEADERS }, payload: form({ 'credentials[terminalId]': 'T-2002' }) });
      assert.equal(rotated.statusCode, 200, rotated.body);
      assert.deepEqual(rotated.json().credentialNames, ['terminalId']);
      await pay(merchant);
      assert.deepEqual(acquirer.calls.at(-1)!.credentials, { terminalId: 'T-2002' });
      const disabled = await t.app.inject({ method: 'POST', url: `/admin/routes/${routeId}/disable`, headers: { ...admin, ...FORM_HEADERS }, payload: form({}) });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.equal((await pay(merchant)).json().result.code, '600.200.201');
      const capture = await t.app.inject({ method: 'POST', url: `/v1/payments/${pa.id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...https }, payload: form({ entityId: merchant.entityId, paymentType: 'CP', amount: '10.00', currency: 'EUR' }) });
      assert.equal(capture.statusCode, 200, capture.body);
      assert.deepEqual(acquirer.calls.at(-1), { operation: 'CP', credentials: { terminalId: 'T-2002' }, amount: 1000n });
    });

    it('the connectors list says which may serve the live system', async () => {
      const listed = (await t.app.inject({ method: 'GET', url: '/admin/connectors', headers: admin })).json().connectors;
      assert.deepEqual(listed.map((c: { connectorId: string; liveCapable: boolean }) => [c.connectorId, c.liveCapable]), [['simulator', false], ['external-test-platform', false], ['acquirer-a', true]]);
    });
  });
}
