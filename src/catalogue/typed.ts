import type { Segment } from './names.js';
import type { PresentField } from './rules/types.js';
import { toTypedValue } from './values.js';

/**
 * Builds the typed nested request from flat fields: `cart.items[3].name` becomes
 * request.cart.items[i].name, indexes compacted in index order; map rows become null-prototype
 * records, so no request key can reach Object.prototype.
 */

type Container = Record<string, unknown> | Map<number, unknown>;

function containerFor(next: Segment): Container {
  if (next.kind === 'index') return new Map<number, unknown>();
  if (next.kind === 'property') return {};
  return Object.create(null) as Record<string, unknown>;
}

function childOf(container: Container, key: string | number): unknown {
  if (container instanceof Map) return container.get(key as number);
  return Object.prototype.hasOwnProperty.call(container, key) ? container[key as string] : undefined;
}

function setChild(container: Container, key: string | number, value: unknown): void {
  if (container instanceof Map) container.set(key as number, value);
  else container[key as string] = value;
}

/** The keys of a field's path: property names, indexes, map keys. */
function keysOf(field: PresentField): (string | number)[] {
  let nextIndex = 0;
  return field.resolved.compiled.segments.map((segment) => {
    if (segment.kind === 'index') return field.resolved.indexes[nextIndex++] ?? 0;
    if (segment.kind === 'mapKey') return field.resolved.mapKey ?? '';
    return segment.key;
  });
}

/** The concrete name of the field's parent: `cart.items[3].recipient` for `cart.items[3].recipient.city`. */
function parentName(field: PresentField): string {
  // A map key may itself contain dots, so the parent is found by the last segment's length.
  const cut = field.resolved.compiled.lastSegmentLength ?? (field.resolved.mapKey ?? '').length + 2;
  return field.name.slice(0, field.name.length - cut);
}

function walkToParent(root: Container, field: PresentField, keys: readonly (string | number)[]): Container {
  const segments = field.resolved.compiled.segments;
  let container = root;
  for (let position = 0; position < keys.length - 1; position += 1) {
    let child = childOf(container, keys[position]!);
    if (child === undefined) {
      child = containerFor(segments[position + 1]!);
      setChild(container, keys[position]!, child);
    }
    container = child as Container;
  }
  return container;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null && !(value instanceof Date) && !Array.isArray(value);
}

/** Maps of indexes become arrays in index order; everything else keeps its prototype. */
function finalise(value: Container): unknown {
  if (value instanceof Map) {
    return [...value.entries()].sort(([left], [right]) => left - right).map(([, item]) => (isContainer(item) ? finalise(item) : item));
  }
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (isContainer(child)) value[key] = finalise(child);
  }
  return value;
}

export function buildTypedRequest(fields: readonly PresentField[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  // Siblings share their parent: found once by walking the path, then by its concrete name.
  const parents = new Map<string, Container>();
  for (const field of fields) {
    const compiled = field.resolved.compiled;
    const value = toTypedValue(compiled.row.format.kind, field.value);
    if (compiled.segments.length === 1) {
      root[field.name] = value;
      continue;
    }
    const name = compiled.staticParent ?? parentName(field);
    let parent = parents.get(name);
    const keys = parent === undefined || compiled.lastSegmentLength === undefined ? keysOf(field) : undefined;
    if (parent === undefined) parents.set(name, (parent = walkToParent(root, field, keys!)));
    const lastSegment = compiled.segments[compiled.segments.length - 1]!;
    const lastKey = 'key' in lastSegment ? lastSegment.key : keys![keys!.length - 1]!;
    setChild(parent, lastKey, value);
  }
  return finalise(root) as Record<string, unknown>;
}
