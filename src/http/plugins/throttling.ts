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

export async function registerThrottling(app: FastifyInstance, options: ThrottlingOptions): Promise<void> {
  const { observer } = app.gateway;
  await app.register(rateLimit, {
    global: true,
    max: options.maxRequests,
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
