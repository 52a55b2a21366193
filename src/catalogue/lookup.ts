import { cardNumberMinDigits } from './card-number-fields.js';
import { hasIndex, hasMapKey, normaliseIndexes, parsePattern, rootOf, splitAtMapKey, type Segment } from './names.js';
import type { Endpoint, ParameterRow } from './types.js';

/**
 * Name patterns compiled once at module load into an exact-name Map, a Map of index patterns, and
 * a short list of map matchers, so that resolving a name costs one or two Map look-ups.
 */

export interface CompiledRow {
  readonly row: ParameterRow;
  /** Position in the catalogue: format errors are reported in this order. */
  readonly order: number;
  readonly segments: readonly Segment[];
  /** The first segment of the name, which groups fields for the rules. */
  readonly root: string;
  /** The resolution of the row's own name when it has no placeholder, shared to spare allocations. */
  readonly plain: ResolvedName;
  /** Characters the last segment takes at the end of a concrete name, when fixed (`.city` → 5). */
  readonly lastSegmentLength?: number;
  /** The parent's name when it has no index (`customer.browser`), the same for every request. */
  readonly staticParent?: string;
  /** Values with a Luhn-valid run of this many digits or more are refused; undefined: exempt. */
  readonly cardNumberMinDigits?: number;
}

export interface ResolvedName {
  readonly compiled: CompiledRow;
  readonly indexes: readonly number[];
  /** The key of a map row (`customParameters[SHOPPER_x]` → `SHOPPER_x`). */
  readonly mapKey?: string;
}

interface MapMatcher {
  readonly prefix: string;
  readonly suffix: string;
  readonly compiled: CompiledRow;
}

/** Resolved bracketed names kept for reuse; cleared when full, so hostile names cannot grow it. */
const RESOLVED_CACHE_LIMIT = 20_000;

export class NameLookup {
  private readonly exact = new Map<string, CompiledRow>();
  private readonly indexed = new Map<string, CompiledRow>();
  private readonly maps: MapMatcher[] = [];
  // The same cart.items[0].name arrives in request after request; parsing it once is enough.
  private readonly resolved = new Map<string, ResolvedName>();

  constructor(rows: readonly CompiledRow[]) {
    for (const compiled of rows) this.add(compiled);
  }

  private add(compiled: CompiledRow): void {
    const name = compiled.row.name;
    if (hasMapKey(name)) {
      const { prefix, suffix } = splitAtMapKey(name);
      if (hasIndex(prefix)) throw new Error(`map rows inside arrays are not supported: ${name}`);
      this.maps.push({ prefix, suffix, compiled });
      return;
    }
    const target = hasIndex(name) ? this.indexed : this.exact;
    if (target.has(name)) throw new Error(`two rows named ${name} on one endpoint`);
    target.set(name, compiled);
  }

  resolve(name: string): ResolvedName | undefined {
    const exact = this.exact.get(name);
    if (exact) return exact.plain;
    if (!name.includes('[')) return undefined;
    let resolved = this.resolved.get(name);
    if (resolved) return resolved;
    resolved = this.resolveBracketed(name);
    if (resolved) {
      if (this.resolved.size >= RESOLVED_CACHE_LIMIT) this.resolved.clear();
      this.resolved.set(name, resolved);
    }
    return resolved;
  }

  private resolveBracketed(name: string): ResolvedName | undefined {
    const normalised = normaliseIndexes(name);
    const indexed = normalised && this.indexed.get(normalised.pattern);
    if (indexed) return Object.freeze({ compiled: indexed, indexes: Object.freeze(normalised.indexes) });
    return this.resolveMapName(name);
  }

  private resolveMapName(name: string): ResolvedName | undefined {
    for (const matcher of this.maps) {
      const fits = name.length > matcher.prefix.length + matcher.suffix.length && name.startsWith(matcher.prefix) && name.endsWith(matcher.suffix);
      if (fits) return Object.freeze({ compiled: matcher.compiled, indexes: NO_INDEXES, mapKey: name.slice(matcher.prefix.length, name.length - matcher.suffix.length) });
    }
    return undefined;
  }
}

const NO_INDEXES: readonly number[] = Object.freeze([]);

export function compileRows(rows: readonly ParameterRow[]): CompiledRow[] {
  return rows.map((row, order) => {
    const segments = parsePattern(row.name);
    const last = segments[segments.length - 1]!;
    const compiled = { row, order, segments, root: rootOf(row.name) } as { -readonly [K in keyof CompiledRow]: CompiledRow[K] };
    if (last.kind === 'property') compiled.lastSegmentLength = last.key.length + 1;
    if (last.kind === 'literalKey') compiled.lastSegmentLength = last.key.length + 2;
    const parentSegments = segments.slice(0, -1);
    if (parentSegments.length > 0 && parentSegments.every((segment) => segment.kind === 'property')) {
      compiled.staticParent = parentSegments.map((segment) => (segment as { key: string }).key).join('.');
    }
    const minDigits = cardNumberMinDigits(row);
    if (minDigits !== undefined) compiled.cardNumberMinDigits = minDigits;
    compiled.plain = Object.freeze({ compiled, indexes: NO_INDEXES });
    return Object.freeze(compiled);
  });
}

export function rowsOf(compiled: readonly CompiledRow[], endpoint: Endpoint): CompiledRow[] {
  return compiled.filter((entry) => entry.row.use[endpoint] !== undefined);
}
