import type { Redis } from 'ioredis';
import { ExpiringMap } from '../domain/expiring-map.js';
import type { Clock } from '../domain/ids.js';

/** Failed authentications of one client address in the current window. */
export interface FailureCount {
  readonly count: number;
  readonly resetAtMs: number;
}

/** Fixed windows: the first failure opens one of windowMs; a failure after its end opens the next. */
export function countFailure(previous: FailureCount | undefined, nowMs: number, windowMs: number): FailureCount {
  if (previous === undefined || previous.resetAtMs <= nowMs) return { count: 1, resetAtMs: nowMs + windowMs };
  return { count: previous.count + 1, resetAtMs: previous.resetAtMs };
}

export interface AuthFailureLimits {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly clock: Clock;
  /** Shared count, so several gateway processes enforce one limit; in memory when absent. */
  readonly redis: Redis | undefined;
}

// Client addresses remembered at most; a flood of spoofed addresses evicts the oldest.
const ADDRESSES_MAX = 100_000;
const REDIS_PREFIX = 'gateway-auth-failures:';

/**
 * The per-address limit of failed authentications (a missing, malformed, unknown or wrong token).
 * Failures are counted in Redis when configured; a process that learns an address went over the
 * limit blocks it locally until the window ends, so a request that authenticates costs no store
 * round trip. Another process learns it at that address's next failure there.
 */
export class AuthFailureLimiter {
  readonly #counts = new ExpiringMap<string, FailureCount>(ADDRESSES_MAX);
  readonly #blocked = new ExpiringMap<string, number>(ADDRESSES_MAX);

  constructor(private readonly limits: AuthFailureLimits) {}

  /** Milliseconds until the address may authenticate again; 0 when it may now. */
  retryAfterMs(address: string): number {
    const nowMs = this.limits.clock.now().getTime();
    const until = this.#blocked.get(address, nowMs);
    return until === undefined ? 0 : until - nowMs;
  }

  /** Counts one failure; answers how long the address must now wait (0 while within the limit). */
  async recordFailure(address: string): Promise<number> {
    const nowMs = this.limits.clock.now().getTime();
    const counted = (await this.#countShared(address, nowMs)) ?? this.#countHere(address, nowMs);
    if (counted.count <= this.limits.maxFailures) return 0;
    this.#blocked.set(address, counted.resetAtMs, counted.resetAtMs);
    return Math.max(1, counted.resetAtMs - nowMs);
  }

  #countHere(address: string, nowMs: number): FailureCount {
    const counted = countFailure(this.#counts.get(address, nowMs), nowMs, this.limits.windowMs);
    this.#counts.set(address, counted, counted.resetAtMs);
    return counted;
  }

  // A store that does not answer falls back to this process's own count, never to no limit.
  async #countShared(address: string, nowMs: number): Promise<FailureCount | undefined> {
    const redis = this.limits.redis;
    if (!redis) return undefined;
    const key = `${REDIS_PREFIX}${address}`;
    try {
      const replies = await redis.multi().set(key, '0', 'PX', this.limits.windowMs, 'NX').incr(key).pttl(key).exec();
      const count = Number(replies?.[1]?.[1]);
      const ttlMs = Number(replies?.[2]?.[1]);
      if (!Number.isFinite(count) || !(ttlMs > 0)) return undefined;
      return { count, resetAtMs: nowMs + ttlMs };
    } catch {
      return undefined;
    }
  }
}
