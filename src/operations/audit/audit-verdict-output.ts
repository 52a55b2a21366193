import type { ChainVerdict } from '../../domain/audit/audit-entry.js';

/** A verdict as JSON answers it (the command line, the admin API): the entry number as a string. */
export function auditVerdictOutput(verdict: ChainVerdict) {
  return verdict.ok
    ? { ok: true, entries: verdict.entries, headHash: verdict.headHash }
    : { ok: false, entries: verdict.entries, brokenAt: verdict.brokenAt.toString(), reason: verdict.reason };
}
