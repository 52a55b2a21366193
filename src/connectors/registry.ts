import type { LifecyclePolicy } from '../domain/lifecycle/policy.js';
import type { Connector } from './connector.js';

/**
 * The connectors this process can talk to, by id, with their life-cycle policies (the
 * connector's own, with the operator's overrides such as REVERSAL_CUTOFF_MINUTES). Which
 * connector serves which payment is the router's business (router.ts), from the operator's routes.
 */
export interface ConnectorRegistry {
  readonly connectors: readonly Connector[];
  connectorById(connectorId: string): Connector | undefined;
  /** The connector's life-cycle policy with the configured overrides applied. */
  policyFor(connectorId: string): LifecyclePolicy;
}

/** connector id → policy fields that replace the connector's own (e.g. a contract with another cut-off). */
export type PolicyOverrides = Readonly<Record<string, Partial<LifecyclePolicy>>>;

/** Builds the registry; throws naming every duplicate or unknown connector id, so a bad configuration fails at start. */
export function createConnectorRegistry(connectors: readonly Connector[], policyOverrides: PolicyOverrides = {}): ConnectorRegistry {
  const byId = indexConnectors(connectors);
  const unknown = Object.keys(policyOverrides).filter((id) => !byId.has(id));
  if (unknown.length > 0) throw new Error(`unknown connector ids in policy overrides: ${unknown.join(', ')}`);
  const policies = new Map(connectors.map((connector) => [connector.id, Object.freeze({ ...connector.policy, ...policyOverrides[connector.id] })]));
  return {
    connectors,
    connectorById: (connectorId) => byId.get(connectorId),
    policyFor: (connectorId) => {
      const policy = policies.get(connectorId);
      if (!policy) throw new Error(`no connector with id ${connectorId} is configured`);
      return policy;
    },
  };
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
