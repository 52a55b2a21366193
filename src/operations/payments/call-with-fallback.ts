import type { CallOptions, NormalizedOutcome } from '../../connectors/connector.js';
import type { ConnectorRouter, RoutedConnector } from '../../connectors/router.js';
import type { ConnectorOperation } from '../../observability/observer.js';
import type { Queryable } from '../../storage/port.js';
import { reroutePendingTransaction } from '../../storage/repositories/reroute-transaction.js';

/**
 * Asks the payment's connector, and when its acquirer did not process the payment at all
 * (declined with notProcessed: nothing sent, a technical refusal) and the operator gave the
 * route a fallback, moves the pending row to the fallback route and asks that connector once.
 * A pending, unknown or success answer never falls back: the first acquirer may have approved.
 * Each connector asked is one connector call (ConnectorRouter.call).
 */
export async function callWithFallback(
  deps: { readonly storage: Queryable; readonly connectors: ConnectorRouter },
  transactionId: string,
  routed: RoutedConnector,
  operation: ConnectorOperation,
  call: (target: RoutedConnector) => Promise<unknown>,
  options: CallOptions,
): Promise<NormalizedOutcome> {
  const first = await deps.connectors.call(routed.connector, operation, () => call(routed), options);
  const fallback = routed.fallback;
  if (!fallback || first.kind !== 'declined' || first.notProcessed !== true) return first;
  if (!(await reroutePendingTransaction(deps.storage, { id: transactionId, connectorId: fallback.connector.id, routeId: fallback.routeId }))) return first;
  return deps.connectors.call(fallback.connector, operation, () => call(fallback), options);
}
