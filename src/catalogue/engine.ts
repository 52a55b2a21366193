import { detectCardBrand } from '../domain/card.js';
import { CARD_NUMBER_MIN_DIGITS, containsCardNumber } from '../domain/card-numbers-in-text.js';
import type { ParameterError } from '../results/gateway-error.js';
import { CARD_NUMBER_CODE, CARD_NUMBER_MESSAGE } from './card-number-fields.js';
import { anyEndpointLookup, endpointCatalogue, type EndpointCatalogue } from './catalogue.js';
import { DEFAULT_CODE } from './define.js';
import { formatProblem } from './formats.js';
import { displayName, displayRowValue, displayUnknownValue } from './mask.js';
import type { EndpointRequest } from './request-types.generated.js';
import { createRuleContext, type EngineRuleContext } from './rule-context.js';
import { RULES } from './rules/index.js';
import type { PresentField, RuleViolation } from './rules/types.js';
import { buildTypedRequest } from './typed.js';
import type { Endpoint, RequestBody, UnknownParameterMode, ValidationContext } from './types.js';

/**
 * The one validation engine. Its stages run in a fixed precedence, so the same request always
 * gets the same first error, whatever order its parameters arrived in:
 *
 *   1. names: unknown names, names the endpoint does not admit, repeated keys, non-string values
 *      (sorted by name);
 *   2. formats: each value against its row, in catalogue order (then index order);
 *   3. required: rows required on the endpoint, then rows required within a structure that is
 *      present, in catalogue order;
 *   4. conditional rules, in the order of RULES (a rule's own errors in catalogue order).
 *
 * Every stage runs, so parameterErrors lists every broken parameter, once (its first error);
 * the result code is that of the first error. Empty values count as not sent.
 */

export interface ValidationIssue extends ParameterError {
  readonly code: string;
}

export type ValidationResult<E extends Endpoint = Endpoint> =
  | {
      readonly ok: true;
      readonly request: EndpointRequest<E>;
      /** Names no endpoint knows, left out under the entity's 'ignore' setting (masked, no values). */
      readonly ignored: readonly string[];
    }
  | {
      readonly ok: false;
      readonly code: string;
      readonly parameterErrors: readonly ParameterError[];
      /** The same errors with the result code each would have had on its own. */
      readonly issues: readonly ValidationIssue[];
    };

/** Roots of account data: a request that must not carry it says so with 200.100.404. */
const ACCOUNT_ROOTS: ReadonlySet<string> = new Set(['card', 'bankAccount', 'tokenAccount', 'virtualAccount', 'walletA', 'walletB', 'walletC', 'giftCard']);
const ACCOUNT_NOT_ALLOWED_CODE = '200.100.404';
/** A map key that could reach Object.prototype in careless code downstream. */
const FORBIDDEN_MAP_KEY = '__proto__';

interface Collected {
  readonly fields: Omit<PresentField, 'wellFormed'>[];
  readonly issues: ValidationIssue[];
  readonly ignored: string[];
}

function issue(name: string, value: string, message: string, code: string): ValidationIssue {
  return { name: displayName(name), value, message, code };
}

/** A name the endpoint does not know: unknown everywhere, or a parameter of another endpoint. */
function nameIssue(endpoint: Endpoint, name: string, raw: unknown): ValidationIssue {
  const elsewhere = anyEndpointLookup().resolve(name);
  if (!elsewhere) return issue(name, typeof raw === 'string' ? displayUnknownValue(name, raw) : '', 'unknown parameter', DEFAULT_CODE);
  const value = typeof raw === 'string' ? displayRowValue(elsewhere.compiled.row, raw) : '';
  const code = ACCOUNT_ROOTS.has(elsewhere.compiled.root) ? ACCOUNT_NOT_ALLOWED_CODE : DEFAULT_CODE;
  return issue(name, value, `not allowed on ${endpoint} requests`, code);
}

/**
 * Under 'ignore', a name no endpoint knows is left out and listed; a name of another endpoint is
 * still refused (it may be account data), and so is a name that holds a card number.
 */
function ignorable(name: string, mode: UnknownParameterMode): boolean {
  return mode === 'ignore' && !anyEndpointLookup().resolve(name) && !containsCardNumber(name, CARD_NUMBER_MIN_DIGITS);
}

function collectFields(catalogue: EndpointCatalogue, body: unknown, mode: UnknownParameterMode): Collected {
  const collected: Collected = { fields: [], issues: [], ignored: [] };
  if (typeof body !== 'object' || body === null) return collected;
  const record = body as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    const raw = record[name];
    if (raw === undefined) continue;
    const resolved = catalogue.lookup.resolve(name);
    if (!resolved && ignorable(name, mode)) {
      collected.ignored.push(displayName(name));
    } else if (!resolved) {
      collected.issues.push(nameIssue(catalogue.endpoint, name, Array.isArray(raw) ? raw[0] : raw));
    } else if (Array.isArray(raw)) {
      const first: unknown = raw[0];
      const shown = typeof first === 'string' ? displayRowValue(resolved.compiled.row, first) : '';
      collected.issues.push(issue(name, shown, 'must not be repeated', DEFAULT_CODE));
    } else if (typeof raw !== 'string') {
      collected.issues.push(issue(name, '', 'must be a string', DEFAULT_CODE));
    } else if (raw !== '') {
      collected.fields.push({ name, value: raw, resolved });
    }
  }
  collected.issues.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  return collected;
}

interface FieldProblem {
  readonly message: string;
  /** When not the row's own format code. */
  readonly code?: string;
}

const CARD_NUMBER_PROBLEM: FieldProblem = { message: CARD_NUMBER_MESSAGE, code: CARD_NUMBER_CODE };
const CARD_NUMBER_IN_NAME: FieldProblem = { message: `name ${CARD_NUMBER_MESSAGE}`, code: CARD_NUMBER_CODE };

/** A card number outside the card-number fields comes first: it must be refused, whatever else. */
function fieldProblem(field: Omit<PresentField, 'wellFormed'>): FieldProblem | undefined {
  const { row, cardNumberMinDigits } = field.resolved.compiled;
  const mapKey = field.resolved.mapKey;
  if (mapKey !== undefined && containsCardNumber(mapKey, CARD_NUMBER_MIN_DIGITS)) return CARD_NUMBER_IN_NAME;
  if (cardNumberMinDigits !== undefined && containsCardNumber(field.value, cardNumberMinDigits)) return CARD_NUMBER_PROBLEM;
  if (mapKey !== undefined) {
    if (mapKey === FORBIDDEN_MAP_KEY) return { message: 'name is not allowed' };
    const keyProblem = row.keyFormat && formatProblem(row.keyFormat, mapKey);
    if (keyProblem) return { message: `name ${keyProblem}` };
  }
  const problem = formatProblem(row.format, field.value);
  return problem === undefined ? undefined : { message: problem };
}

/** Catalogue order, then index order, then map key: the order format errors are reported in. */
function catalogueOrder(left: PresentField, right: PresentField): number {
  const byRow = left.resolved.compiled.order - right.resolved.compiled.order;
  if (byRow !== 0) return byRow;
  const leftIndexes = left.resolved.indexes;
  const rightIndexes = right.resolved.indexes;
  for (let position = 0; position < leftIndexes.length; position += 1) {
    const byIndex = leftIndexes[position]! - (rightIndexes[position] ?? 0);
    if (byIndex !== 0) return byIndex;
  }
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function checkFormats(collected: Collected): { fields: PresentField[]; issues: ValidationIssue[] } {
  const fields: PresentField[] = [];
  const broken: { field: PresentField; problem: FieldProblem }[] = [];
  for (const candidate of collected.fields) {
    const problem = fieldProblem(candidate);
    // A literal, not a spread: V8 spreads small objects on a slow path (about 1 µs each).
    const field: PresentField = { name: candidate.name, value: candidate.value, resolved: candidate.resolved, wellFormed: problem === undefined };
    fields.push(field);
    if (problem !== undefined) broken.push({ field, problem });
  }
  broken.sort((left, right) => catalogueOrder(left.field, right.field));
  const issues = broken.map(({ field, problem }) => {
    const { row } = field.resolved.compiled;
    return issue(field.name, displayRowValue(row, field.value), problem.message, problem.code ?? row.code);
  });
  return { fields, issues };
}

function checkRequired(catalogue: EndpointCatalogue, context: EngineRuleContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const { row } of catalogue.required) {
    if (context.has(row.name)) continue;
    if (row.use[catalogue.endpoint] === 'R') {
      issues.push(issue(row.name, '', 'is required', row.missingCode));
    } else if (row.requiredWithin !== undefined && context.hasAnyUnder(row.requiredWithin)) {
      issues.push(issue(row.name, '', `is required when other ${row.requiredWithin}* parameters are sent`, row.missingCode));
    }
  }
  return issues;
}

function ruleIssue(context: EngineRuleContext, found: RuleViolation): ValidationIssue {
  const field = context.field(found.name);
  const value = field ? displayRowValue(field.resolved.compiled.row, field.value) : '';
  return issue(found.name, value, found.message, found.code);
}

/** Within one rule, violations follow catalogue order too, whatever order the rule found them in. */
function byCatalogueOrder(catalogue: EndpointCatalogue): (left: RuleViolation, right: RuleViolation) => number {
  const rank = (name: string) => catalogue.lookup.resolve(name)?.compiled.order ?? Number.MAX_SAFE_INTEGER;
  return (left, right) => rank(left.name) - rank(right.name) || (left.name < right.name ? -1 : left.name > right.name ? 1 : 0);
}

function checkRules(catalogue: EndpointCatalogue, context: EngineRuleContext): ValidationIssue[] {
  const order = byCatalogueOrder(catalogue);
  return RULES.flatMap((rule) => {
    const found = rule.check(context);
    return (found.length > 1 ? [...found].sort(order) : found).map((violation) => ruleIssue(context, violation));
  });
}

/** One entry per parameter: its first error in precedence. */
function firstPerName(issues: readonly ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((entry) => !seen.has(entry.name) && seen.add(entry.name));
}

function typedRequest(endpoint: Endpoint, context: EngineRuleContext): Record<string, unknown> {
  const request = buildTypedRequest(context.fields());
  const cardNumber = context.value('card.number');
  if (request['paymentBrand'] === undefined && cardNumber !== undefined && endpointCatalogue(endpoint).lookup.resolve('paymentBrand')) {
    const detected = detectCardBrand(cardNumber);
    if (detected !== undefined) request['paymentBrand'] = detected;
  }
  return request;
}

/** Validates a parsed form body for an endpoint; never throws, whatever the body holds. */
export function validateRequest<E extends Endpoint>(endpoint: E, body: RequestBody, context: ValidationContext): ValidationResult<E> {
  const catalogue = endpointCatalogue(endpoint);
  const collected = collectFields(catalogue, body, context.unknownParameters ?? 'reject');
  const formatted = checkFormats(collected);
  const ruleContext = createRuleContext(endpoint, context.now, formatted.fields);
  const issues = firstPerName([...collected.issues, ...formatted.issues, ...checkRequired(catalogue, ruleContext), ...checkRules(catalogue, ruleContext)]);
  if (issues.length === 0) {
    return { ok: true, request: typedRequest(endpoint, ruleContext) as unknown as EndpointRequest<E>, ignored: collected.ignored.sort() };
  }
  return {
    ok: false,
    code: issues[0]!.code,
    parameterErrors: issues.map(({ name, value, message }) => ({ name, value, message })),
    issues,
  };
}
