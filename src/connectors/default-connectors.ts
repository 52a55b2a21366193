import type { Clock, IdGenerator } from '../domain/ids.js';
import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import type { SealedSecret } from '../domain/vault/index.js';
import type { Queryable } from '../storage/port.js';
import { lookUpSchemeReference } from '../storage/repositories/registrations.js';
import { storedSettlementSource } from '../storage/repositories/settlement-source.js';
import type { Connector, ConnectorOutcome } from './connector.js';
import { createConnectorRegistry, type ConnectorRegistry } from './registry.js';
import { RouteTable } from './route-table.js';
import { ConnectorRouter } from './router.js';
import { createExternalTestPlatformConnector, createSimulatorConnector, EXTERNAL_TEST_PLATFORM, INTERNAL_SIMULATOR, type SettlementTransactionSource } from './simulator/index.js';
import type { AcquirerSettings } from '../config/acquirer-settings.js';
import { reversalAdviceQueue } from '../jobs/send-reversal-advice.js';
import { createIso8583Connector } from './iso8583/connector.js';
import { logPoolEvents, type PoolLogger } from './iso8583/pool-log.js';
import { hostLabel, observePoolEvents, poolEventListeners } from './iso8583/pool-observer.js';
import { EMULATOR_PROFILE } from './iso8583/profile.js';
import { createTestPlatformConnector } from './iso8583/test-platform.js';
import type { Observer } from '../observability/observer.js';

/**
 * The connectors this build ships: the internal simulator (testMode INTERNAL, the test system's
 * default) and the stub of a processor's test platform (testMode EXTERNAL). Neither can serve the
 * live system; live payments go only where the operator's routes send them.
 */
export interface DefaultConnectorsDeps {
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly storage: Queryable;
  /** The operator's cut-offs (REVERSAL_CUTOFF_MINUTES, CAPTURE_CUTOFF_MINUTES) for every connector. */
  readonly policy?: Partial<LifecyclePolicy>;
  /** Connectors a deployment (or a test) adds to the built-in ones. */
  readonly extra?: readonly Connector[];
  /** The ISO 8583 acquirer host (ACQUIRER_HOST_URL): the connector `acquirer-host`, and the test platform's card payments. */
  readonly acquirer?: AcquirerSettings | undefined;
  readonly system?: 'test' | 'live';
  /** Where the ISO 8583 pool's events go (connect, sign-on, echo failure, condemn, close); none when absent. */
  readonly logger?: PoolLogger | undefined;
  /** Where the ISO 8583 link events and reversal advices are counted (the metrics); nothing when absent. */
  readonly observer?: Observer | undefined;
  /**
   * testMode=EXTERNAL card payments without an acquirer host: `refuse` (the gateway's own
   * composition, app.ts, when it cannot embed the emulator) or `stub` (the built-in stub, for
   * registries that tests and the command line build without a link).
   */
  readonly externalCardsWithoutHost?: 'refuse' | 'stub';
}

/** The ISO 8583 connector's id, which routes name. */
export const ACQUIRER_HOST_CONNECTOR_ID = 'acquirer-host';

export function createDefaultConnectors(deps: DefaultConnectorsDeps): ConnectorRegistry {
  const shared = {
    clock: deps.clock,
    newId: () => deps.ids.id(),
    // Payments' scheme references and those recorded on registrations (recurring migrations).
    schemeReferences: { wasIssued: (id: string) => lookUpSchemeReference(deps.storage, id) },
    // The simulated acquirer settles what the gateway stored of it (docs/settlement.md).
    settlementSource: storedSettlementSource(deps.storage),
  };
  const iso = deps.acquirer ? acquirerHostConnector(deps, deps.acquirer) : undefined;
  // Beside the acquirer host the stub settles only what it answered itself; the host's file settles the rest.
  const stub = createExternalTestPlatformConnector(iso ? { ...shared, settlementSource: onlyReferencedBy(EXTERNAL_TEST_PLATFORM.referencePrefix, shared.settlementSource) } : shared);
  const cards = iso ?? (deps.externalCardsWithoutHost === 'refuse' ? refusingCardsConnector(stub) : undefined);
  const external = cards ? createTestPlatformConnector({ iso: cards, stub, stubReferencePrefix: EXTERNAL_TEST_PLATFORM.referencePrefix }) : stub;
  const connectors = [createSimulatorConnector(shared), external, ...(iso ? [iso] : []), ...(deps.extra ?? [])];
  const policy = deps.policy ?? {};
  return createConnectorRegistry(connectors, Object.fromEntries(connectors.map((connector) => [connector.id, policy])));
}

/**
 * testMode=EXTERNAL card payments where no acquirer host is reachable (WORKERS_IN_GATEWAY=false
 * without ACQUIRER_HOST_URL): refused, never answered by a simulator that claims to be a test
 * platform. 600.200.700: "you are not configured for the requested transaction mode".
 */
export const EXTERNAL_REFUSED_CODE = '600.200.700';

function refusingCardsConnector(stub: Connector): Connector {
  const refuse = async (): Promise<ConnectorOutcome> => ({ kind: 'declined', code: EXTERNAL_REFUSED_CODE, resultDetails: {}, notProcessed: true });
  return { id: stub.id, policy: stub.policy, liveCapable: false, authorize: refuse, debit: refuse, credit: refuse, capture: refuse, refund: refuse, reverse: refuse };
}

/** The stored transactions whose first reference carries the prefix: those one simulator answered. */
function onlyReferencedBy(prefix: string, source: SettlementTransactionSource): SettlementTransactionSource {
  return {
    async *transactionsOf(connectorId, day) {
      for await (const transaction of source.transactionsOf(connectorId, day)) {
        if ((transaction.connectorReferences['ConnectorTxID1'] ?? '').startsWith(prefix)) yield transaction;
      }
    },
  };
}

function acquirerHostConnector(deps: DefaultConnectorsDeps, settings: AcquirerSettings): Connector {
  const { observer } = deps;
  const onEvent = poolEventListeners(
    ...(deps.logger ? [logPoolEvents(deps.logger, ACQUIRER_HOST_CONNECTOR_ID)] : []),
    ...(observer ? [observePoolEvents(observer, hostLabel(settings))] : []),
  );
  return createIso8583Connector({
    id: ACQUIRER_HOST_CONNECTOR_ID,
    profile: EMULATOR_PROFILE,
    endpoint: { host: settings.host, port: settings.port, tls: settings.tls, caPem: settings.caPem },
    // On the test system the host is the processor's test platform (000.100.112), on the live one an acquirer.
    successCode: deps.system === 'live' ? '000.000.000' : EXTERNAL_TEST_PLATFORM.successCode,
    liveCapable: true,
    clock: () => deps.clock.now(),
    responseTimeoutMs: settings.responseTimeoutMs,
    poolSize: settings.poolSize,
    reversalAdvices: reversalAdviceQueue(deps.storage, deps.clock),
    ...(onEvent ? { onEvent } : {}),
    ...(observer ? { onReversalAdvice: (outcome) => observer.reversalAdvice({ connector: ACQUIRER_HOST_CONNECTOR_ID, outcome }) } : {}),
    ...(settings.settlementSource ? { settlementSource: settings.settlementSource } : {}),
  });
}

export interface RouterDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly system: 'test' | 'live';
  readonly registry: ConnectorRegistry;
  /** The vault's open(): credentials are sealed under routeContext(routeId). */
  readonly openCredentials: (recordContext: string, sealed: SealedSecret) => Promise<Record<string, string>>;
  readonly merchantOf: (entityId: string) => Promise<string | null>;
  /** Where connector calls are reported; nothing when absent. */
  readonly observer?: Observer | undefined;
}

/** The router over the operator's routes, whose credentials the vault opens. */
export function createRouter(deps: RouterDeps): ConnectorRouter {
  const routes = new RouteTable({
    storage: deps.storage,
    clock: deps.clock,
    openCredentials: (routeId, sealed) => deps.openCredentials(routeContext(routeId), sealed),
  });
  return new ConnectorRouter({
    system: deps.system,
    registry: deps.registry,
    routes,
    merchantOf: deps.merchantOf,
    internalTestConnectorId: INTERNAL_SIMULATOR.connectorId,
    externalTestConnectorId: EXTERNAL_TEST_PLATFORM.connectorId,
    observer: deps.observer,
  });
}

/** The record context credentials are sealed under: a route's ciphertext cannot be moved to another route. */
export function routeContext(routeId: string): string {
  return `connector-route:${routeId}`;
}
