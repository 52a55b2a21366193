import type { Clock, IdGenerator } from '../domain/ids.js';
import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import type { Queryable } from '../storage/port.js';
import { isKnownSchemeReference } from '../storage/repositories/registrations.js';
import { createConnectorRegistry, type ConnectorRegistry } from './registry.js';
import { createExternalTestPlatformConnector, createSimulatorConnector, EXTERNAL_TEST_PLATFORM, INTERNAL_SIMULATOR } from './simulator/index.js';

/**
 * The connectors this build ships: the internal simulator (testMode INTERNAL, the test system's
 * default) and the stub of a processor's test platform (testMode EXTERNAL). Without a real
 * acquirer connector configured, the live system also answers from the simulator, with
 * 000.000.000: fine for a demonstration, never for real money (see docs/simulator.md).
 */
export interface DefaultConnectorsDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly storage: Queryable;
  readonly system: 'test' | 'live';
  /** The operator's cut-offs (REVERSAL_CUTOFF_MINUTES, CAPTURE_CUTOFF_MINUTES) for every connector. */
  readonly policy?: Partial<LifecyclePolicy>;
}

export function createDefaultConnectors(deps: DefaultConnectorsDeps): ConnectorRegistry {
  const shared = {
    clock: deps.clock,
    newId: () => deps.ids.id(),
    // Payments' scheme references and those recorded on registrations (recurring migrations).
    schemeReferences: { wasIssued: (id: string) => isKnownSchemeReference(deps.storage, id) },
  };
  const connectors = [createSimulatorConnector(shared), createExternalTestPlatformConnector(shared)];
  const policy = deps.policy ?? {};
  return createConnectorRegistry(connectors, {
    policyOverrides: Object.fromEntries(connectors.map((connector) => [connector.id, policy])),
    // testMode=EXTERNAL on the test system routes past the internal simulator to the default
    // connector, which on the test system is the processor's test platform.
    defaultConnectorId: deps.system === 'test' ? EXTERNAL_TEST_PLATFORM.connectorId : INTERNAL_SIMULATOR.connectorId,
    internalTestConnectorId: INTERNAL_SIMULATOR.connectorId,
  });
}
