import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATALOGUE, endpointCatalogue } from '../../../src/catalogue/catalogue.js';
import { RULES } from '../../../src/catalogue/rules/index.js';
import { ENDPOINTS } from '../../../src/catalogue/types.js';
import { hasIndex, hasMapKey, parsePattern } from '../../../src/catalogue/names.js';
import { resultCodes } from '../../../src/results/catalogue.js';

/** Properties of the catalogue data that the engine and the renderers rely on. */

test('every result code a row or rule names is in the result-code catalogue', () => {
  const codes = [...CATALOGUE.flatMap((row) => [row.code, row.missingCode]), ...RULES.flatMap((rule) => rule.codes)];
  assert.deepEqual(codes.filter((code) => !resultCodes.has(code)), []);
});

test('one row per name on each endpoint', () => {
  for (const endpoint of ENDPOINTS) {
    const names = endpointCatalogue(endpoint).rows.map((entry) => entry.row.name);
    assert.equal(new Set(names).size, names.length, endpoint);
  }
});

test('no parameter is also the parent of another, so the typed request is a tree', () => {
  const paths = new Set(CATALOGUE.map((row) => parsePattern(row.name).map((segment) => ('key' in segment ? segment.key : `[${segment.kind}]`)).join('/')));
  for (const path of paths) {
    for (const other of paths) assert.ok(!other.startsWith(`${path}/`), `${path} is a prefix of ${other}`);
  }
});

test('sections are contiguous, so the documentation tables follow catalogue order', () => {
  const seen: string[] = [];
  for (const row of CATALOGUE) {
    if (seen.at(-1) === row.section) continue;
    assert.ok(!seen.includes(row.section), `section ${row.section} is split`);
    seen.push(row.section);
  }
});

test('required and required-within rows are plain names, and maps have a key format', () => {
  for (const row of CATALOGUE) {
    const required = Object.values(row.use).includes('R') || row.requiredWithin !== undefined;
    if (required) assert.ok(!hasIndex(row.name) && !hasMapKey(row.name), row.name);
    assert.equal(hasMapKey(row.name), row.keyFormat !== undefined, row.name);
  }
});

test('the secrets of the brief are masked', () => {
  const secrets = [
    'card.number', 'card.cvv', 'tokenAccount.number', 'tokenAccount.cryptogram', 'tokenAccount.dtvc',
    'walletA.paymentToken', 'walletB.paymentToken', 'walletC.paymentToken', 'bankAccount.number', 'bankAccount.iban',
    'giftCard.number', 'giftCard.pin', 'threeDSecure.verificationId', 'sender.accountNumber', 'recipient.accountNumber',
  ];
  for (const name of secrets) assert.ok(CATALOGUE.find((row) => row.name === name)?.secret, name);
});

test('every row of the catalogue is admitted by at least one endpoint', () => {
  for (const row of CATALOGUE) assert.ok(Object.keys(row.use).length > 0, row.name);
});
