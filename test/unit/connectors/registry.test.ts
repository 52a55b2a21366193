import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Connector } from '../../../src/connectors/connector.js';
import { createConnectorRegistry } from '../../../src/connectors/registry.js';
import { RouteTable, type OpenRoute } from '../../../src/connectors/route-table.js';
import { ConnectorRouter } from '../../../src/connectors/router.js';
import { chooseRoute, unroutedEntities, type RouteRecord, type RouteSelection } from '../../../src/domain/routing.js';
import { DEFAULT_LIFECYCLE_POLICY } from '../../../src/domain/lifecycle/policy.js';
import { GatewayError } from '../../../src/results/gateway-error.js';
import { externalTestPlatform, simulator } from './simulator-fixtures.js';

const MERCHANT = 'a'.repeat(32);
const CHANNEL = 'c'.repeat(32);
const OTHER = 'b'.repeat(32);

export function stubConnector(id: string, liveCapable = true): Connector {
  const never = async () => {
    throw new Error('not called in these tests');
  };
  return { id, policy: DEFAULT_LIFECYCLE_POLICY, liveCapable, authorize: never, debit: never, credit: never, capture: never, refund: never, reverse: never };
}

function route(id: string, fields: Partial<RouteRecord>): RouteRecord {
  return { id, system: 'live', entityId: null, paymentBrand: null, currency: null, connectorId: `acq-${id}`, disabledAt: null, ...fields };
}

const ROUTES: readonly RouteRecord[] = [
  route('any', {}),
  route('merchant', { entityId: MERCHANT }),
  route('merchant-visa', { entityId: MERCHANT, paymentBrand: 'VISA' }),
  route('merchant-visa-usd', { entityId: MERCHANT, paymentBrand: 'VISA', currency: 'USD' }),
  route('channel-master', { entityId: CHANNEL, paymentBrand: 'MASTER' }),
  route('amex-gbp', { paymentBrand: 'AMEX', currency: 'GBP' }),
  route('disabled', { entityId: CHANNEL, disabledAt: new Date('2026-01-01T00:00:00Z') }),
  route('test-system', { system: 'test', entityId: CHANNEL }),
];

describe('route choice (most specific wins: entity, then brand, then currency)', () => {
  const select = (entityId: string, brand: string, currency: string, merchantId: string | null = null): RouteSelection => ({ system: 'live', entityId, merchantId, brand, currency });
  const table: ReadonlyArray<readonly [string, RouteSelection, string]> = [
    ['a channel inherits its merchant\'s route', select(CHANNEL, 'DINERS', 'EUR', MERCHANT), 'merchant'],
    ['the merchant\'s brand route beats its catch-all', select(MERCHANT, 'VISA', 'EUR'), 'merchant-visa'],
    ['brand and currency beat brand alone', select(MERCHANT, 'VISA', 'USD'), 'merchant-visa-usd'],
    ['the channel\'s own brand route beats its merchant\'s', select(CHANNEL, 'MASTER', 'EUR', MERCHANT), 'channel-master'],
    ['a merchant route beats a global brand route', select(MERCHANT, 'AMEX', 'GBP'), 'merchant'],
    ['another entity takes the global routes', select(OTHER, 'AMEX', 'GBP'), 'amex-gbp'],
    ['a disabled route and another system\'s route never serve', select(CHANNEL, 'VISA', 'EUR', MERCHANT), 'merchant-visa'],
  ];
  for (const [name, selection, expected] of table) {
    it(name, () => {
      const choice = chooseRoute(ROUTES, selection);
      assert.ok(choice.ok);
      assert.equal(choice.route.id, expected);
    });
  }

  it('refuses with 600.200.201 when nothing serves the brand, 600.200.500 when only the currency is missing', () => {
    const only = [route('amex-gbp', { paymentBrand: 'AMEX', currency: 'GBP' })];
    assert.deepEqual(chooseRoute(only, select(OTHER, 'VISA', 'EUR')), { ok: false, code: '600.200.201' });
    assert.deepEqual(chooseRoute(only, select(OTHER, 'AMEX', 'EUR')), { ok: false, code: '600.200.500' });
    assert.deepEqual(chooseRoute([], select(OTHER, 'AMEX', 'EUR')), { ok: false, code: '600.200.201' });
  });
});

describe('unrouted entities (the live start-up report)', () => {
  it('names entities without a route and those with routes for some brands or currencies only', () => {
    const entities = [
      { id: MERCHANT, name: 'Fully routed', merchantId: null },
      { id: CHANNEL, name: 'Its channel', merchantId: MERCHANT },
      { id: OTHER, name: 'Partly routed', merchantId: null },
      { id: 'd'.repeat(32), name: 'Nothing', merchantId: null },
    ];
    const routes = [route('m', { entityId: MERCHANT }), route('o', { entityId: OTHER, paymentBrand: 'VISA', currency: 'EUR' })];
    assert.deepEqual(unroutedEntities(entities, routes, 'live'), [
      { entityId: OTHER, name: 'Partly routed', routedBrands: ['VISA'], routedCurrencies: ['EUR'] },
      { entityId: 'd'.repeat(32), name: 'Nothing', routedBrands: [], routedCurrencies: [] },
    ]);
  });
});

function routerOver(system: 'test' | 'live', routes: readonly OpenRoute[]): ConnectorRouter {
  const registry = createConnectorRegistry([simulator(), externalTestPlatform(), stubConnector('acquirer'), stubConnector('sim-like', false)]);
  const table = { all: async () => routes, byId: async (id: string) => routes.find((r) => r.id === id), invalidate: () => undefined } as unknown as RouteTable;
  return new ConnectorRouter({ system, registry, routes: table, merchantOf: async () => null, internalTestConnectorId: 'simulator', externalTestConnectorId: 'external-test-platform' });
}

function openRoute(id: string, connectorId: string, system: 'test' | 'live' = 'live'): OpenRoute {
  const at = new Date('2026-11-22T10:00:00Z');
  return { ...route(id, { connectorId, system }), credentialNames: ['terminalId'], credentials: { terminalId: 'T1' }, createdAt: at, updatedAt: at };
}

describe('connector router', () => {
  const payment = { entityId: MERCHANT, brand: 'VISA', currency: 'EUR' };

  it('the test system: the simulator without testMode or with INTERNAL, the test platform for EXTERNAL without a test route', async () => {
    const router = routerOver('test', []);
    assert.equal((await router.forPayment({ ...payment, testMode: null })).connector.id, 'simulator');
    assert.equal((await router.forPayment({ ...payment, testMode: 'INTERNAL' })).connector.id, 'simulator');
    assert.equal((await router.forPayment({ ...payment, testMode: 'EXTERNAL' })).connector.id, 'external-test-platform');
  });

  it('the test system: EXTERNAL follows a test route with its credentials', async () => {
    const routed = await routerOver('test', [openRoute('r1', 'acquirer', 'test')]).forPayment({ ...payment, testMode: 'EXTERNAL' });
    assert.deepEqual([routed.connector.id, routed.routeId, routed.credentials], ['acquirer', 'r1', { terminalId: 'T1' }]);
  });

  it('the live system never answers from a simulator: no route is a 600.200.201 refusal', async () => {
    await assert.rejects(routerOver('live', []).forPayment({ ...payment, testMode: null }), (error: unknown) => error instanceof GatewayError && error.code === '600.200.201');
  });

  it('the live system refuses a route that leads to a connector that only simulates (written by hand)', async () => {
    for (const connectorId of ['simulator', 'sim-like', 'no-such-connector']) {
      await assert.rejects(routerOver('live', [openRoute('r1', connectorId)]).forPayment({ ...payment, testMode: null }), (error: unknown) => error instanceof GatewayError && error.code === '600.200.500', connectorId);
    }
  });

  it('the live system routes by the operator\'s route, and finds it again for follow-ups', async () => {
    const router = routerOver('live', [openRoute('r1', 'acquirer')]);
    const routed = await router.forPayment({ ...payment, testMode: null });
    assert.deepEqual([routed.connector.id, routed.routeId], ['acquirer', 'r1']);
    assert.equal((await router.forTransaction({ connectorId: 'acquirer', routeId: 'r1' }))?.credentials['terminalId'], 'T1');
    assert.equal(await router.forTransaction({ connectorId: 'simulator', routeId: null }), undefined, 'a simulated parent has no live connector');
    assert.equal(await router.forTransaction({ connectorId: 'acquirer', routeId: 'gone' }), undefined);
  });
});

describe('connector registry', () => {
  it('applies policy overrides and refuses unknown or duplicate ids', () => {
    const registry = createConnectorRegistry([simulator(), stubConnector('acquirer-1')], { 'acquirer-1': { reversalCutoffMinutes: 30, supportsRefund: false } });
    assert.deepEqual(registry.policyFor('acquirer-1'), { ...DEFAULT_LIFECYCLE_POLICY, reversalCutoffMinutes: 30, supportsRefund: false });
    assert.equal(registry.policyFor('simulator').reversalCutoffMinutes, 24 * 60);
    assert.throws(() => registry.policyFor('gone'), /gone/);
    assert.equal(registry.connectorById('gone'), undefined);
    assert.throws(() => createConnectorRegistry([simulator()], { nope: {} }), /nope/);
    assert.throws(() => createConnectorRegistry([stubConnector('x'), stubConnector('x')]), /unique: x/);
  });
});

describe('route table', () => {
  it('a route whose credentials the vault cannot open serves nothing (900.100.310); the others go on serving', async () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const stored = [
      { id: 'good', system: 'live', entity_id: null, payment_brand: 'VISA', currency: null, connector_id: 'acquirer', credential_names: ['k'], data_key_id: 'd'.repeat(32), sealed_credentials: Buffer.from('ok'), created_at: at, updated_at: at, disabled_at: null },
      { id: 'damaged', system: 'live', entity_id: null, payment_brand: 'MASTER', currency: null, connector_id: 'acquirer', credential_names: ['k'], data_key_id: 'd'.repeat(32), sealed_credentials: Buffer.from('bad'), created_at: at, updated_at: at, disabled_at: null },
    ];
    const table = new RouteTable({
      storage: { query: async () => ({ rows: stored, rowCount: stored.length }) } as never,
      clock: { now: () => at },
      openCredentials: async (_id, sealed) => {
        if (sealed.sealed.toString() === 'bad') throw new Error('unsupported state or unable to authenticate data');
        return { k: 'v' };
      },
    });
    const registry = createConnectorRegistry([simulator(), externalTestPlatform(), stubConnector('acquirer')]);
    const router = new ConnectorRouter({ system: 'live', registry, routes: table, merchantOf: async () => null, internalTestConnectorId: 'simulator', externalTestConnectorId: 'external-test-platform' });
    const visa = await router.forPayment({ entityId: MERCHANT, brand: 'VISA', currency: 'EUR', testMode: null });
    assert.deepEqual(visa.credentials, { k: 'v' });
    await assert.rejects(router.forPayment({ entityId: MERCHANT, brand: 'MASTER', currency: 'EUR', testMode: null }), (error: unknown) => error instanceof GatewayError && error.code === '900.100.310');
    assert.equal(await router.forTransaction({ connectorId: 'acquirer', routeId: 'damaged' }), undefined);
  });
});
