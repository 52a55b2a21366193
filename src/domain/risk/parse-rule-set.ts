import { isCountryAlpha2, isCurrencyCode } from '../iso.js';
import { formatAmount, tryParseAmount } from '../money.js';
import { VELOCITY_KEYS, type VelocityKey } from './facts.js';
import {
  DEFAULT_POINTS, MISMATCH_KINDS, RISK_ACTIONS, RISK_PROFILES, SCORE_MAX, SCORE_MIN, VELOCITY_MEASURES,
  type AmountLimit, type BrandOfferRule, type RiskDecisionKindName, type MismatchKind, type MismatchRule, type ParameterRule, type RiskAction, type RiskRuleSet, type VelocityMeasure, type VelocityRule,
} from './rule-set.js';

/** A week: longer windows would make every velocity count scan a long history. */
export const WINDOW_MINUTES_MAX = 7 * 24 * 60;
const ROWS_MAX = 50;
const PARAMETER_NAME = /^[a-zA-Z0-9._]{3,64}$/;
const BIN = /^[0-9]{6,8}$/;

type Obj = Record<string, unknown>;

/** Collects every problem with its path, so an operator fixes a rule set in one go. */
class Problems {
  readonly list: string[] = [];
  add(path: string, message: string): undefined {
    this.list.push(`${path}: ${message}`);
    return undefined;
  }
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneOf<T extends string>(p: Problems, path: string, value: unknown, allowed: readonly T[], fallback?: T): T | undefined {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return p.add(path, `must be one of ${allowed.join(', ')}`);
}

function integer(p: Problems, path: string, value: unknown, min: number, max: number): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  return p.add(path, `must be a whole number from ${min} to ${max}`);
}

function amount(p: Problems, path: string, value: unknown): bigint | undefined {
  const parsed = typeof value === 'string' ? tryParseAmount(value) : undefined;
  return parsed ?? p.add(path, 'must be an amount as a string with up to two decimals, e.g. "500.00"');
}

function currency(p: Problems, path: string, value: unknown): string | undefined {
  return typeof value === 'string' && isCurrencyCode(value) ? value : p.add(path, 'must be an ISO 4217 currency code, e.g. EUR');
}

function actionAndPoints(p: Problems, path: string, row: Obj): { action: RiskAction; points: number } | undefined {
  const action = oneOf(p, `${path}.action`, row['action'], RISK_ACTIONS);
  const points = row['points'] === undefined ? (action ? DEFAULT_POINTS[action] : 0) : integer(p, `${path}.points`, row['points'], SCORE_MIN, SCORE_MAX);
  return action && points !== undefined ? { action, points } : undefined;
}

function rows<T>(p: Problems, path: string, value: unknown, parse: (row: Obj, at: string) => T | undefined): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > ROWS_MAX) return p.add(path, `must be a list of at most ${ROWS_MAX} rules`) ?? [];
  const parsed: T[] = [];
  value.forEach((row, i) => {
    const at = `${path}[${i}]`;
    const one = isObj(row) ? parse(row, at) : p.add(at, 'must be an object');
    if (one !== undefined) parsed.push(one);
  });
  return parsed;
}

function velocityRule(p: Problems, row: Obj, at: string): VelocityRule | undefined {
  const key = oneOf<VelocityKey>(p, `${at}.key`, row['key'], VELOCITY_KEYS);
  const measure = oneOf<VelocityMeasure>(p, `${at}.measure`, row['measure'], VELOCITY_MEASURES);
  const windowMinutes = integer(p, `${at}.windowMinutes`, row['windowMinutes'], 1, WINDOW_MINUTES_MAX);
  const max = measure === 'amount' ? amount(p, `${at}.max`, row['max']) : integer(p, `${at}.max`, row['max'], 0, 1_000_000);
  const cur = measure === 'amount' ? currency(p, `${at}.currency`, row['currency']) : undefined;
  const act = actionAndPoints(p, at, row);
  if (!key || !measure || windowMinutes === undefined || max === undefined || !act || (measure === 'amount' && !cur)) return undefined;
  return { key, measure, windowMinutes, max: BigInt(max), ...(cur ? { currency: cur } : {}), ...act };
}

function amountLimit(p: Problems, row: Obj, at: string): AmountLimit | undefined {
  const cur = currency(p, `${at}.currency`, row['currency']);
  const min = row['min'] === undefined ? undefined : amount(p, `${at}.min`, row['min']);
  const max = row['max'] === undefined ? undefined : amount(p, `${at}.max`, row['max']);
  if (row['min'] === undefined && row['max'] === undefined) p.add(at, 'needs min, max or both');
  const act = actionAndPoints(p, at, { action: 'reject', ...row });
  if (!cur || !act || (row['min'] !== undefined && min === undefined) || (row['max'] !== undefined && max === undefined)) return undefined;
  return { currency: cur, minMinor: min, maxMinor: max, ...act };
}

function mismatchRule(p: Problems, row: Obj, at: string): MismatchRule | undefined {
  const between = oneOf<MismatchKind>(p, `${at}.between`, row['between'], MISMATCH_KINDS);
  const act = actionAndPoints(p, at, row);
  return between && act ? { between, ...act } : undefined;
}

function parameterRule(p: Problems, row: Obj, at: string): ParameterRule | undefined {
  const name = typeof row['name'] === 'string' && PARAMETER_NAME.test(row['name']) ? row['name'] : p.add(`${at}.name`, 'must be a parameter name of 3 to 64 of a-z A-Z 0-9 . _');
  const equals = typeof row['equals'] === 'string' && row['equals'].length <= 2048 ? row['equals'] : p.add(`${at}.equals`, 'must be a string of up to 2048 characters');
  const act = actionAndPoints(p, at, row);
  return name && equals !== undefined && act ? { name, equals, ...act } : undefined;
}

const BRAND = /^[A-Z0-9_]{2,32}$/;

function brandOfferRule(p: Problems, row: Obj, at: string): BrandOfferRule | undefined {
  const listed = row['profiles'];
  const profiles = listed === undefined ? undefined
    : Array.isArray(listed) && listed.length > 0 && listed.every((v) => (RISK_PROFILES as readonly unknown[]).includes(v)) ? (listed as RiskDecisionKindName[])
      : p.add(`${at}.profiles`, `must be a list of ${RISK_PROFILES.join(', ')}`);
  const scoreAtLeast = row['scoreAtLeast'] === undefined ? undefined : integer(p, `${at}.scoreAtLeast`, row['scoreAtLeast'], SCORE_MIN, SCORE_MAX);
  if (listed === undefined && row['scoreAtLeast'] === undefined) p.add(at, 'needs profiles, scoreAtLeast or both');
  const hide = Array.isArray(row['hide']) && row['hide'].length > 0 && row['hide'].every((v) => typeof v === 'string' && BRAND.test(v)) ? (row['hide'] as string[]) : p.add(`${at}.hide`, 'must be a list of payment brands, e.g. ["KLARNA_INVOICE"]');
  if (!hide || (listed !== undefined && !profiles) || (row['scoreAtLeast'] !== undefined && scoreAtLeast === undefined) || (listed === undefined && scoreAtLeast === undefined)) return undefined;
  return { ...(profiles ? { profiles } : {}), ...(scoreAtLeast !== undefined ? { scoreAtLeast } : {}), hide };
}

function codes(p: Problems, path: string, value: unknown, valid: (code: string) => boolean, what: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && valid(v))) return value as string[];
  return p.add(path, `must be a list of ${what}`);
}

function binCountries(p: Problems, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (!isObj(value)) return p.add('binCountries', 'must map BINs (6 to 8 digits) to ISO alpha-2 countries') ?? {};
  const map: Record<string, string> = {};
  for (const [bin, country] of Object.entries(value)) {
    if (BIN.test(bin) && typeof country === 'string' && isCountryAlpha2(country)) map[bin] = country;
    else p.add(`binCountries.${bin.slice(0, 16)}`, 'must map a BIN of 6 to 8 digits to an ISO alpha-2 country');
  }
  return map;
}

const KNOWN_FIELDS = new Set(['enabled', 'reviewAtScore', 'rejectAtScore', 'currencies', 'countries', 'amountLimits', 'velocity', 'mismatches', 'parameters', 'binCountries', 'testTriggers', 'brandOffer']);

/** The operator's rule set (JSON, docs/risk.md) checked whole: every problem named, or the typed set. */
export function parseRuleSet(value: unknown): RiskRuleSet | { readonly errors: readonly string[] } {
  const p = new Problems();
  if (!isObj(value)) return { errors: ['the rule set must be a JSON object'] };
  for (const name of Object.keys(value)) if (!KNOWN_FIELDS.has(name)) p.add(name.slice(0, 64), 'is not a rule set field');
  const flag = (name: string, fallback: boolean) => (value[name] === undefined ? fallback : typeof value[name] === 'boolean' ? (value[name] as boolean) : (p.add(name, 'must be true or false'), fallback));
  const score = (name: string) => (value[name] === undefined ? undefined : integer(p, name, value[name], SCORE_MIN, SCORE_MAX));
  const set: RiskRuleSet = {
    enabled: flag('enabled', true),
    reviewAtScore: score('reviewAtScore'),
    rejectAtScore: score('rejectAtScore'),
    currencies: codes(p, 'currencies', value['currencies'], isCurrencyCode, 'ISO 4217 currency codes'),
    countries: codes(p, 'countries', value['countries'], isCountryAlpha2, 'ISO alpha-2 country codes'),
    amountLimits: rows(p, 'amountLimits', value['amountLimits'], (row, at) => amountLimit(p, row, at)),
    velocity: rows(p, 'velocity', value['velocity'], (row, at) => velocityRule(p, row, at)),
    mismatches: rows(p, 'mismatches', value['mismatches'], (row, at) => mismatchRule(p, row, at)),
    parameters: rows(p, 'parameters', value['parameters'], (row, at) => parameterRule(p, row, at)),
    binCountries: binCountries(p, value['binCountries']),
    testTriggers: flag('testTriggers', true),
    ...(value['brandOffer'] !== undefined ? { brandOffer: rows(p, 'brandOffer', value['brandOffer'], (row, at) => brandOfferRule(p, row, at)) } : {}),
  };
  return p.list.length > 0 ? { errors: p.list } : set;
}

/** The inverse of parseRuleSet: amounts back as wire strings, absent fields left out. */
export function formatRuleSet(set: RiskRuleSet): Record<string, unknown> {
  const wire = (minor: bigint | undefined) => (minor === undefined ? undefined : formatAmount(minor));
  return JSON.parse(JSON.stringify({
    ...set,
    amountLimits: set.amountLimits.map((l) => ({ ...l, minMinor: undefined, maxMinor: undefined, min: wire(l.minMinor), max: wire(l.maxMinor) })),
    velocity: set.velocity.map((v) => ({ ...v, max: v.measure === 'amount' ? formatAmount(v.max) : Number(v.max) })),
  })) as Record<string, unknown>;
}
