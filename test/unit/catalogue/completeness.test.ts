import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CATALOGUE } from '../../../src/catalogue/catalogue.js';

/**
 * Every parameter named in a request table of the two specification documents has a catalogue
 * row. The tables are parsed, not copied, so a spec change shows up here.
 */

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url));
const SPEC_DIRECTORIES = [process.env['SPEC_DIR'], join(REPOSITORY, 'docs/spec'), join(REPOSITORY, '../shared/spec')].filter(
  (directory): directory is string => directory !== undefined,
);
const SPEC_DIRECTORY = SPEC_DIRECTORIES.find((directory) => existsSync(join(directory, 'core.md')));
const SPEC_FILES = ['core.md', 'party-and-order-data.md'];

/** Tables of response data: what the gateway sends, not what it accepts. */
const RESPONSE_SECTIONS = new Set(['Asynchronous payment response parameters', 'Payment response parameters', 'Webhook notifications']);

/** Tables whose first column names fields relative to a structure the section's prose gives. */
const RELATIVE_PREFIXES: Readonly<Record<string, string>> = {
  'Cart items': 'cart.items[n].',
  'Cart payments': 'cart.payments[n].',
  'Airline / Passenger level': 'airline.passengers[n].',
  'Airline / Leg level': 'airline.passengers[n].legs[n].',
};

/** Parameters the spec names in prose, not in a table (mobile wallets). */
const PROSE_PARAMETERS = [
  ...['walletA', 'walletB', 'walletC'].flatMap((wallet) => [`${wallet}.paymentToken`, `${wallet}.source`]),
  'walletA.cardNetwork',
  'walletA.cardType',
];

interface SpecTable {
  readonly context: string;
  readonly firstCells: readonly string[];
}

function parentOf(name: string): string {
  return name.slice(0, name.lastIndexOf('.') + 1);
}

/** One first-column cell → the parameter names it stands for. */
export function expandCell(cell: string, previous: readonly string[]): string[] {
  const text = cell.replace(/`/g, '').replace(/\s*\([^)]*\)\s*$/, '').trim();
  const networks = /^(.*)network([A-F]) \.\.\. network([A-F])$/.exec(text);
  if (networks) {
    const subFields = previous.map((name) => name.slice(name.lastIndexOf('.') + 1));
    const letters = 'ABCDEF'.slice('ABCDEF'.indexOf(networks[2]!), 'ABCDEF'.indexOf(networks[3]!) + 1);
    return [...letters].flatMap((letter) => subFields.map((field) => `${networks[1]}network${letter}.${field}`));
  }
  const parts = text.split(/\s*(?:,|\s\/)\s*/).filter(Boolean);
  const parent = parentOf(parts[0]!);
  return parts.map((part, index) => (index === 0 || part.includes('.') ? part : parent + part));
}

function tablesOf(markdown: string): SpecTable[] {
  const tables: SpecTable[] = [];
  const lines = markdown.split('\n');
  let section = '';
  let label = '';
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.startsWith('#')) [section, label] = [line.replace(/^#+\s*/, ''), ''];
    else if (/^[A-Z][a-z]+ level/.test(line)) label = line.replace(/ level.*$/, ' level');
    if (!line.startsWith('|') || !lines[index + 1]?.startsWith('|---')) continue;
    const header = line.split('|')[1]!.trim();
    const rows: string[] = [];
    for (index += 2; lines[index]?.startsWith('|'); index += 1) rows.push(lines[index]!.split('|')[1]!.trim());
    if (header === 'Parameter' || header === 'Field') tables.push({ context: label ? `${section} / ${label}` : section, firstCells: rows });
  }
  return tables;
}

export function specParameterNames(markdown: string): string[] {
  const names: string[] = [];
  for (const table of tablesOf(markdown)) {
    if (RESPONSE_SECTIONS.has(table.context)) continue;
    const prefix = RELATIVE_PREFIXES[table.context] ?? '';
    let previous: string[] = [];
    for (const cell of table.firstCells) {
      previous = expandCell(cell, previous);
      for (const name of previous) {
        assert.ok(prefix || name.includes('.') || /^[a-zA-Z]+(\[[^\]]+\])?$/.test(name), `no prefix known for ${name} in ${table.context}`);
        names.push(prefix + name);
      }
    }
  }
  return names;
}

/** [name], [key] and [brand] are the same kind of placeholder. */
const normalise = (name: string) => name.replace(/\[(name|key|brand)\]/g, '[key]');
const catalogueNames = new Set(CATALOGUE.map((row) => normalise(row.name)));

test('expanding composite cells', () => {
  assert.deepEqual(expandCell('threeDSecure.v2.networkA.requestorId / requestorName', []), [
    'threeDSecure.v2.networkA.requestorId',
    'threeDSecure.v2.networkA.requestorName',
  ]);
  assert.deepEqual(expandCell('merchant.billing.givenName, surname, middleName', []), [
    'merchant.billing.givenName',
    'merchant.billing.surname',
    'merchant.billing.middleName',
  ]);
  assert.deepEqual(expandCell('shipping.street1, shipping.street2', []), ['shipping.street1', 'shipping.street2']);
  assert.deepEqual(expandCell('threeDSecure.v2.networkB ... networkC (same two sub-fields)', ['x.requestorId', 'x.requestorName']), [
    'threeDSecure.v2.networkB.requestorId',
    'threeDSecure.v2.networkB.requestorName',
    'threeDSecure.v2.networkC.requestorId',
    'threeDSecure.v2.networkC.requestorName',
  ]);
  assert.deepEqual(expandCell('`customParameters[name]`', []), ['customParameters[name]']);
});

test('every request parameter of both specification documents has a catalogue row', (context) => {
  if (!SPEC_DIRECTORY) {
    context.skip(`specification not found in ${SPEC_DIRECTORIES.join(', ')}; set SPEC_DIR`);
    return;
  }
  const specNames = SPEC_FILES.flatMap((file) => specParameterNames(readFileSync(join(SPEC_DIRECTORY, file), 'utf8')));
  assert.ok(specNames.length > 350, `only ${specNames.length} names parsed: the table parser is broken`);
  const missing = [...new Set([...specNames, ...PROSE_PARAMETERS])].filter((name) => !catalogueNames.has(normalise(name)));
  assert.deepEqual(missing, []);
});

test('shipping.customer.* mirrors customer.* minus the device data the spec excludes', () => {
  const excluded = (name: string) => name.startsWith('customer.browserFingerprint.') || ['customer.browser.deviceId', 'customer.app.deviceId'].includes(name);
  for (const row of CATALOGUE.filter((entry) => entry.name.startsWith('customer.'))) {
    const mirrored = `shipping.${row.name}`;
    assert.equal(catalogueNames.has(mirrored), !excluded(row.name), mirrored);
  }
});

test('merchant.billing.* and merchant.shipping.* hold every billing and shipping address field', () => {
  for (const [from, to] of [['billing.', 'merchant.billing.'], ['shipping.', 'merchant.shipping.']] as const) {
    const fields = CATALOGUE.filter((row) => row.name.startsWith(from) && !row.name.startsWith('shipping.customer.'));
    assert.ok(fields.length >= 10);
    for (const row of fields) assert.ok(catalogueNames.has(to + row.name.slice(from.length)), to + row.name.slice(from.length));
  }
});
