import type { Config } from '../config/load-config.js';
import { answerPrimaryWith, nodeMetricsText, serveNodeMetrics } from './cluster-metrics.js';
import { GatewayMetrics } from './metrics.js';

/**
 * A process's metrics as main.ts starts it: alone, one process of GATEWAY_PROCESSES (its scrape
 * answers the whole node, through the primary), or the primary itself (its own restarts, and the
 * aggregate it serves). Undefined with METRICS_ENABLED=false.
 */
export function processMetrics(
  config: Config,
  buildNumber: string,
  role: 'alone' | 'cluster-process' | 'primary',
): { readonly metrics: GatewayMetrics; readonly nodeMetricsText: () => Promise<string> } | undefined {
  if (!config.metrics.enabled) return undefined;
  // The primary runs no requests: the process defaults of the node are its processes'.
  const metrics = new GatewayMetrics({ processDefaults: role !== 'primary' });
  metrics.describeBuild(buildNumber, config.system);
  if (role === 'primary') serveNodeMetrics(metrics.registry);
  if (role === 'cluster-process') answerPrimaryWith(metrics.registry);
  return { metrics, nodeMetricsText: role === 'cluster-process' ? () => nodeMetricsText() : () => metrics.text() };
}
