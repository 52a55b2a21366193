import { deleteApiRequestsBefore } from '../storage/repositories/api-request-log.js';
import type { JobHandler } from './job-types.js';
import { pruneOlderRowsHandler, type PruneDeps } from './prune-older-rows.js';

export const PRUNE_REQUEST_LOG_JOB = 'prune-request-log';

/**
 * 'prune-request-log': the one durable job (written by migration 051) that deletes API requests
 * older than REQUEST_LOG_RETENTION_DAYS, so the request log stays the size of its retention.
 */
export function pruneRequestLogHandler(deps: PruneDeps & { readonly retentionDays: number }): JobHandler {
  return pruneOlderRowsHandler(
    { kind: PRUNE_REQUEST_LOG_JOB, rows: 'old API requests of the request log', cutoff: (now) => new Date(now.getTime() - deps.retentionDays * 86_400_000), deleteBefore: deleteApiRequestsBefore },
    deps,
  );
}
