/**
 * Name patterns and concrete names. A pattern such as `cart.items[n].recipient.city` is a list of
 * segments; a concrete name such as `cart.items[3].recipient.city` fills the placeholders.
 */

export type Segment =
  | { readonly kind: 'property'; readonly key: string }
  | { readonly kind: 'index' } // [n]
  | { readonly kind: 'mapKey' } // [name], [key], [brand]
  | { readonly kind: 'literalKey'; readonly key: string }; // [NF-ITEMSNB]: a fixed key of a map

const MAP_PLACEHOLDERS: ReadonlySet<string> = new Set(['name', 'key', 'brand']);
const TOKEN = /([^.[\]]+)|\[([^\]]*)\]/g;

export function parsePattern(pattern: string): readonly Segment[] {
  const segments: Segment[] = [];
  for (const match of pattern.matchAll(TOKEN)) {
    if (match[1] !== undefined) segments.push({ kind: 'property', key: match[1] });
    else if (match[2] === 'n') segments.push({ kind: 'index' });
    else if (MAP_PLACEHOLDERS.has(match[2]!)) segments.push({ kind: 'mapKey' });
    else segments.push({ kind: 'literalKey', key: match[2]! });
  }
  return segments;
}

export function hasIndex(pattern: string): boolean {
  return pattern.includes('[n]');
}

export function hasMapKey(pattern: string): boolean {
  return /\[(name|key|brand)\]/.test(pattern);
}

/** The pattern's text before and after its map placeholder: `customParameters[` and `]`. */
export function splitAtMapKey(pattern: string): { readonly prefix: string; readonly suffix: string } {
  const match = /\[(name|key|brand)\]/.exec(pattern)!;
  return { prefix: pattern.slice(0, match.index + 1), suffix: pattern.slice(match.index + match[0].length - 1) };
}

export interface IndexedName {
  /** The name with every numeric index replaced by [n]. */
  readonly pattern: string;
  readonly indexes: readonly number[];
}

/**
 * `cart.items[3].name` → `cart.items[n].name`, [3]. Indexes with leading zeros are refused
 * (undefined), so `items[01]` and `items[1]` can never both name the same item.
 */
export function normaliseIndexes(name: string): IndexedName | undefined {
  // A hand-written scan: String.replace with a callback costs ten times as much on the hot path.
  const indexes: number[] = [];
  let pattern = '';
  let copiedUpTo = 0;
  for (let open = name.indexOf('['); open !== -1; open = name.indexOf('[', open + 1)) {
    let end = open + 1;
    while (end < name.length && name.charCodeAt(end) >= 48 && name.charCodeAt(end) <= 57) end += 1;
    if (end === open + 1 || name.charCodeAt(end) !== 93 /* ] */) continue;
    if (end - open > 2 && name.charCodeAt(open + 1) === 48 /* 0 */) return undefined;
    // Precision is lost beyond 2^53, which is fine: such an index fails the item limit anyway.
    indexes.push(Number(name.slice(open + 1, end)));
    pattern += `${name.slice(copiedUpTo, open)}[n]`;
    copiedUpTo = end + 1;
  }
  return { pattern: pattern + name.slice(copiedUpTo), indexes };
}

/** The concrete name of a pattern for given indexes and map key; used for samples and tests. */
export function concreteName(pattern: string, indexes: readonly number[] = [], mapKey = 'key'): string {
  let next = 0;
  return pattern
    .replace(/\[n\]/g, () => `[${indexes[next++] ?? 0}]`)
    .replace(/\[(name|key|brand)\]/, `[${mapKey}]`);
}

/** The first segment of a name (`customer`, `cart`, `customParameters`), for grouping. */
export function rootOf(name: string): string {
  const end = name.search(/[.[]/);
  return end === -1 ? name : name.slice(0, end);
}
