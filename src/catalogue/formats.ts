import { controlCharacterProblem } from '../domain/control-characters.js';
import { amountPatternSource } from '../domain/money.js';
import { isCountryAlpha2, isCountryAlpha3, isCurrencyCode } from '../domain/iso.js';
import type { FieldFormat, SemanticCheck, ValueKind } from './types.js';

/**
 * Builders of field formats, one per notation of the specification's Conventions section.
 * Every pattern is anchored and free of nested quantifiers, and the length bounds are checked
 * before the regex runs, so a hostile value costs at most one linear scan of a short string.
 */

interface FormatSpec {
  readonly notation: string;
  readonly pattern: string;
  readonly minLength: number;
  readonly maxLength: number;
  readonly kind?: ValueKind;
  readonly enumValues?: readonly string[];
  readonly lineBreaks?: 'allowed';
  readonly semantic?: SemanticCheck;
  readonly sample: string;
  readonly badSample: string;
}

export function makeFormat(spec: FormatSpec): FieldFormat {
  // 's' lets "any character" include line breaks; 'u' counts characters as code points.
  const regex = new RegExp(spec.pattern, 'su');
  // "Any characters, min to max": the code-point length check alone decides, the regex would repeat it.
  const lengthOnly = spec.pattern === `^.{${spec.minLength},${spec.maxLength}}$`;
  const format: FieldFormat = { ...spec, kind: spec.kind ?? 'text', regex, lengthOnly };
  if (!formatAccepts(format, spec.sample)) throw new Error(`sample ${spec.sample} breaks ${spec.pattern}`);
  if (formatAccepts(format, spec.badSample)) throw new Error(`bad sample ${spec.badSample} passes ${spec.pattern}`);
  return Object.freeze(format);
}

/** Code-point length within bounds, without counting more than needed. */
export function lengthWithin(value: string, min: number, max: number): boolean {
  const units = value.length;
  if (units < min || units > max * 2) return false;
  if (units <= max && units >> 1 >= min) return true;
  let points = 0;
  for (const _ of value) {
    points += 1;
    if (points > max) return false;
  }
  return points >= min;
}

/** The message of the first check the value fails, or undefined when it is well-formed. */
export function formatProblem(format: FieldFormat, value: string): string | undefined {
  const control = controlCharacterProblem(value, format.lineBreaks);
  if (control !== undefined) return control;
  if (!lengthWithin(value, format.minLength, format.maxLength) || (!format.lengthOnly && !format.regex.test(value))) {
    return `must match ${format.pattern}`;
  }
  if (format.semantic && !format.semantic.test(value)) return format.semantic.message;
  return undefined;
}

export function formatAccepts(format: FieldFormat, value: string): boolean {
  return formatProblem(format, value) === undefined;
}

function textSample(min: number, max: number): string {
  const base = 'Sample text'.slice(0, Math.max(max, 1));
  return base.length >= min ? base : base.padEnd(min, 'x');
}

/** AN n: any characters, min to max of them. */
export function text(max: number, min = 0, notation = min > 0 ? `AN${max}, ${min} to ${max}` : `AN${max}`): FieldFormat {
  return makeFormat({
    notation,
    pattern: `^.{${min},${max}}$`,
    minLength: min,
    maxLength: max,
    sample: textSample(min, max),
    badSample: 'x'.repeat(max + 1),
  });
}

/** AN n where the text may span lines (descriptions, messages, blobs): tab and line breaks admitted. */
export function multilineText(max: number, min = 0, notation = min > 0 ? `AN${max}, ${min} to ${max}, line breaks allowed` : `AN${max}, line breaks allowed`): FieldFormat {
  return makeFormat({
    notation,
    pattern: `^.{${min},${max}}$`,
    minLength: min,
    maxLength: max,
    lineBreaks: 'allowed',
    sample: textSample(min, max),
    badSample: 'x'.repeat(max + 1),
  });
}

/** Characters of one class, e.g. chars('a-zA-Z0-9_', 32, 1) → ^[a-zA-Z0-9_]{1,32}$. */
export function chars(charClass: string, max: number, min: number, notation: string, sample?: string): FieldFormat {
  const first = charClass[0] === '\\' ? charClass[1]! : charClass[0]!;
  return makeFormat({
    notation,
    pattern: `^[${charClass}]{${min},${max}}$`,
    minLength: min,
    maxLength: max,
    sample: sample ?? first.repeat(Math.max(min, Math.min(max, 8))),
    badSample: '!'.repeat(Math.max(min, 1)),
  });
}

/** N n: digits only, min to max of them. */
export function digits(max: number, min = 1, notation = `N${max}`, sample?: string): FieldFormat {
  return chars('0-9', max, min, notation, sample ?? '1'.repeat(min));
}

function escapeRegex(value: string): string {
  // Only syntax characters: the 'u' flag rejects needless escapes such as \-.
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An enumeration; the first value is the sample. */
export function oneOf(values: readonly string[], notation = values.join(', '), kind: ValueKind = 'text'): FieldFormat {
  const lengths = values.map((value) => [...value].length);
  return makeFormat({
    notation,
    pattern: `^(${values.map(escapeRegex).join('|')})$`,
    minLength: Math.min(...lengths),
    maxLength: Math.max(...lengths),
    kind,
    enumValues: values,
    sample: values[0]!,
    badSample: 'NOT_IN_LIST',
  });
}

export function bool(): FieldFormat {
  return oneOf(['true', 'false'], 'true or false', 'boolean');
}

/** A custom regular expression, for formats no builder covers. */
export function pattern(
  source: string,
  options: { notation: string; min: number; max: number; sample: string; bad: string; kind?: ValueKind; semantic?: SemanticCheck },
): FieldFormat {
  return makeFormat({
    notation: options.notation,
    pattern: source,
    minLength: options.min,
    maxLength: options.max,
    kind: options.kind ?? 'text',
    ...(options.semantic ? { semantic: options.semantic } : {}),
    sample: options.sample,
    badSample: options.bad,
  });
}

/** N10.N2 and friends; `decimalsRequired` for fields the spec lists "with two decimals". */
export function decimal(integerDigits: number, decimalsRequired = false): FieldFormat {
  return makeFormat({
    notation: `N${integerDigits}.N2${decimalsRequired ? ' with two decimals' : ''}`,
    pattern: amountPatternSource(integerDigits, decimalsRequired),
    minLength: 1,
    maxLength: integerDigits + 3,
    kind: 'amount',
    sample: '92.00',
    badSample: '-20.20',
  });
}

export function currency(): FieldFormat {
  return makeFormat({
    notation: 'A3 ISO 4217',
    pattern: '^[A-Z]{3}$',
    minLength: 3,
    maxLength: 3,
    semantic: { test: isCurrencyCode, message: 'must be an ISO 4217 currency code' },
    sample: 'EUR',
    badSample: 'EURO',
  });
}

export function countryAlpha2(): FieldFormat {
  return makeFormat({
    notation: 'A2 ISO 3166-1',
    pattern: '^[A-Z]{2}$',
    minLength: 2,
    maxLength: 2,
    semantic: { test: isCountryAlpha2, message: 'must be an ISO 3166-1 alpha-2 country code' },
    sample: 'DE',
    badSample: 'DEU',
  });
}

export function countryAlpha3(): FieldFormat {
  return makeFormat({
    notation: 'A3 ISO 3166-1 alpha-3',
    pattern: '^[A-Z]{3}$',
    minLength: 3,
    maxLength: 3,
    semantic: { test: isCountryAlpha3, message: 'must be an ISO 3166-1 alpha-3 country code' },
    sample: 'DEU',
    badSample: 'DE',
  });
}
