import { ExpiringMap } from '../../domain/expiring-map.js';
import { hashAccessToken, type Clock } from '../../domain/ids.js';
import type { UnknownParameterMode } from '../../catalogue/types.js';
import type { Storage } from '../../storage/port.js';
import { isLegacyAuthEnabled } from '../../storage/repositories/entities.js';
import { findShowConnectorDetails, findThrottleMaxRequests, findUnknownParameterMode } from '../../storage/repositories/entity-settings.js';
import {
  findPrincipalByTokenHash,
  isEntityWithinMerchant,
  type TokenPrincipal,
} from '../../storage/repositories/access-tokens.js';

/**
 * Authentication sits on every request, so positive answers are cached for a few seconds.
 * A revocation takes effect at once in the process that made it and within PRINCIPAL_CACHE_TTL_MS
 * in the others.
 */
export const PRINCIPAL_CACHE_TTL_MS = 5_000;
const CACHE_ENTRIES_MAX = 10_000;

/**
 * Unknown token hashes are remembered briefly, so a client repeating a wrong or revoked token
 * costs one query per UNKNOWN_TOKEN_TTL_MS, not one per request (random guesses are each new:
 * the per-address failure limit stops those). A token holds a fresh random id and 192 fresh random
 * bits, so no look-up before its creation can have cached it as unknown; one that becomes valid otherwise (a database
 * restored under a running gateway) works at the latest UNKNOWN_TOKEN_TTL_MS later.
 */
export const UNKNOWN_TOKEN_TTL_MS = 2_000;
const UNKNOWN_TOKENS_MAX = 10_000;

interface Cached<T> {
  readonly value: T;
  readonly expiresAtMs: number;
}

export class PrincipalResolver {
  readonly #tokens = new Map<string, Cached<TokenPrincipal>>();
  readonly #scopes = new Map<string, Cached<true>>();
  readonly #legacyAuth = new Map<string, Cached<boolean>>();
  readonly #unknownParameters = new Map<string, Cached<UnknownParameterMode>>();
  readonly #connectorDetails = new Map<string, Cached<boolean>>();
  readonly #throttleLimits = new Map<string, Cached<number | null>>();
  readonly #unknown = new ExpiringMap<string, true>(UNKNOWN_TOKENS_MAX);

  constructor(
    private readonly storage: Storage,
    private readonly clock: Clock,
  ) {}

  async principalOf(accessToken: string): Promise<TokenPrincipal | undefined> {
    const hash = hashAccessToken(accessToken);
    const cached = this.#fresh(this.#tokens, hash);
    if (cached) return cached;
    const nowMs = this.clock.now().getTime();
    if (this.#unknown.get(hash, nowMs)) return undefined;
    const principal = await findPrincipalByTokenHash(this.storage, hash);
    if (principal) this.#remember(this.#tokens, hash, principal);
    else this.#unknown.set(hash, true, nowMs + UNKNOWN_TOKEN_TTL_MS);
    return principal;
  }

  /** A token acts for its own entity and, for a merchant token, that merchant's channels. */
  async mayActFor(principal: TokenPrincipal, entityId: string): Promise<boolean> {
    if (principal.entityId === entityId) return true;
    if (principal.entityKind !== 'merchant') return false;
    const key = `${principal.entityId}:${entityId}`;
    if (this.#fresh(this.#scopes, key)) return true;
    const allowed = await isEntityWithinMerchant(this.storage, principal.entityId, entityId);
    if (allowed) this.#remember(this.#scopes, key, true);
    return allowed;
  }

  /**
   * Legacy fields are accepted when both the credential's entity and the entity acted for allow
   * them (a merchant's credential acting for a channel that turned them off is refused).
   */
  async legacyAuthAllowedFor(principal: TokenPrincipal, entityId: string): Promise<boolean> {
    if (!principal.legacyAuth) return false;
    if (principal.entityId === entityId) return true;
    const cached = this.#fresh(this.#legacyAuth, entityId);
    if (cached !== undefined) return cached;
    const allowed = await isLegacyAuthEnabled(this.storage, entityId);
    this.#remember(this.#legacyAuth, entityId, allowed);
    return allowed;
  }

  /** After the entity's legacy switch changed: at once here, within PRINCIPAL_CACHE_TTL_MS elsewhere. */
  forgetEntity(entityId: string): void {
    this.#legacyAuth.delete(entityId);
    for (const [hash, entry] of this.#tokens) if (entry.value.entityId === entityId) this.#tokens.delete(hash);
  }

  /**
   * The entity's unknown-parameter setting, cached like the principals: a change takes effect at
   * once in the process that made it and within PRINCIPAL_CACHE_TTL_MS in the others.
   */
  async unknownParametersOf(entityId: string): Promise<UnknownParameterMode> {
    const cached = this.#fresh(this.#unknownParameters, entityId);
    if (cached) return cached;
    const mode = (await findUnknownParameterMode(this.storage, entityId)) ?? 'reject';
    this.#remember(this.#unknownParameters, entityId, mode);
    return mode;
  }

  /** Whether the entity's answers show connector details (migration 038), cached the same way. */
  async connectorDetailsShownFor(entityId: string): Promise<boolean> {
    const cached = this.#fresh(this.#connectorDetails, entityId);
    if (cached !== undefined) return cached;
    const shown = (await findShowConnectorDetails(this.storage, entityId)) ?? true;
    this.#remember(this.#connectorDetails, entityId, shown);
    return shown;
  }

  /** The entity's own throttling limit (migration 057), null for the gateway's; cached the same way. */
  async throttleLimitOf(entityId: string): Promise<number | null> {
    const cached = this.#fresh(this.#throttleLimits, entityId);
    if (cached !== undefined) return cached;
    const limit = (await findThrottleMaxRequests(this.storage, entityId)) ?? null;
    this.#remember(this.#throttleLimits, entityId, limit);
    return limit;
  }

  forgetEntitySettings(entityId: string): void {
    this.#unknownParameters.delete(entityId);
    this.#connectorDetails.delete(entityId);
    this.#throttleLimits.delete(entityId);
  }

  forgetToken(tokenId: string): void {
    for (const [hash, entry] of this.#tokens) if (entry.value.tokenId === tokenId) this.#tokens.delete(hash);
  }

  #fresh<T>(cache: Map<string, Cached<T>>, key: string): T | undefined {
    const entry = cache.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs > this.clock.now().getTime()) return entry.value;
    cache.delete(key);
    return undefined;
  }

  #remember<T>(cache: Map<string, Cached<T>>, key: string, value: T): void {
    if (cache.size >= CACHE_ENTRIES_MAX) cache.clear();
    cache.set(key, { value, expiresAtMs: this.clock.now().getTime() + PRINCIPAL_CACHE_TTL_MS });
  }
}
