import type { Connector } from '../connectors/connector.js';
import type { LinkPool } from '../connectors/iso8583/pool.js';
import type { GatewayMetrics } from './metrics.js';

interface PooledConnector {
  readonly pool: LinkPool;
  readonly host: string;
}

function isPooled(connector: Connector): connector is Connector & PooledConnector {
  const candidate = connector as Partial<PooledConnector>;
  return typeof candidate.host === 'string' && typeof candidate.pool?.openConnections === 'number';
}

/** One reading per acquirer host: pools of one host (a second connector to it) add up. */
function readPools(connectors: () => readonly Connector[], read: (pool: LinkPool) => number): { labels: { host: string }; value: number }[] {
  const byHost = new Map<string, number>();
  const seen = new Set<LinkPool>();
  for (const connector of connectors()) {
    if (!isPooled(connector) || seen.has(connector.pool)) continue;
    seen.add(connector.pool);
    byHost.set(connector.host, (byHost.get(connector.host) ?? 0) + read(connector.pool));
  }
  return [...byHost].map(([host, value]) => ({ labels: { host }, value }));
}

/**
 * gateway_iso8583_connections and gateway_iso8583_messages_in_flight, read from each ISO 8583
 * connector's pool when Prometheus scrapes (never on the payment path).
 */
export function sampleIso8583Pools(metrics: GatewayMetrics, connectors: () => readonly Connector[]): void {
  metrics.sample('iso8583Connections', () => readPools(connectors, (pool) => pool.openConnections));
  metrics.sample('iso8583InFlight', () => readPools(connectors, (pool) => pool.messagesInFlight));
}
