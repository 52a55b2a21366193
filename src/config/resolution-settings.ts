import { readInteger, readOptional, type Env } from './env-readers.js';

/** How pending transactions are resolved, and how long a connector and an idempotent request may take. */
export interface ResolutionSettings {
  /** After this long without an answer a connector's outcome is unknown, stored as pending. */
  readonly connectorTimeoutMs: number;
  /** The waits between status queries of a pending transaction, the first counted from its creation; the last repeats. */
  readonly checkDelaysMinutes: readonly number[];
  /** A transaction still pending this long after its creation is ended (100.396.103). */
  readonly horizonHours: number;
  /** How often the sweep looks for pending transactions that have no check yet. */
  readonly sweepIntervalMs: number;
  /** An in-flight Idempotency-Key is held this long, renewed while its request runs. */
  readonly idempotencyLeaseMs: number;
  /** A shopper redirect (provider page, 3-D Secure challenge) nobody completes ends after this long. */
  readonly redirectExpiryMs: number;
  /** How often the expiry job looks for such redirects. */
  readonly redirectSweepIntervalMs: number;
}

export const RESOLUTION_VARIABLES = [
  ['CONNECTOR_TIMEOUT_MS', '30000', 'A connector (acquirer) must answer within this time; after it the payment is stored as pending and resolved later by a status query. Must be shorter than HANDLER_TIMEOUT_MS.'],
  ['PENDING_CHECK_DELAYS_MINUTES', '5,15,60,240,720,1440', 'Minutes between status queries of a pending transaction, the first counted from its creation; the last value repeats (so, daily) until the horizon.'],
  ['PENDING_HORIZON_HOURS', '168', 'A transaction still pending this many hours after its creation is ended as rejected with 100.396.103.'],
  ['PENDING_SWEEP_INTERVAL_MS', '60000', 'How often the resolution sweep looks for pending transactions to check.'],
  ['REDIRECT_EXPIRY_MINUTES', '30', 'A shopper redirect (a provider page, a 3-D Secure challenge) that is not completed within this time expires: the payment is rejected (100.396.104, or 100.390.124 for a challenge) with a notification. Decimals allowed (tests).'],
  ['REDIRECT_SWEEP_INTERVAL_MS', '15000', 'How often the expiry job looks for redirects past their time.'],
  ['IDEMPOTENCY_LEASE_MS', '30000', 'How long an in-flight Idempotency-Key stays held without its request renewing it; after it, a retry takes the key over.'],
] as const;

const DEFAULT_DELAYS = [5, 15, 60, 240, 720, 1440];
const MINUTES_PER_YEAR = 525_600;

function readDelays(env: Env, problems: string[]): readonly number[] {
  const raw = readOptional(env, 'PENDING_CHECK_DELAYS_MINUTES');
  if (raw === undefined) return DEFAULT_DELAYS;
  const parts = raw.split(',').map((part) => part.trim());
  // Fractions of a minute are for tests and rehearsals (the fault suite resolves in seconds).
  const valid = (part: string) => /^[0-9]{1,6}(\.[0-9]{1,3})?$/.test(part) && Number(part) >= 0.01 && Number(part) <= MINUTES_PER_YEAR;
  if (parts.length > 50 || !parts.every(valid)) {
    problems.push(`PENDING_CHECK_DELAYS_MINUTES=${JSON.stringify(raw)} must be 1 to 50 comma-separated numbers of minutes from 0.01 to ${MINUTES_PER_YEAR}`);
    return DEFAULT_DELAYS;
  }
  return parts.map(Number);
}

export function collectResolutionSettings(env: Env, problems: string[]): ResolutionSettings {
  const connectorTimeoutMs = readInteger(env, 'CONNECTOR_TIMEOUT_MS', 30_000, 100, 600_000, problems);
  const checkDelaysMinutes = readDelays(env, problems);
  // The first status query must not overtake a request that is still waiting for its connector.
  if (checkDelaysMinutes[0]! * 60_000 <= connectorTimeoutMs) {
    problems.push('the first of PENDING_CHECK_DELAYS_MINUTES must be longer than CONNECTOR_TIMEOUT_MS');
  }
  const idempotencyLeaseMs = readInteger(env, 'IDEMPOTENCY_LEASE_MS', 30_000, 1_000, 3_600_000, problems);
  return Object.freeze({
    connectorTimeoutMs,
    checkDelaysMinutes: Object.freeze([...checkDelaysMinutes]),
    horizonHours: readInteger(env, 'PENDING_HORIZON_HOURS', 168, 1, 87_600, problems),
    sweepIntervalMs: readInteger(env, 'PENDING_SWEEP_INTERVAL_MS', 60_000, 100, 86_400_000, problems),
    idempotencyLeaseMs,
    redirectExpiryMs: readRedirectExpiryMs(env, problems),
    redirectSweepIntervalMs: readInteger(env, 'REDIRECT_SWEEP_INTERVAL_MS', 15_000, 100, 3_600_000, problems),
  });
}

function readRedirectExpiryMs(env: Env, problems: string[]): number {
  const raw = readOptional(env, 'REDIRECT_EXPIRY_MINUTES');
  if (raw === undefined) return 30 * 60_000;
  if (!/^[0-9]{1,5}(\.[0-9]{1,3})?$/.test(raw) || Number(raw) < 0.01 || Number(raw) > 10_080) {
    problems.push(`REDIRECT_EXPIRY_MINUTES=${JSON.stringify(raw)} must be a number of minutes from 0.01 to 10080 (a week)`);
    return 30 * 60_000;
  }
  return Math.round(Number(raw) * 60_000);
}
