import type { Attributes } from '@opentelemetry/api';
import { isCheckoutId } from '../../domain/checkouts/checkout-id.js';
import { maskPanLikeDigitsInUrl } from '../../domain/redact.js';

/** What the server span of a request starts with: never the query string, a header or the body. */
export interface RequestFacts {
  readonly method: string;
  /** The URL as received (path and query). */
  readonly url: string;
  /** The route's template (/v1/payments/:id), undefined when no route matched. */
  readonly route: string | undefined;
  readonly scheme: string;
}

/** The path alone, with any card-number-like digit run masked: a PAN pasted into a path stays out of the trace. */
export function tracedPath(url: string): string {
  const query = url.indexOf('?');
  return maskPanLikeDigitsInUrl(query === -1 ? url : url.slice(0, query));
}

/** `POST /v1/payments/:id`: the method and the route's template, or the method alone when nothing matched (semantic conventions). */
export function serverSpanName(method: string, route: string | undefined): string {
  return route ? `${method} ${route}` : method;
}

export function requestAttributes(facts: RequestFacts): Attributes {
  return {
    'http.request.method': facts.method,
    'url.path': tracedPath(facts.url),
    'url.scheme': facts.scheme,
    ...(facts.route ? { 'http.route': facts.route } : {}),
  };
}

/** What the request noted while its answer was built (http/request-log-facts.ts), as the log line reads it. */
export interface AnswerFacts {
  readonly entityId?: string | undefined;
  readonly transactionId?: string | undefined;
  readonly referencedId?: string | undefined;
  readonly checkoutId?: string | undefined;
  readonly resultCode?: string | undefined;
}

const GATEWAY_ID = /^[a-zA-Z0-9]{32}$/;
const RESULT_CODE = /^\d{3}\.\d{3}\.\d{3}$/;

/**
 * The gateway's attributes of a request: the entity, the payment (and the one a CP, RF or RV
 * refers to), the checkout and the result code, each only when it has its format (the ids were
 * already checked for card numbers where they were noted).
 */
export function answerAttributes(facts: AnswerFacts): Attributes {
  const attributes: Attributes = {};
  if (facts.entityId !== undefined && GATEWAY_ID.test(facts.entityId)) attributes['gateway.entity.id'] = facts.entityId;
  if (facts.transactionId !== undefined && GATEWAY_ID.test(facts.transactionId)) attributes['gateway.transaction.id'] = facts.transactionId;
  if (facts.referencedId !== undefined && GATEWAY_ID.test(facts.referencedId)) attributes['gateway.referenced_transaction.id'] = facts.referencedId;
  if (facts.checkoutId !== undefined && isCheckoutId(facts.checkoutId)) attributes['gateway.checkout.id'] = facts.checkoutId;
  if (facts.resultCode !== undefined && RESULT_CODE.test(facts.resultCode)) attributes['gateway.result.code'] = facts.resultCode;
  return attributes;
}
