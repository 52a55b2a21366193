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
  const ready = Object.values(checks).every(passes);
  return { ready, body: { status: ready ? 'ok' : 'not ready', checks } };
}

/**
 * `ok`, or `ok (…)`: a state worth showing that must not take the process out of the load
 * balancer (a database a newer build migrated; a worker fleet of its own that stopped beating).
 */
export function passes(state: CheckState): boolean {
  return state === OK || state.startsWith(`${OK} (`);
}

const noted = (note: string): CheckState => `${OK} (${note})`;

const threeDigits = (version: number) => String(version).padStart(3, '0');

/**
 * Every migration this build ships must be applied. Behind: the schema lacks what the code needs.
 * Ahead (a newer build migrated the database during a rolling upgrade) passes, noted: migrations
 * only add (columns with defaults, tables, indexes), so the old build keeps working on the new
 * schema, and failing it would take every old process out of the load balancer at once.
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
  if (unknown.length > 0) return noted(`ahead: ${unknown.map(threeDigits).join(', ')} applied, unknown to this build`);
  return OK;
}

/**
 * Some job worker must have beaten recently. It counts where the gateways run the jobs themselves
 * (WORKERS_IN_GATEWAY=true): a gateway whose own job loop is gone is broken. With a worker fleet of
 * its own (WORKERS_IN_GATEWAY=false) a silent fleet is reported but passes: the gateways still take
 * payments, and taking every one of them out of the load balancer for a background outage would
 * turn late notifications into no payments at all (the GatewayJobOverdue alert pages instead).
 */
export function heartbeatState(newestAgeMs: number | undefined, maxAgeMs: number, counted = true): CheckState {
  const problem = newestAgeMs === undefined ? 'no job worker heartbeat' : newestAgeMs > maxAgeMs ? `last heartbeat ${Math.round(newestAgeMs / 1000)} s ago (limit ${Math.round(maxAgeMs / 1000)} s)` : undefined;
  if (problem === undefined) return OK;
  return counted ? problem : noted(`not counted, the workers run apart: ${problem}`);
}

/**
 * An ISO 8583 pool is ready with at least one signed-on link: payments go to the open ones while
 * the pool reopens the rest. None after trying means every payment routed there would fail.
 */
export function linksState(signedOn: number, size: number): CheckState {
  return signedOn > 0 ? OK : `no link signed on (0 of ${size})`;
}
