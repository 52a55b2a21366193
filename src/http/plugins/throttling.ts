import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { GatewayError } from '../../results/gateway-error.js';

export interface ThrottlingOptions {
  readonly maxRequests: number;
  readonly windowMs: number;
  /** Shared store so several gateway processes enforce one limit; in memory when absent. */
  readonly redis: Redis | undefined;
}

/**
 * The limit is per access token (hashed, so the store never holds a usable token); requests
 * without a token count against their IP address instead.
 */
function throttleKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header) return `t:${createHash('sha256').update(header).digest('base64url')}`;
  return `ip:${request.ip}`;
}

// As authentication reads it (authentication.ts): a malformed header is refused there, unlooked-up.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512})$/i;

/**
 * The limit of the request's token: its entity's own (PUT /admin/entities/:id/throttling), else
 * the gateway's. Only entity routes look the token up (the admin token is no entity's), and never
 * for an address over its failed-authentication limit, whose requests authentication refuses
 * unread: random tokens from it must not each cost a query. The look-ups are the ones
 * authentication makes next, cached by the same resolver, so a request costs no extra query.
 */
function limitOf(defaultMax: number): (request: FastifyRequest) => Promise<number> {
  return async (request) => {
    if (request.routeOptions.config.auth !== 'entity') return defaultMax;
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    const gateway = request.server.gateway;
    if (token === undefined || gateway.authFailures.retryAfterMs(request.ip) > 0) return defaultMax;
    try {
      const principal = await gateway.principals.principalOf(token);
      return (principal && (await gateway.principals.throttleLimitOf(principal.entityId))) ?? defaultMax;
    } catch {
      // The database's outage is authentication's to answer; the count goes on meanwhile.
      return defaultMax;
    }
  };
}

export async function registerThrottling(app: FastifyInstance, options: ThrottlingOptions): Promise<void> {
  const { observer } = app.gateway;
  await app.register(rateLimit, {
    global: true,
    max: limitOf(options.maxRequests),
    timeWindow: options.windowMs,
    keyGenerator: throttleKey,
    ...(options.redis ? { redis: options.redis, nameSpace: 'gateway-throttle:' } : {}),
    // A store outage must not take payments down with it.
    skipOnError: true,
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': true, 'retry-after': true },
    // Called once per request refused over the limit (not for those merely counted towards it).
    onExceeded: () => observer.throttled(),
    errorResponseBuilder: () => new GatewayError('800.120.100'),
  });
}
