import type { Attributes } from '@opentelemetry/api';
import type { Connector } from '../../connectors/connector.js';
import { tracingOn } from './state.js';
import { SpanKind, withSpan } from './with-span.js';

/** The calls that reach a payment provider: each gets a client span. */
const OPERATIONS: ReadonlySet<PropertyKey> = new Set(['authorize', 'debit', 'credit', 'capture', 'refund', 'reverse', 'status', 'cancel', 'complete']);
const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;
const GATEWAY_ID = /^[0-9a-f]{32}$/;

const traced = new WeakMap<Connector, Connector>();

/** A connector call's attributes: the connector, the operation, the transaction; nothing of the request's account data. */
export function connectorCallAttributes(connectorId: string, operation: string, request: unknown): Attributes {
  const transactionId = (request as { transactionId?: unknown } | undefined)?.transactionId;
  return {
    'gateway.connector.id': connectorId,
    'gateway.connector.operation': operation,
    ...(typeof transactionId === 'string' && GATEWAY_ID.test(transactionId) ? { 'gateway.transaction.id': transactionId } : {}),
  };
}

/** The outcome's kind and result code, checked to be exactly that: a connector's raw answer is not trusted. */
export function connectorOutcomeAttributes(outcome: unknown): Attributes {
  const { kind, code } = (outcome ?? {}) as { kind?: unknown; code?: unknown };
  return {
    ...(kind === 'success' || kind === 'declined' || kind === 'pending' || kind === 'unknown' ? { 'gateway.connector.outcome': kind } : {}),
    ...(typeof code === 'string' && RESULT_CODE.test(code) ? { 'gateway.result.code': code } : {}),
  };
}

/**
 * The connector with a span around each call to its provider. The router hands out this view
 * (connectors/router.ts), so every payment, follow-up, status check and completion is traced
 * in one place; without tracing the connector is returned as it is.
 */
export function tracedConnector<C extends Connector | undefined>(connector: C): C {
  if (!tracingOn || connector === undefined) return connector;
  let view = traced.get(connector);
  if (!view) {
    view = new Proxy(connector, { get: (target, property, receiver) => operationOf(target, property, Reflect.get(target, property, receiver)) });
    traced.set(connector, view);
  }
  return view as C;
}

function operationOf(connector: Connector, property: PropertyKey, value: unknown): unknown {
  if (!OPERATIONS.has(property) || typeof value !== 'function') return value;
  const operation = String(property);
  return (request: unknown) =>
    withSpan(`connector ${connector.id} ${operation}`, { kind: SpanKind.CLIENT, attributes: connectorCallAttributes(connector.id, operation, request) }, async (span) => {
      const outcome: unknown = await value.call(connector, request);
      span.setAttributes(connectorOutcomeAttributes(outcome));
      return outcome;
    });
}
