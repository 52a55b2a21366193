import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import type { Connector, GatewaySystem, TestMode } from './connector.js';

/**
 * Which connector serves which payments, as plain data from configuration. The most specific
 * entry wins: entity and brand, then entity, then brand, then the default.
 */
export interface ConnectorRoutingConfig {
  readonly defaultConnectorId: string;
  /** Serves test-system requests with testMode INTERNAL or without testMode (the spec's simulators). */
  readonly internalTestConnectorId: string;
  /** paymentBrand → connector id. */
  readonly byBrand?: Readonly<Record<string, string>>;
  /** entityId → that entity's default connector and its own brand routes. */
  readonly byEntity?: Readonly<Record<string, { readonly defaultConnectorId?: string; readonly byBrand?: Readonly<Record<string, string>> }>>;
  /** connector id → policy fields that replace the connector's own (e.g. a contract with another cut-off). */
  readonly policyOverrides?: Readonly<Record<string, Partial<LifecyclePolicy>>>;
}

export interface ConnectorSelection {
  readonly entityId: string;
  readonly brand: string;
  readonly system: GatewaySystem;
  readonly testMode: TestMode | null;
}

export interface ConnectorRegistry {
  /** The connector for a new PA, DB or CD. */
  connectorFor(selection: ConnectorSelection): Connector;
  /**
   * The connector that processed a stored transaction, for its captures, refunds and reversals;
   * undefined when that connector is no longer configured.
   */
  connectorById(connectorId: string): Connector | undefined;
  /** The connector's life-cycle policy with the configured overrides applied. */
  policyFor(connectorId: string): LifecyclePolicy;
}

/** Builds the registry; throws listing every unknown or duplicate connector id, so a bad configuration fails at start. */
export function createConnectorRegistry(connectors: readonly Connector[], config: ConnectorRoutingConfig): ConnectorRegistry {
  const byId = indexConnectors(connectors);
  assertRoutesKnown(byId, config);
  const policies = new Map(
    connectors.map((connector) => [connector.id, Object.freeze({ ...connector.policy, ...config.policyOverrides?.[connector.id] })]),
  );
  return {
    connectorFor: (selection) => byId.get(routedConnectorId(config, selection))!,
    connectorById: (connectorId) => byId.get(connectorId),
    policyFor: (connectorId) => {
      const policy = policies.get(connectorId);
      if (!policy) throw new Error(`no connector with id ${connectorId} is configured`);
      return policy;
    },
  };
}

/** The routing decision alone, as data in and id out. */
export function routedConnectorId(config: ConnectorRoutingConfig, selection: ConnectorSelection): string {
  if (selection.system === 'test' && selection.testMode !== 'EXTERNAL') return config.internalTestConnectorId;
  const entity = config.byEntity?.[selection.entityId];
  return (
    entity?.byBrand?.[selection.brand] ??
    entity?.defaultConnectorId ??
    config.byBrand?.[selection.brand] ??
    config.defaultConnectorId
  );
}

function indexConnectors(connectors: readonly Connector[]): Map<string, Connector> {
  const byId = new Map<string, Connector>();
  const duplicates: string[] = [];
  for (const connector of connectors) {
    if (byId.has(connector.id)) duplicates.push(connector.id);
    byId.set(connector.id, connector);
  }
  if (duplicates.length > 0) throw new Error(`connector ids must be unique: ${duplicates.join(', ')}`);
  return byId;
}

function assertRoutesKnown(byId: ReadonlyMap<string, Connector>, config: ConnectorRoutingConfig): void {
  const routes: Array<[string, string]> = [
    ['defaultConnectorId', config.defaultConnectorId],
    ['internalTestConnectorId', config.internalTestConnectorId],
    ...Object.entries(config.byBrand ?? {}).map(([brand, id]): [string, string] => [`byBrand.${brand}`, id]),
    ...Object.entries(config.byEntity ?? {}).flatMap(([entityId, entity]) => [
      ...(entity.defaultConnectorId ? [[`byEntity.${entityId}.defaultConnectorId`, entity.defaultConnectorId] as [string, string]] : []),
      ...Object.entries(entity.byBrand ?? {}).map(([brand, id]): [string, string] => [`byEntity.${entityId}.byBrand.${brand}`, id]),
    ]),
    ...Object.keys(config.policyOverrides ?? {}).map((id): [string, string] => [`policyOverrides.${id}`, id]),
  ];
  const unknown = routes.filter(([, id]) => !byId.has(id));
  if (unknown.length > 0) {
    throw new Error(`unknown connector ids in routing: ${unknown.map(([where, id]) => `${where}=${id}`).join(', ')}`);
  }
}
