import { entryBreak, GENESIS_HASH, type ChainVerdict } from '../../domain/audit/audit-entry.js';
import { readAuditEntriesAfter, readAuditHead } from '../../storage/repositories/audit-log.js';
import type { Storage } from '../../storage/port.js';

/** Entries read per page: memory stays flat however long the log. */
const VERIFY_PAGE_SIZE = 1000;

/**
 * Walks the whole audit log in chain order and recomputes every hash: an edited row, a removed
 * one, or rows put in another order are found at the first entry they break. The head (the last
 * seq and hash every append updates) must match the last entry, which catches entries cut off the end.
 */
export async function verifyAuditChain(storage: Pick<Storage, 'query'>): Promise<ChainVerdict> {
  let previous = { seq: 0n, hash: GENESIS_HASH };
  let entries = 0;
  for (;;) {
    const page = await readAuditEntriesAfter(storage, previous.seq, VERIFY_PAGE_SIZE);
    for (const entry of page) {
      const reason = entryBreak(entry, previous);
      if (reason) return { ok: false, entries, brokenAt: entry.seq, reason };
      previous = { seq: entry.seq, hash: entry.hash };
      entries += 1;
    }
    if (page.length < VERIFY_PAGE_SIZE) break;
  }
  const head = await readAuditHead(storage);
  if (head.seq !== previous.seq || head.hash !== previous.hash) {
    return { ok: false, entries, brokenAt: previous.seq + 1n, reason: `the log ends at entry ${previous.seq} but its head says ${head.seq}: entries were removed from the end` };
  }
  return { ok: true, entries, headHash: head.hash };
}
