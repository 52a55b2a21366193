import { WINDOW_MINUTES_MAX } from '../domain/risk/parse-rule-set.js';
import { deleteAttemptsBefore } from '../storage/repositories/risk-attempts.js';
import type { JobHandler } from './job-types.js';
import { pruneOlderRowsHandler, type PruneDeps } from './prune-older-rows.js';

export const PRUNE_RISK_ATTEMPTS_JOB = 'prune-risk-attempts';

export type PruneRiskAttemptsDeps = PruneDeps;

/**
 * 'prune-risk-attempts': the one durable job (written by migration 021) that deletes velocity
 * attempts older than the longest window a rule may have (a week), so the table stays the size
 * of a week's traffic.
 */
export function pruneRiskAttemptsHandler(deps: PruneRiskAttemptsDeps): JobHandler {
  return pruneOlderRowsHandler(
    { kind: PRUNE_RISK_ATTEMPTS_JOB, rows: 'old risk attempts', cutoff: (now) => new Date(now.getTime() - WINDOW_MINUTES_MAX * 60_000), deleteBefore: deleteAttemptsBefore },
    deps,
  );
}
