import { rootOf } from './names.js';
import type { PresentField, RuleContext } from './rules/types.js';
import type { Endpoint } from './types.js';

export interface EngineRuleContext extends RuleContext {
  field(name: string): PresentField | undefined;
}

/** Indexes the sent fields by name and by root, so that rules look them up without scanning. */
export function createRuleContext(endpoint: Endpoint, now: Date, fields: readonly PresentField[]): EngineRuleContext {
  const byName = new Map<string, PresentField>();
  const byRoot = new Map<string, PresentField[]>();
  for (const field of fields) {
    byName.set(field.name, field);
    const root = field.resolved.compiled.root;
    const group = byRoot.get(root);
    if (group) group.push(field);
    else byRoot.set(root, [field]);
  }
  const under = (prefix: string) =>
    (byRoot.get(rootOf(prefix)) ?? []).filter((field) => field.name.startsWith(prefix)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    endpoint,
    now,
    has: (name) => byName.has(name),
    value(name) {
      const field = byName.get(name);
      return field?.wellFormed ? field.value : undefined;
    },
    hasAnyUnder: (prefix) => (byRoot.get(rootOf(prefix)) ?? []).some((field) => field.name.startsWith(prefix)),
    fieldsUnder: under,
    fields: () => fields,
    field: (name) => byName.get(name),
  };
}
