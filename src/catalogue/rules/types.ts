import type { ResolvedName } from '../lookup.js';
import type { Endpoint } from '../types.js';

/** A field the request sent with a value, known to the endpoint's catalogue. */
export interface PresentField {
  readonly name: string;
  readonly value: string;
  readonly resolved: ResolvedName;
  /** False when the value broke its format; rules then leave the value alone. */
  readonly wellFormed: boolean;
}

/** What a rule sees: the endpoint, the clock, and the fields, sent and well-formed. */
export interface RuleContext {
  readonly endpoint: Endpoint;
  readonly now: Date;
  /** Sent with a non-empty value, well-formed or not. */
  has(name: string): boolean;
  /** The value when it was sent and is well-formed, else undefined. */
  value(name: string): string | undefined;
  /** Whether any sent name starts with the prefix (`card.`, `customer.`). */
  hasAnyUnder(prefix: string): boolean;
  /**
   * The sent fields whose names start with the prefix, in name order: a rule that names one of
   * them in its message names the same one whatever order the body had.
   */
  fieldsUnder(prefix: string): readonly PresentField[];
  /** Every sent field, in the order they arrived. */
  fields(): readonly PresentField[];
}

export interface RuleViolation {
  readonly name: string;
  readonly code: string;
  readonly message: string;
}

/** A cross-field rule. Rules run in list order after the per-field checks; see rules/index.ts. */
export interface ConditionalRule {
  readonly id: string;
  /** One sentence for docs/parameters.md. */
  readonly description: string;
  /** The result codes the rule can produce, for the documentation. */
  readonly codes: readonly string[];
  check(context: RuleContext): readonly RuleViolation[];
}

export function violation(name: string, code: string, message: string): RuleViolation {
  return { name, code, message };
}
