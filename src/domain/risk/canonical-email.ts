import { domainToUnicode } from 'node:url';
import emailAddresses from 'email-addresses';
import unhomoglyph from 'unhomoglyph';
import normalizeEmailModule from 'validator/lib/normalizeEmail.js';

// The one function of validator.js needed, without loading the whole library (a CommonJS module
// whose `default` is that function).
const normalizeProviderEmail = normalizeEmailModule.default;

/**
 * Characters that render as nothing (zero-width space and joiners, soft hyphen, word joiner, BOM,
 * bidirectional marks, variation selectors …): Unicode's default-ignorable code points.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const NON_ASCII = /[^\x00-\x7f]/gu;
/** A local part that needs the RFC 5322 parser: a quoted string, a comment or an escaped character. */
const NEEDS_PARSING = /["()\\]/;
const COMMENT = /\([^()]*\)/g;
const ESCAPED = /\\(.)/g;
const QUOTES = /"/g;
const TRAILING_DOTS = /\.+$/;
/** What IDNA (UTS #46) reads as a label separator besides `.`: ideographic and half-width ideographic full stops (NFKC folds the full-width one). */
const IDNA_DOTS = /[\u3002\uFF61]/g;
const PUNYCODE_LABEL = /(?:^|\.)xn--/;

/**
 * The one form of an e-mail address on a list and in a payment, so that the same mailbox cannot
 * be written past a blacklist (issue 29): compatibility forms folded (full-width letters), invisible
 * characters dropped, the local part unquoted and without comments, the domain without comments,
 * with IDNA's other full stops as dots, without trailing dots and in Unicode (not punycode), the providers' own rules (Gmail's dots, sub-addresses of the
 * big providers, googlemail.com, by validator.js), a `+tag` sub-address dropped for every domain,
 * and last the UTS #39 confusable skeleton (Cyrillic `а` and Latin `a` are one letter) in lower
 * case. Not meant to be shown: `m` becomes `rn`, as the skeleton wants (displayEmail shows it).
 */
export function canonicalEmail(address: string): string {
  const text = displayEmail(address);
  const at = text.lastIndexOf('@');
  if (at <= 0) return skeleton(text);
  // RFC 5322 lets comments stand around the domain (`bad@evil.test(x)` is bad@evil.test).
  const domainText = text.slice(at + 1).replace(COMMENT, '').replace(IDNA_DOTS, '.').replace(TRAILING_DOTS, '');
  const domain = latin(unicodeDomain(domainText));
  const mailbox = latin(unquoted(text.slice(0, at), domain));
  const provider = normalizeProviderEmail(`${mailbox}@${domain}`) || `${mailbox}@${domain}`;
  const split = provider.lastIndexOf('@');
  return skeleton(`${withoutSubaddress(provider.slice(0, split))}${provider.slice(split)}`);
}

/** The address as an operator reads it: folded, without invisible characters, in lower case. */
export function displayEmail(address: string): string {
  return address.normalize('NFKC').replace(INVISIBLE, '').trim().toLowerCase();
}

/**
 * `"bad"@`, `"b\\ad"@` and `bad(comment)@` are the mailbox `bad@` (RFC 5322's semantic local part).
 * What the parser refuses (`"bad"+x`) loses its quotes, escapes and comments all the same: it may
 * still reach a mailbox through a lenient server, and a stray quote must not make it another.
 */
function unquoted(local: string, domain: string): string {
  if (!NEEDS_PARSING.test(local)) return local;
  const parsed = emailAddresses.parseOneAddress(`${local}@${domain || 'invalid'}`);
  if (parsed && parsed.type === 'mailbox') return parsed.local;
  return local.replace(COMMENT, '').replace(ESCAPED, '$1').replace(QUOTES, '');
}

function unicodeDomain(domain: string): string {
  if (!PUNYCODE_LABEL.test(domain)) return domain;
  return domainToUnicode(domain) || domain;
}

/**
 * Look-alikes to their Latin prototype before the providers' rules, so that `gmаil.com` with a
 * Cyrillic `а` is Gmail too (ASCII is left as it is here: the skeleton comes last).
 */
function latin(text: string): string {
  return text.replace(NON_ASCII, (ch) => unhomoglyph(ch)).toLowerCase();
}

/** `bad+x` is delivered to `bad` by nearly every mail server: the tag names no other mailbox. */
function withoutSubaddress(local: string): string {
  const plus = local.indexOf('+');
  return plus > 0 ? local.slice(0, plus) : local;
}

/**
 * The confusable skeleton in lower case, to a fixed point: lower case can make a character the
 * skeleton maps again (`M` → `m` → `rn`), and a stored form must stay its own form.
 */
function skeleton(text: string): string {
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = unhomoglyph(current).toLowerCase();
    if (next === current) break;
    current = next;
  }
  return current;
}
