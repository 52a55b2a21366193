import type { Attributes } from '@opentelemetry/api';
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

/** A gateway id (32 hex), never anything else a body holds. */
const GATEWAY_ID = /^\{"id":"([0-9a-f]{32})"/;
/** A result code as the catalogue writes them (000.100.110). */
const RESULT_CODE = /"result":\{"code":"(\d{3}\.\d{3}\.\d{3})"/;

/**
 * The gateway attributes of a JSON answer: the transaction (or resource) id its body begins with
 * and its result code. Read by two anchored patterns that can match nothing but an id and a code,
 * so that nothing else of a body can reach a span.
 */
export function answerAttributes(payload: unknown): Attributes {
  if (typeof payload !== 'string' || payload.charCodeAt(0) !== 123 /* { */) return {};
  const id = GATEWAY_ID.exec(payload)?.[1];
  // The envelope comes last: look for the result near the end first.
  const at = payload.lastIndexOf('"result":{"code":"');
  const code = at === -1 ? undefined : RESULT_CODE.exec(payload.slice(at, at + 40))?.[1];
  return { ...(id ? { 'gateway.transaction.id': id } : {}), ...(code ? { 'gateway.result.code': code } : {}) };
}
