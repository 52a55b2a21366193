import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Visibility } from '../../domain/access/actor.js';
import type { AuditEntry } from '../../domain/audit/audit-entry.js';
import { spreadsheetSafe } from '../../domain/spreadsheet-cell.js';
import { listAuditEntries, type AuditListFilter } from '../../storage/repositories/audit-log.js';
import type { OperationDeps } from '../deps.js';

export const AUDIT_PAGE_SIZE = 50;
/** Entries read a page when exporting: memory stays flat however long the log. */
const EXPORT_PAGE_SIZE = 1000;

export type AuditFilter = Omit<AuditListFilter, 'merchantId'>;

function scoped(visibility: Visibility, filter: AuditFilter): AuditListFilter {
  return visibility.kind === 'merchant' ? { ...filter, merchantId: visibility.merchantId } : filter;
}

export function parseAuditCursor(cursor: string | undefined): bigint | undefined {
  return cursor !== undefined && /^\d{1,19}$/.test(cursor) ? BigInt(cursor) : undefined;
}

/**
 * The audit log as a person may read it, newest first: operators every entry, a merchant's
 * admins the entries about their merchant (and its channels) only.
 */
export async function listVisibleAuditEntries(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, filter: AuditFilter, cursor: string | undefined) {
  const rows = await listAuditEntries(deps.storage, scoped(visibility, filter), parseAuditCursor(cursor), AUDIT_PAGE_SIZE + 1);
  const entries = rows.slice(0, AUDIT_PAGE_SIZE);
  return { entries, next: rows.length > AUDIT_PAGE_SIZE ? entries.at(-1)!.seq.toString() : undefined };
}

export const AUDIT_CSV_COLUMNS = ['seq', 'at', 'actor', 'actorKind', 'role', 'address', 'merchantId', 'action', 'targetKind', 'targetId', 'before', 'after', 'prevHash', 'hash'] as const;

function csvRow(entry: AuditEntry): string[] {
  const json = (value: unknown) => (value === null ? '' : JSON.stringify(value));
  const cells = [entry.seq.toString(), entry.at.toISOString(), entry.actor, entry.actorKind, entry.role ?? '', entry.address ?? '', entry.merchantId ?? '', entry.action,
    entry.targetKind, entry.targetId, json(entry.before), json(entry.after), entry.prevHash, entry.hash];
  return cells.map(spreadsheetSafe);
}

async function* visibleEntries(deps: Pick<OperationDeps, 'storage'>, filter: AuditListFilter): AsyncGenerator<string[]> {
  let before: bigint | undefined;
  for (;;) {
    const page = await listAuditEntries(deps.storage, filter, before, EXPORT_PAGE_SIZE);
    for (const entry of page) yield csvRow(entry);
    if (page.length < EXPORT_PAGE_SIZE) return;
    before = page.at(-1)!.seq;
  }
}

/** The same entries as CSV, streamed page by page, with the hashes so an export can be checked against the chain. */
export function auditLogCsv(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, filter: AuditFilter): Readable {
  const csv = stringify({ header: true, columns: [...AUDIT_CSV_COLUMNS], record_delimiter: 'unix' });
  // pipeline destroys csv with a failed read's error, so the download ends broken rather than short and "complete".
  pipeline(Readable.from(visibleEntries(deps, scoped(visibility, filter))), csv).catch(() => undefined);
  return csv;
}
