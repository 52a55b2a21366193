import type { SortKey, SortOrder } from './search-filter.js';

/**
 * A place in a sorted search (keyset pagination): the sort key of a row and its id, which breaks
 * ties, so a page starts exactly after (or before) the row it names whatever rows share its key.
 * Opaque to the person (base64url of JSON) and bound to the sort it was made for. It is only a
 * position: tampering with it moves the page, never past what the person may see (that is the
 * query's own condition).
 */
export interface SearchCursor {
  readonly sort: SortKey;
  readonly order: SortOrder;
  /** 'after': the page after this row in the sort's order; 'before': the page before it. */
  readonly direction: 'after' | 'before';
  /** created_at to the microsecond (ISO, UTC) or amount_minor, as text. */
  readonly key: string;
  readonly id: string;
}

const KEY_PATTERNS: Readonly<Record<SortKey, RegExp>> = {
  created: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
  amount: /^\d{1,19}$/,
};

export function encodeCursor(cursor: SearchCursor): string {
  const compact = [cursor.sort, cursor.order, cursor.direction, cursor.key, cursor.id];
  return Buffer.from(JSON.stringify(compact), 'utf8').toString('base64url');
}

/** The cursor, if the text is one this search could have made; undefined otherwise. */
export function decodeCursor(text: string, sort: SortKey, order: SortOrder): SearchCursor | undefined {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 5 || !parts.every((p) => typeof p === 'string')) return undefined;
  const [cSort, cOrder, direction, key, id] = parts as string[];
  if (cSort !== sort || cOrder !== order) return undefined;
  if (direction !== 'after' && direction !== 'before') return undefined;
  if (!KEY_PATTERNS[sort].test(key!) || !/^[0-9a-f]{32}$/.test(id!)) return undefined;
  return { sort, order, direction, key: key!, id: id! };
}
