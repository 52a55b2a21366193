/**
 * How long a challenge's redirect stays open (docs/three-d-secure.md, "The challenge's edges").
 * A challenge of the gateway's own 3DS server (a protocol challenge: an ARes C, with the ACS's
 * RReq to come) waits for that RReq THREE_DS_SERVER_CHALLENGE_TIMEOUT_MINUTES at most; once the
 * RReq has come, the shopper has the redirect's whole life (REDIRECT_EXPIRY_MINUTES from the
 * start) to bring the final CRes back. The simulator's challenge, which has no RReq, has the
 * redirect's life. Either way the expiry job (jobs/expire-redirects.ts) ends what is left open.
 */
export interface ChallengeLimits {
  readonly redirectExpiryMs: number;
  readonly challengeTimeoutMs: number;
}

/** When a challenge opened at `openedAt` ends unless it is completed first. */
export function challengeExpiresAt(openedAt: Date, limits: ChallengeLimits, awaitsRReq: boolean): Date {
  const lifeMs = awaitsRReq ? Math.min(limits.challengeTimeoutMs, limits.redirectExpiryMs) : limits.redirectExpiryMs;
  return new Date(openedAt.getTime() + lifeMs);
}

/** A protocol challenge whose RReq has come: open until the redirect's usual end. */
export function expiresAtAfterResult(openedAt: Date, limits: Pick<ChallengeLimits, 'redirectExpiryMs'>): Date {
  return new Date(openedAt.getTime() + limits.redirectExpiryMs);
}
