import { makeFormat, pattern } from './formats.js';
import type { FieldFormat } from './types.js';

/** E-mail addresses, phone numbers and URLs. */

export function email(max = 128, min = 6): FieldFormat {
  // Deliberately loose: one @, no spaces, a dot in the domain. Stricter checks reject real addresses.
  return makeFormat({
    notation: `AN${max}, ${min} to ${max}, e-mail address`,
    // The length is in the pattern too, so that "must match …" tells the whole rule.
    pattern: `^(?=.{${min},${max}}$)[^@\\s]+@[^@\\s]+\\.[^@\\s]+$`,
    minLength: min,
    maxLength: max,
    sample: 'jane.jones@example.com',
    badSample: 'jane.jones(at)example.com',
  });
}

/** A phone number: + or a digit, then `further` characters of digits, space . ( ) / -. */
export function phone(notation: string, further: { min: number; max: number }, separators = ' .()/-'): FieldFormat {
  return pattern(`^[+0-9][0-9${separators}]{${further.min},${further.max}}$`, {
    notation,
    min: further.min + 1,
    max: further.max + 1,
    sample: '+49 89 1234567',
    bad: '0049-89-CALL-ME',
  });
}

function isAbsoluteWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** An absolute http(s) URL; merchants send it URL-encoded and the form parser decodes it. */
export function url(max = 2048, min = 6): FieldFormat {
  return makeFormat({
    notation: `AN${max}, ${min} to ${max}, absolute URL`,
    pattern: `^.{${min},${max}}$`,
    minLength: min,
    maxLength: max,
    semantic: { test: isAbsoluteWebUrl, message: 'must be an absolute http or https URL' },
    sample: 'https://shop.example.com/result',
    badSample: 'shop/result',
  });
}
