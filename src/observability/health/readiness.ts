/**
 * The readiness decision as pure rules over what the checks found (checks.ts does the I/O). A
 * check's state is `ok` or a few words saying what is wrong: never a secret, an address or a
 * connection string, since GET /health/ready is public.
 */
export const OK = 'ok';
export type CheckState = string;

export type ReadinessStatus = 'ok' | 'not ready' | 'draining';

export interface ReadinessReport {
  readonly ready: boolean;
  readonly body: { readonly status: ReadinessStatus; readonly checks?: Readonly<Record<string, CheckState>> };
}

/**
 * Ready only when every check is `ok` and the process is not shutting down. A draining process is
 * not asked about its checks: it is leaving, whatever they say.
 */
export function decideReadiness(checks: Readonly<Record<string, CheckState>>, draining: boolean): ReadinessReport {
  if (draining) return { ready: false, body: { status: 'draining' } };
  const ready = Object.values(checks).every((state) => state === OK);
  return { ready, body: { status: ready ? 'ok' : 'not ready', checks } };
}

const threeDigits = (version: number) => String(version).padStart(3, '0');

/**
 * The applied migrations must be exactly those this build ships. Behind: the schema lacks what the
 * code needs. Ahead: a newer build migrated the database, and this code does not know its schema.
 */
export function migrationsState(applied: readonly number[], shipped: readonly number[]): CheckState {
  const appliedSet = new Set(applied);
  const shippedSet = new Set(shipped);
  const missing = shipped.filter((version) => !appliedSet.has(version)).sort((a, b) => a - b);
  const unknown = applied.filter((version) => !shippedSet.has(version)).sort((a, b) => a - b);
  if (missing.length > 0) {
    const latest = Math.max(...applied.filter((version) => shippedSet.has(version)));
    const appliedText = Number.isFinite(latest) ? `${threeDigits(latest)} applied` : 'none applied';
    return `behind: ${appliedText}, ${missing.map(threeDigits).join(', ')} expected`;
  }
  if (unknown.length > 0) return `ahead: ${unknown.map(threeDigits).join(', ')} applied, unknown to this build`;
  return OK;
}

/** Some job worker must have beaten recently (jobs always run somewhere: a gateway or `npm run worker`). */
export function heartbeatState(newestAgeMs: number | undefined, maxAgeMs: number): CheckState {
  if (newestAgeMs === undefined) return 'no job worker heartbeat';
  if (newestAgeMs > maxAgeMs) return `last heartbeat ${Math.round(newestAgeMs / 1000)} s ago (limit ${Math.round(maxAgeMs / 1000)} s)`;
  return OK;
}

/**
 * An ISO 8583 pool is ready with at least one signed-on link: payments go to the open ones while
 * the pool reopens the rest. None after trying means every payment routed there would fail.
 */
export function linksState(signedOn: number, size: number): CheckState {
  return signedOn > 0 ? OK : `no link signed on (0 of ${size})`;
}
