import type { ConnectorRegistry } from '../../connectors/registry.js';
import type { SettlementSource } from './ingest-settlement.js';

/**
 * Every connector of the build that declares the settlement capability, asked without route
 * credentials: the simulator's feed, and any connector whose feed needs none. A connector whose
 * feed needs a route's credentials is not asked yet (docs/settlement.md, "Not yet"). One source
 * per feed: a connector whose transactions another's feed settles (`settledInFeedOf`) adds its
 * id to that source's matching instead of reading the feed a second time.
 */
export function settlementSources(registry: ConnectorRegistry): SettlementSource[] {
  return registry.connectors.flatMap((connector) => {
    const feed = connector.settlement?.bind(connector);
    if (!feed) return [];
    const carried = registry.connectors.filter((other) => other.settledInFeedOf === connector.id).map((other) => other.id);
    return [{ connectorId: connector.id, matchesConnectorIds: [connector.id, ...carried], records: (day: string) => feed({ date: day }) }];
  });
}
