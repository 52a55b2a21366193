import { callConnector, type CallOptions, type NormalizedOutcome } from '../../connectors/connector.js';
import type { RoutedConnector } from '../../connectors/router.js';
import type { Queryable } from '../../storage/port.js';
import { reroutePendingTransaction } from '../../storage/repositories/reroute-transaction.js';

/**
 * Asks the payment's connector, and when its acquirer did not process the payment at all
 * (declined with notProcessed: nothing sent, a technical refusal) and the operator gave the
 * route a fallback, moves the pending row to the fallback route and asks that connector once.
 * A pending, unknown or success answer never falls back: the first acquirer may have approved.
 */
export async function callWithFallback(
  storage: Queryable,
  transactionId: string,
  routed: RoutedConnector,
  call: (target: RoutedConnector) => Promise<unknown>,
  options: CallOptions,
): Promise<NormalizedOutcome> {
  const first = await callConnector(() => call(routed), options);
  const fallback = routed.fallback;
  if (!fallback || first.kind !== 'declined' || first.notProcessed !== true) return first;
  if (!(await reroutePendingTransaction(storage, { id: transactionId, connectorId: fallback.connector.id, routeId: fallback.routeId }))) return first;
  return callConnector(() => call(fallback), options);
}
