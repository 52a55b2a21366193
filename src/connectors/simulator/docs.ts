import { LATER_OUTCOME_ROWS } from './status.js';
import { resultCode } from '../../results/catalogue.js';
import { SIMULATOR_ROWS } from './rules.js';
import { SUCCESS, type SimulatorRow } from './row.js';
import { SIMULATED_ISSUERS } from './outcome.js';
import { AVS_ROWS, CVV_ROWS, ANY_OTHER, SIMULATOR_FLAVOURS, type LetterRow } from './tables.js';
import { WALLET_TEST_KEYS_HEX } from './wallet-token.js';

import { ASYNCHRONOUS_BRANDS } from '../../domain/payment-brands.js';
import { EXPIRY_CODES } from '../../operations/redirects/expiry-codes.js';
import { PROVIDER_CHOICES, PROVIDER_LATER_ROWS } from './provider.js';
import { threeDSecureSimulatorDocs } from './three-d-secure/docs.js';

export const GENERATED_BEGIN = '<!-- BEGIN GENERATED: simulator tables (src/connectors/simulator/docs.ts) -->';
export const GENERATED_END = '<!-- END GENERATED -->';

const PENDING = '000.200.000';

/** The code the client finally sees: an unknown outcome is stored as pending. */
export function visibleCode(row: SimulatorRow): string {
  return row.outcome.kind === 'unknown' ? PENDING : row.outcome.code;
}

export function httpStatusOf(row: SimulatorRow): number {
  return row.outcome.code === SUCCESS ? 200 : resultCode(visibleCode(row)).httpStatus;
}

/** The generated part of docs/simulator.md, from the same rows the simulator answers with. */
export function renderSimulatorTables(): string {
  return [GENERATED_BEGIN, '', ...outcomeTable(), '', ...laterOutcomeTable(), '', ...successTable(), '', ...letterTable('billing.postcode', 'avsResponse', AVS_ROWS), '',
    ...letterTable('card.cvv', 'cvvResponse', CVV_ROWS), '', ...issuerTable(), '', ...walletKeyTable(), '', ...providerTables(), '',
    '### 3-D Secure v2', '', threeDSecureSimulatorDocs(), '', GENERATED_END].join('\n');
}

/** `markdown` (docs/simulator.md) with its generated block replaced by the current tables; for `npm run docs`. */
export function spliceSimulatorTables(markdown: string): string {
  const start = markdown.indexOf(GENERATED_BEGIN);
  const end = markdown.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error('docs/simulator.md lacks the generated-block markers');
  return markdown.slice(0, start) + renderSimulatorTables() + markdown.slice(end + GENERATED_END.length);
}

/** The asynchronous brands and the provider page's choices. */
function providerTables(): string[] {
  return [
    '### Asynchronous brands (simulated provider page)',
    '',
    '| Brand | Shown as | Method code | Redirect | Required besides shopperResultUrl |',
    '|---|---|---|---|---|',
    ...ASYNCHRONOUS_BRANDS.map((b) => `| ${b.brand} | ${b.name} | ${b.methodCode} | ${b.redirectMethod} | ${b.required.map((name) => `\`${name}\``).join(', ') || '—'} |`),
    '',
    '### Provider page choices (`outcome`)',
    '',
    '| outcome | Payment ends | Code | Meaning |',
    '|---|---|---|---|',
    ...PROVIDER_CHOICES.map((c) => `| \`${c.outcome}\` | ${c.kind === 'success' ? 'success' : 'rejected'} | ${c.code === 'SUCCESS' ? '000.100.110 (INTERNAL), 000.100.112 (EXTERNAL)' : `${c.code} ${resultCode(c.code).description}`} | ${c.meaning} |`),
    `| (nobody, before REDIRECT_EXPIRY_MINUTES) | as the provider's status says (below) | ${EXPIRY_CODES.provider} ${resultCode(EXPIRY_CODES.provider).description} for any amount without a row | the expiry job hands the payment to the status checks |`,
    '',
    '### What the provider says after the shopper left (status query and cancel)',
    '',
    'Asked by the status checks once the redirect expired, and (cancel) before a new widget attempt of the same checkout.',
    '',
    '| Amount | Payment | Status code | Cancel code | Meaning |',
    '|---|---|---|---|---|',
    ...PROVIDER_LATER_ROWS.map((r) => `| ${r.amountMinor === null ? 'any other' : `${(Number(r.amountMinor) / 100).toFixed(2)} (${r.amountMinor} minor units)`} | ${r.kind} | ${laterCode(r.statusCode)} | ${laterCode(r.cancelCode)} | ${r.meaning} |`),
  ];
}

function laterCode(code: string): string {
  return code === 'SUCCESS' ? 'the success code' : `\`${code}\` ${resultCode(code).description}`;
}

function outcomeTable(): string[] {
  return [
    '### Outcomes (first matching row wins)',
    '',
    '| # | Row | Operations | Input | Result code | Description | HTTP | AVS | CVV | AcquirerResponse |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...SIMULATOR_ROWS.map((row, index) => cells([
      String(index + 1), `\`${row.id}\``, row.operations.join(' '), row.input, codeCell(row), descriptionCell(row),
      String(httpStatusOf(row)), letterCell(row.outcome.avsResponse, row.lettersFromTables, 'by postcode'),
      letterCell(row.outcome.cvvResponse, row.lettersFromTables, 'by CVV'), `\`${row.outcome.acquirerResponse}\``,
    ])),
  ];
}

function codeCell(row: SimulatorRow): string {
  return row.outcome.code === SUCCESS ? 'success code' : `\`${visibleCode(row)}\``;
}

function descriptionCell(row: SimulatorRow): string {
  if (row.outcome.code === SUCCESS) return 'see Success codes';
  const described = resultCode(visibleCode(row)).description;
  if (row.outcome.kind !== 'unknown') return described;
  return `${described} (the connector answers \`${row.outcome.code}\` ${resultCode(row.outcome.code).description}; never success)`;
}

function letterCell(fixed: string | undefined, fromTables: boolean, tableName: string): string {
  return fixed ?? (fromTables ? tableName : '—');
}

function laterOutcomeTable(): string[] {
  return [
    '### Later outcomes (status query of a pending transaction)',
    '',
    '| Amount | Operations | Answer | Result code | Meaning |',
    '|---|---|---|---|---|',
    ...LATER_OUTCOME_ROWS.map((row) =>
      cells([
        row.amountMinor === null ? 'any other' : `${(Number(row.amountMinor) / 100).toFixed(2)} (${row.amountMinor} minor units)`,
        row.operations,
        row.kind,
        row.code === 'SUCCESS' ? 'the success code below' : `\`${row.code}\``,
        row.meaning,
      ])),
  ];
}

function successTable(): string[] {
  return [
    '### Success codes',
    '',
    '| Connector | Serves | Success code |',
    '|---|---|---|',
    ...SIMULATOR_FLAVOURS.map((flavour) =>
      cells([`\`${flavour.connectorId}\``, flavour.serves, `\`${flavour.successCode}\``])),
  ];
}

function letterTable<Letter extends string>(field: string, response: string, rows: readonly LetterRow<Letter>[]): string[] {
  return [
    `### ${response} by ${field}`,
    '',
    `| ${field} | ${response} | Meaning |`,
    '|---|---|---|',
    ...rows.map((row) => cells([row.value === null ? '(absent)' : row.value === ANY_OTHER ? 'any other' : `\`${row.value}\``, row.letter ?? '(none)', row.meaning])),
  ];
}

function issuerTable(): string[] {
  return [
    '### Card data of the simulated issuers',
    '',
    '| Scheme | card.type | card.regulatedFlag | card.issuer.bank | card.issuer.phone | card.issuer.website |',
    '|---|---|---|---|---|---|',
    ...Object.entries(SIMULATED_ISSUERS).map(([scheme, info]) =>
      cells([scheme, info.type ?? '', info.regulated === undefined ? '' : String(info.regulated), info.issuer?.bank ?? '', info.issuer?.phone ?? '', info.issuer?.website ?? ''])),
  ];
}

function walletKeyTable(): string[] {
  return [
    '### Wallet test keys (AES-256, hex)',
    '',
    '| Wallet | Key |',
    '|---|---|',
    ...Object.entries(WALLET_TEST_KEYS_HEX).map(([wallet, key]) => cells([wallet, `\`${key}\``])),
  ];
}

function cells(values: readonly string[]): string {
  return `| ${values.map((value) => value.replace(/\|/g, '\\|')).join(' | ')} |`;
}
