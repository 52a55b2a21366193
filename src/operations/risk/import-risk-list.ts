import { parse } from 'csv-parse/sync';
import { LIST_KINDS, type ListKind } from '../../domain/risk/facts.js';
import { parseListKind, parseListValue } from '../../domain/risk/list-values.js';
import { GatewayError } from '../../results/gateway-error.js';
import { insertChange, insertListEntry } from '../../storage/repositories/risk-config.js';
import { existingEntity, listNameOf, type RiskConfigDeps } from './configure-risk.js';

/** Enough for a list kept in a spreadsheet; a larger one goes through the admin API in parts. */
export const IMPORT_LINES_MAX = 5000;
const REASON_MAX = 500;

interface ImportLine { readonly line: number; readonly kind: ListKind; readonly value: string; readonly reason: string | null }

/** A problem of one line: its number and what is wrong, never the value (it may be a card number). */
function lineError(line: number, message: string) {
  return { name: 'csv', value: '', message: `line ${line}: ${message}` };
}

function refused(errors: readonly { name: string; value: string; message: string }[]): GatewayError {
  return new GatewayError('200.300.404', { parameterErrors: errors.slice(0, 100) });
}

/** The CSV's records with their line numbers; a malformed CSV is refused at its line. */
function recordsOf(csv: string): { line: number; fields: string[] }[] {
  try {
    // One line ending: csv-parse takes the first it meets for the whole file, and a file pasted from
    // a spreadsheet may mix CRLF and LF.
    const rows = parse(csv.replace(/\r\n?/g, '\n'), { info: true, relax_column_count: true, skip_empty_lines: true, trim: true, comment: '#', bom: true }) as unknown as { record: string[]; info: { lines: number } }[];
    return rows.map((r) => ({ line: r.info.lines, fields: r.record }));
  } catch (error) {
    // csv-parse's message can quote the line: only its line number and kind of fault are answered.
    const line = (error as { lines?: number }).lines ?? 0;
    throw refused([lineError(line, `the CSV is malformed (${String((error as { code?: string }).code ?? 'parse error').toLowerCase().replaceAll('_', ' ')})`)]);
  }
}

function checkLine(record: { line: number; fields: string[] }): ImportLine | { error: ReturnType<typeof lineError> } {
  const [kindText = '', value = '', reason = '', ...rest] = record.fields;
  if (rest.length > 0) return { error: lineError(record.line, 'has more than three fields (kind, value, reason)') };
  const kind = parseListKind(kindText.toLowerCase());
  if (!kind) return { error: lineError(record.line, `kind must be one of ${LIST_KINDS.join(', ')}`) };
  const parsed = parseListValue(kind, value);
  if ('error' in parsed) return { error: lineError(record.line, `value ${parsed.error}`) };
  if (reason.length > REASON_MAX) return { error: lineError(record.line, `reason must be at most ${REASON_MAX} characters`) };
  return { line: record.line, kind, value, reason: reason === '' ? null : reason };
}

/** Every line checked first: one bad line refuses the whole file (named by line), nothing added. */
export function parseRiskListCsv(csv: string): ImportLine[] {
  const records = recordsOf(csv).filter((r, index) => !(index === 0 && r.fields[0]?.toLowerCase() === 'kind'));
  if (records.length === 0) throw refused([lineError(0, 'the CSV has no entries: one line per entry, kind,value[,reason]')]);
  if (records.length > IMPORT_LINES_MAX) throw refused([lineError(records[IMPORT_LINES_MAX]!.line, `at most ${IMPORT_LINES_MAX} entries at a time`)]);
  const checked = records.map(checkLine);
  const errors = checked.flatMap((c) => ('error' in c ? [c.error] : []));
  if (errors.length > 0) throw refused(errors);
  return checked as ImportLine[];
}

/**
 * A CSV of entries (kind,value[,reason] per line; a first line `kind,value,reason` is a header)
 * added to one list in one transaction: cards and IBANs fingerprinted by the vault exactly as the
 * one-entry add does. An entry already listed is counted, not added twice.
 */
export async function importRiskList(deps: RiskConfigDeps, input: { entityId: string; list: string; csv: string; changedBy: string }) {
  const entityId = await existingEntity(deps, input.entityId);
  const list = listNameOf(input.list);
  const lines = parseRiskListCsv(input.csv);
  const now = deps.clock.now();
  const shownAdded: string[] = [];
  let alreadyListed = 0;
  await deps.storage.transaction(async (tx) => {
    for (const line of lines) {
      const parsed = parseListValue(line.kind, line.value) as Exclude<ReturnType<typeof parseListValue>, { error: string }>;
      const value = parsed.secret ? await deps.vault.fingerprint(parsed.kind, parsed.number) : parsed.value;
      const inserted = await insertListEntry(tx, { entityId, list, kind: line.kind, value, shown: parsed.shown, reason: line.reason, addedBy: input.changedBy, addedAt: now });
      if (inserted) shownAdded.push(`${line.kind} ${parsed.shown}`);
      else alreadyListed += 1;
    }
    if (shownAdded.length > 0) await insertChange(tx, entityId, input.changedBy, now, `${list}list.import`, { added: shownAdded.length, alreadyListed });
  });
  deps.forgetRiskSettings?.();
  return { entityId, list, added: shownAdded.length, alreadyListed, entries: shownAdded.slice(0, 100) };
}
