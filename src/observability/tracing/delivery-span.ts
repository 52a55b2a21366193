import type { Attributes } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import { currentTraceParent } from './job-trace.js';
import { tracingOn } from './state.js';
import { SpanKind, withSpan } from './with-span.js';

export interface DeliveryFacts {
  readonly id: string;
  readonly notificationId: string;
  readonly webhookId: string | null;
  readonly attemptCount: number;
  readonly url: string;
}

/**
 * A delivery's attributes: its ids, the attempt, and the receiver's host and port. Never the
 * URL's path or query (a merchant may put a token there), a header or the body.
 */
export function deliveryAttributes(delivery: DeliveryFacts): Attributes {
  const attributes: Attributes = {
    'http.request.method': 'POST',
    'gateway.delivery.id': delivery.id,
    'gateway.notification.id': delivery.notificationId,
    'gateway.delivery.attempt': delivery.attemptCount + 1,
    ...(delivery.webhookId ? { 'gateway.webhook.id': delivery.webhookId } : {}),
  };
  try {
    const url = new URL(delivery.url);
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    attributes['url.scheme'] = url.protocol.slice(0, -1);
  } catch {
    // An unparseable URL is refused by the sender; the span says so through its status.
  }
  return attributes;
}

/** A client span around one delivery attempt; the sender passes its context on as `traceparent`. */
export function traceDelivery<T extends { readonly httpStatus: number | null; readonly acknowledged: boolean }>(delivery: DeliveryFacts, attempt: () => Promise<T>): Promise<T> {
  if (!tracingOn) return attempt();
  return withSpan('notification delivery', { kind: SpanKind.CLIENT, attributes: deliveryAttributes(delivery) }, async (span) => {
    const result = await attempt();
    if (result.httpStatus !== null) span.setAttribute('http.response.status_code', result.httpStatus);
    if (!result.acknowledged) {
      span.setAttribute('error.type', result.httpStatus === null ? 'no answer' : String(result.httpStatus));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    return result;
  });
}

/** The headers of an outgoing notification with the active trace's `traceparent` (tracing on only). */
export function withTraceHeaders(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const traceParent = currentTraceParent();
  return traceParent ? { ...headers, traceparent: traceParent } : headers;
}
