import type { HttpTimeouts } from '../config/http-timeouts.js';

/** How often Node looks for requests past their headers or request timeout (its default: 30 s). */
export function connectionsCheckingIntervalMs(timeouts: HttpTimeouts): number {
  // A quarter of the shorter bound, at most a second: a slow client is closed within 1.25 bounds.
  return Math.max(25, Math.min(1_000, Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 4)));
}

/** Node's http.Server options for the timeouts (Fastify passes them to createServer). */
export function serverTimeoutOptions(timeouts: HttpTimeouts) {
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: connectionsCheckingIntervalMs(timeouts),
  };
}

/**
 * Fastify's timeout options: every phase of an exchange is bounded, so no client holds a socket
 * open by being slow (docs/api.md, "Timeouts"). The handler's bound is the gateway's own
 * (plugins/handler-timeout.ts), not Fastify's `handlerTimeout`.
 */
export function fastifyTimeoutOptions(timeouts: HttpTimeouts) {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.connectionTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
  };
}
