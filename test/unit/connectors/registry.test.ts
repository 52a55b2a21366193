import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConnectorRegistry, routedConnectorId, type ConnectorRoutingConfig, type ConnectorSelection } from '../../../src/connectors/registry.js';
import type { Connector } from '../../../src/connectors/connector.js';
import { DEFAULT_LIFECYCLE_POLICY } from '../../../src/domain/lifecycle/policy.js';
import { externalTestPlatform, simulator } from './simulator-fixtures.js';

const ENTITY_A = 'a'.repeat(32);
const ENTITY_B = 'b'.repeat(32);

function stubConnector(id: string): Connector {
  const never = async () => {
    throw new Error('not called in these tests');
  };
  return { id, policy: DEFAULT_LIFECYCLE_POLICY, authorize: never, debit: never, credit: never, capture: never, refund: never, reverse: never };
}

const CONFIG: ConnectorRoutingConfig = {
  defaultConnectorId: 'acquirer-1',
  internalTestConnectorId: 'simulator',
  byBrand: { AMEX: 'amex-direct' },
  byEntity: {
    [ENTITY_A]: { defaultConnectorId: 'acquirer-2', byBrand: { MASTER: 'acquirer-3' } },
    [ENTITY_B]: { byBrand: { VISA: 'acquirer-3' } },
  },
  policyOverrides: { 'acquirer-1': { reversalCutoffMinutes: 30, supportsRefund: false } },
};

const CONNECTORS = [simulator(), externalTestPlatform(), ...['acquirer-1', 'acquirer-2', 'acquirer-3', 'amex-direct'].map(stubConnector)];

describe('connector routing', () => {
  const live = (entityId: string, brand: string): ConnectorSelection => ({ entityId, brand, system: 'live', testMode: null });
  const table: ReadonlyArray<readonly [string, ConnectorSelection, string]> = [
    ['test system without testMode → simulator', { ...live(ENTITY_A, 'VISA'), system: 'test' }, 'simulator'],
    ['test system, INTERNAL → simulator', { ...live(ENTITY_A, 'VISA'), system: 'test', testMode: 'INTERNAL' }, 'simulator'],
    ['test system, EXTERNAL → routed connector', { ...live(ENTITY_A, 'VISA'), system: 'test', testMode: 'EXTERNAL' }, 'acquirer-2'],
    ['entity and brand', live(ENTITY_A, 'MASTER'), 'acquirer-3'],
    ['entity default beats global brand', live(ENTITY_A, 'AMEX'), 'acquirer-2'],
    ['entity brand route only for that brand', live(ENTITY_B, 'VISA'), 'acquirer-3'],
    ['global brand', live(ENTITY_B, 'AMEX'), 'amex-direct'],
    ['global default', live(ENTITY_B, 'MASTER'), 'acquirer-1'],
    ['unknown entity, default', live('c'.repeat(32), 'VISA'), 'acquirer-1'],
  ];
  for (const [name, selection, expected] of table) {
    it(name, () => {
      assert.equal(routedConnectorId(CONFIG, selection), expected);
      assert.equal(createConnectorRegistry(CONNECTORS, CONFIG).connectorFor(selection).id, expected);
    });
  }

  it('EXTERNAL on the test system reaches the external test platform when configured so', async () => {
    const registry = createConnectorRegistry(CONNECTORS, { defaultConnectorId: 'external-test-platform', internalTestConnectorId: 'simulator' });
    const connector = registry.connectorFor({ entityId: ENTITY_A, brand: 'VISA', system: 'test', testMode: 'EXTERNAL' });
    assert.equal(connector.id, 'external-test-platform');
  });
});

describe('connector registry', () => {
  it('applies policy overrides on top of the connector policy', () => {
    const registry = createConnectorRegistry(CONNECTORS, CONFIG);
    assert.deepEqual(registry.policyFor('acquirer-1'), { ...DEFAULT_LIFECYCLE_POLICY, reversalCutoffMinutes: 30, supportsRefund: false });
    assert.equal(registry.policyFor('simulator').reversalCutoffMinutes, 24 * 60);
    assert.throws(() => registry.policyFor('gone'), /gone/);
  });

  it('finds stored transactions\' connectors by id', () => {
    const registry = createConnectorRegistry(CONNECTORS, CONFIG);
    assert.equal(registry.connectorById('acquirer-2')?.id, 'acquirer-2');
    assert.equal(registry.connectorById('gone'), undefined);
  });

  it('fails at start listing every unknown connector id', () => {
    const config: ConnectorRoutingConfig = { ...CONFIG, defaultConnectorId: 'nope', byEntity: { [ENTITY_A]: { byBrand: { VISA: 'nada' } } } };
    assert.throws(() => createConnectorRegistry(CONNECTORS, config), /defaultConnectorId=nope.*byEntity\.a+\.byBrand\.VISA=nada/);
  });

  it('refuses duplicate connector ids', () => {
    assert.throws(() => createConnectorRegistry([...CONNECTORS, stubConnector('acquirer-1')], CONFIG), /unique: acquirer-1/);
  });
});
