import type { Visibility } from '../../domain/access/actor.js';
import { outcomeGroupOf } from '../../domain/outcome-group.js';
import { decodeCursor, encodeCursor, type SearchCursor } from '../../domain/payment-search/search-cursor.js';
import type { PaymentSearch } from '../../domain/payment-search/search-filter.js';
import { resultCodes } from '../../results/catalogue.js';
import type { Queryable, StaleReads } from '../../storage/port.js';
import { merchantEntityIds, searchPayments as searchRows, type SearchRow } from '../../storage/repositories/payment-search.js';

/**
 * The console's search and export read with a bounded staleness (storage/port.ts StaleReads); a
 * merchant's people see the merchant's own writes at once.
 */
export interface SearchDeps {
  readonly reads: StaleReads;
}

/** The stale-tolerant side for this person: a merchant's own writes must show. */
export function searchSide(deps: SearchDeps, visibility: Visibility): Queryable {
  return deps.reads.tolerant(visibility.kind === 'merchant' ? visibility.merchantId : undefined);
}

/** Rows a console page shows. */
export const SEARCH_PAGE_ROWS = 50;

export interface SearchPage {
  readonly rows: readonly SearchRow[];
  /** Cursor of the page after this one; absent on the last page. */
  readonly next: string | undefined;
  /** Cursor of the page before this one; absent on the first page. */
  readonly previous: string | undefined;
}

/** A cursor that this search did not make (another sort, edited, truncated). */
export class InvalidCursorError extends Error {
  constructor() {
    super('not a cursor of this search');
    this.name = 'InvalidCursorError';
  }
}

/** The result codes of a group, from the result catalogue (outcome-group.ts decides each). */
function groupCodes(search: PaymentSearch): readonly string[] | null {
  const group = search.filter.resultGroup;
  if (group === undefined) return null;
  return [...resultCodes.keys()].filter((code) => outcomeGroupOf(code) === group);
}

/** The entities the person may see, for the query's own WHERE: null for every entity. */
export async function visibleEntityIds(db: Queryable, visibility: Visibility): Promise<readonly string[] | null> {
  return visibility.kind === 'all' ? null : merchantEntityIds(db, visibility.merchantId);
}

const cursorOf = (search: PaymentSearch, direction: SearchCursor['direction'], row: SearchRow): string =>
  encodeCursor({ sort: search.sort, order: search.order, direction, key: search.sort === 'created' ? row.createdAt : row.amountMinor.toString(), id: row.id });

/**
 * One page of payments the person may see, matching the search, in its order; keyset
 * pagination (no count: counting ten million rows is what makes other consoles slow).
 */
export async function searchPaymentsPage(
  deps: SearchDeps,
  visibility: Visibility,
  search: PaymentSearch,
  cursorText: string | undefined,
  pageRows = SEARCH_PAGE_ROWS,
): Promise<SearchPage> {
  const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText, search.sort, search.order);
  if (cursorText !== undefined && cursor === undefined) throw new InvalidCursorError();
  const db = searchSide(deps, visibility);
  const entityIds = await visibleEntityIds(db, visibility);
  const rows = await searchRows(db, { search, entityIds, groupCodes: groupCodes(search), cursor, limit: pageRows + 1 });
  const more = rows.length > pageRows;
  if (cursor?.direction === 'before') {
    // Read backwards and turned round: the extra row, if any, is the first.
    const page = more ? rows.slice(1) : rows;
    return { rows: page, next: page.length > 0 ? cursorOf(search, 'after', page[page.length - 1]!) : undefined, previous: more ? cursorOf(search, 'before', page[0]!) : undefined };
  }
  const page = more ? rows.slice(0, pageRows) : rows;
  return {
    rows: page,
    next: more ? cursorOf(search, 'after', page[page.length - 1]!) : undefined,
    previous: cursor && page.length > 0 ? cursorOf(search, 'before', page[0]!) : undefined,
  };
}

/** Every row of a search, page after page (memory flat: one page at a time), for the export. */
export async function* allSearchRows(
  deps: SearchDeps,
  visibility: Visibility,
  search: PaymentSearch,
  pageRows = 1000,
): AsyncGenerator<SearchRow> {
  // Each page is a statement of its own (keyset pagination, no cursor held open): a transaction
  // pooler may hand every page to another server connection, and each page decides anew
  // between replica and leader.
  const db = searchSide(deps, visibility);
  const entityIds = await visibleEntityIds(db, visibility);
  const codes = groupCodes(search);
  let cursor: SearchCursor | undefined;
  for (;;) {
    const rows = await searchRows(db, { search, entityIds, groupCodes: codes, cursor, limit: pageRows });
    yield* rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    cursor = { sort: search.sort, order: search.order, direction: 'after', key: search.sort === 'created' ? last.createdAt : last.amountMinor.toString(), id: last.id };
  }
}
