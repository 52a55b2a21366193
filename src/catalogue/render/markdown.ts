import { CARD_BRANDS } from '../../domain/card.js';
import { ISSUED_NUMBERS_ONLY } from '../../domain/card-numbers-in-text.js';
import { CARD_NUMBER_CODE, CARD_NUMBER_EXEMPTIONS } from '../card-number-fields.js';
import { CATALOGUE } from '../catalogue.js';
import { RULES } from '../rules/index.js';
import { THREE_D_SECURE_V2_SIGNALS } from '../three-d-secure-fields.js';
import { ENDPOINTS as ALL_ENDPOINTS, type ParameterRow } from '../types.js';
import { DOCUMENTED_ENDPOINTS as ENDPOINTS, ENDPOINT_ROUTES, isDocumented } from './endpoints.js';

const UNSERVED = ALL_ENDPOINTS.filter((endpoint) => !ENDPOINTS.includes(endpoint));

/** docs/parameters.md, rendered from the catalogue rows and the rules. */

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${cell(text)}\``;

const PREAMBLE = [
  '# Request parameters',
  '',
  'Generated from `src/catalogue/` by `npm run docs`; do not edit by hand. The same rows drive the',
  'validation engine (`validateRequest`), the typed request, the response echo and `docs/openapi.json`.',
  '',
  '## How a request is validated',
  '',
  'The engine checks in this order; the result code is that of the first error, and',
  '`parameterErrors` lists every broken parameter once (its first error):',
  '',
  '1. **Names**: unknown names (`unknown parameter`), names another endpoint accepts but this one does',
  '   not (`not allowed on … requests`; 200.100.404 for account data, else 200.300.404), keys sent',
  '   twice (`must not be repeated`). Sorted by name.',
  '2. **Formats**: every value against its row, in the order of the tables below (indexes in',
  '   numeric order). First a card number where none belongs (see below), then control',
  '   characters (`must not contain control characters…`, the row\'s code), then `must match <regex>`',
  '   or the check the regex cannot express.',
  '3. **Required**: parameters required on the endpoint (R), then parameters required within a',
  '   structure that is present (column "Within"), in table order. Message `is required`.',
  '4. **Conditional rules**, in the order of the rules table (errors of one rule in table order).',
  '',
  'An empty value counts as not sent. Legacy names accepted: none; every name is spelt as in the',
  'specification. Secret values are never shown: card and token numbers as first six and last four',
  'digits, account numbers and IBANs as their last four, CVV, PIN, tokens and cryptograms as `****`;',
  'values of unknown names are masked whole when the name looks secret or the value holds a run of',
  'twelve or more digits; in any other value (and in names) every run of twelve or more digits, split',
  'by spaces or dashes or not, shows as its first six and last four digits. Values are masked first',
  'and then cut to 256 characters, so a cut never uncovers digits.',
  '',
  '### Control characters',
  '',
  'No value may hold a C0 control character (NUL to U+001F) or DEL. Tab, line feed and carriage',
  'return are admitted only in formats marked "line breaks allowed" (descriptions, comments, messages,',
  'custom parameters, opaque blobs such as wallet tokens); everywhere else (names, references,',
  'addresses, ids) a line break or tab would forge a line or a column in descriptors, reports and',
  'logs. Dates and times must lie between 0001-01-01 and 9999-12-31 (UTC), the years both databases',
  'store.',
  '',
];

function cardNumberSection(): string[] {
  return [
    '### Card numbers outside the card fields',
    '',
    'A value holding a Luhn-valid number of 13 to 19 digits (whole runs of digits, which may be joined',
    'by spaces or dashes, not beginning with 0) is refused with ' + code(CARD_NUMBER_CODE) + ' and the message',
    '`must not contain a card number` (the value shown masked), in every parameter and map key name',
    'except those below. So is a number in a card brand\'s range and of a length the brand issues (16',
    'digits of VISA or MASTER, 15 of AMEX, 14 of DINERS …) whose groups are joined by short runs of',
    'any other character that is neither a letter nor a digit (`4111.1111.1111.1111`, `/ _ , + *`).',
    'Values are read after Unicode NFKC normalisation, without format characters and combining',
    'marks, with the decimal digits of every script as 0-9, so full-width (`４１１１…`) or Arabic-Indic',
    'digits and zero-width spaces (U+200B) hide nothing. Such a',
    'request is never stored, and its value never echoed or logged. A reference made only of digits',
    'can look like a card number by chance: give it a prefix.',
    '',
    '| Fields | Refused | Why |',
    '|---|---|---|',
    ...CARD_NUMBER_EXEMPTIONS.map((entry) => {
      const refused = entry.checkedElsewhere !== undefined ? entry.checkedElsewhere : entry.refusedFromDigits === undefined ? 'never' : entry.refusedFromDigits === ISSUED_NUMBERS_ONLY ? 'a number of a card brand\'s range and issued length' : `from ${entry.refusedFromDigits} digits; below, a number of a card brand\'s range and issued length`;
      return `| ${entry.fields} | ${refused} | ${cell(entry.why)} |`;
    }),
    '',
  ];
}

/** Readings of the specification where it leaves room; each is a row or a rule of the catalogue. */
const DECISIONS = [
  '## Readings of the specification',
  '',
  '- "Either bankCode or bic is required" applies when the account is a national `bankAccount.number`:',
  '  an IBAN already carries the bank code (rule `bankCodeOrBic`).',
  '- "givenName and surname are required when any other customer parameter is sent": device data',
  '  (`browser.*`, `browserFingerprint.*`, `app.*`, `ip`) does not count, because the widget and 3D',
  '  Secure v2 send it without the shopper\'s name (rule `customerNamesRequired`).',
  '- A CVV is demanded on payments (`payment`, `checkoutPayment`) only, never on registrations; not',
  '  for repeated or merchant-initiated standing instructions, decrypted wallet data or device PANs.',
  '- `billing.postcode` admits spaces and hyphens beside letters and digits (SW1A 1AA, 00-950);',
  '  `shipping.city` "letters" admits letters of any script plus space, dot, apostrophe and hyphen.',
  '- `bankAccount.mandate.id` admits letters and hyphens only, exactly as the specification says.',
  '- Formats the specification leaves without a length ("AN") are bounded at 255 characters; wallet',
  '  payment tokens at 32,768 and `threeDSecure.deviceInfo` at 16,384.',
  '- Every indexed structure is bounded like the cart: indexes 0 to 999.',
  '- `pageNo` (reporting) and `registrationId` (schedules) come from the compatibility reference.',
  '- `chargebackResultCode` is accepted on payments, for the test system to raise a chargeback later.',
  '',
];

function endpointTable(): string[] {
  return [
    '## Endpoints',
    '',
    '| Column | Endpoint | Request |',
    '|---|---|---|',
    ...ENDPOINTS.map((endpoint) => {
      const route = ENDPOINT_ROUTES[endpoint];
      return `| ${route.abbreviation} | \`${endpoint}\` | ${route.method.toUpperCase()} \`${route.path}\`: ${cell(route.summary)} |`;
    }),
    '',
    `Not served yet, so not documented here (their catalogue rows wait in \`src/catalogue/\`; \`served\` in \`src/catalogue/render/endpoints.ts\` turns each on): ${UNSERVED.map(code).join(', ')}.`,
    '',
    'R required, C conditional (a rule below or the connector decides), O optional, — not allowed.',
    '',
  ];
}

function rulesTable(): string[] {
  return [
    '## Conditional rules, in precedence order',
    '',
    '| Rule | What it demands | Result codes |',
    '|---|---|---|',
    ...RULES.map((rule) => `| \`${rule.id}\` | ${cell(rule.description)} | ${rule.codes.join(', ')} |`),
    '',
    '### Card brands',
    '',
    'paymentBrand may be left out when the card number lies in the range of one of these brands.',
    '',
    '| Brand | Number ranges (credit-card-type) | CVV | CVV digits | Luhn checked |',
    '|---|---|---|---|---|',
    ...CARD_BRANDS.map((brand) => `| ${brand.brand} | ${brand.detectedAs.join(', ')} | ${brand.cvv} | ${brand.cvvLength} | ${brand.luhnChecked ? 'yes' : 'no'} |`),
    '',
    '### When 3D Secure v2 needs browser data',
    '',
    'The C fields of `customer.browser.*` (acceptHeader, language, screenHeight, screenWidth,',
    'timezone, userAgent, javaEnabled), `billing.street1`, `city`, `postcode`, `country` and',
    '`shopperResultUrl` are required exactly when the gateway runs a 3D Secure v2 authentication:',
    'the card is enrolled (or enrollment is forced with',
    THREE_D_SECURE_V2_SIGNALS.slice(0, 2).map(code).join(', ') + ')',
    'and the entity\'s 3-D Secure setting lets it run (docs/api.md, "3-D Secure"). Not when an',
    'external result is passed through (`threeDSecure.eci`, `verificationId`, `authenticationStatus`).',
    '',
  ];
}

function formatCell(row: ParameterRow): string {
  const value = `${cell(row.format.notation)}<br>${code(row.format.pattern)}`;
  return row.keyFormat ? `name: ${code(row.keyFormat.pattern)}<br>value: ${value}` : value;
}

function rowLine(row: ParameterRow): string {
  const uses = ENDPOINTS.map((endpoint) => row.use[endpoint] ?? '—');
  const within = row.requiredWithin ? code(`${row.requiredWithin}*`) : '';
  const codes = row.missingCode === row.code ? row.code : `${row.code}<br>missing: ${row.missingCode}`;
  const notes = [row.secret ? `secret (${row.secret})` : '', row.echo ? '' : 'not echoed', cell(row.description)].filter(Boolean).join('; ');
  return `| ${code(row.name)} | ${formatCell(row)} | ${uses.join(' | ')} | ${within} | ${codes} | ${notes} |`;
}

function parameterTables(): string[] {
  const header = `| Parameter | Format | ${ENDPOINTS.map((endpoint) => ENDPOINT_ROUTES[endpoint].abbreviation).join(' | ')} | Within | Code | Notes |`;
  const divider = `|${'---|'.repeat(ENDPOINTS.length + 5)}`;
  // Rows only endpoints still to come accept stay in the catalogue, out of the documentation.
  const rows = CATALOGUE.filter(isDocumented);
  const sections = [...new Set(rows.map((row) => row.section))];
  return sections.flatMap((section) => [
    `### ${section}`,
    '',
    header,
    divider,
    ...rows.filter((row) => row.section === section).map(rowLine),
    '',
  ]);
}

export function renderParametersMarkdown(): string {
  return [...PREAMBLE, ...cardNumberSection(), ...DECISIONS, ...endpointTable(), ...rulesTable(), '## Parameters', '', ...parameterTables()].join('\n');
}
