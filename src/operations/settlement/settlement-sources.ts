import type { ConnectorRegistry } from '../../connectors/registry.js';
import type { SettlementSource } from './ingest-settlement.js';

/**
 * Every connector of the build that declares the settlement capability, asked without route
 * credentials: the simulator's feed, and any connector whose feed needs none. A connector whose
 * feed needs a route's credentials is not asked yet (docs/settlement.md, "Not yet").
 */
export function settlementSources(registry: ConnectorRegistry): SettlementSource[] {
  return registry.connectors.flatMap((connector) => {
    const feed = connector.settlement?.bind(connector);
    return feed ? [{ connectorId: connector.id, records: (day: string) => feed({ date: day }) }] : [];
  });
}
