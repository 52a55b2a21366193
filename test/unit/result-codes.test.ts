import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isPendingCode, isSuccessCode, resultCode, resultCodes } from '../../src/results/catalogue.js';
import { GatewayError } from '../../src/results/gateway-error.js';

const SHARED_COPY = new URL('../../../shared/reference/result-codes.tsv', import.meta.url);
const PROJECT_COPY = new URL('../../src/results/result-codes.tsv', import.meta.url);

describe('result-code catalogue', () => {
  it('is in step with the shared reference', { skip: existsSync(SHARED_COPY) ? false : 'shared/ not beside the checkout' }, () => {
    assert.equal(readFileSync(PROJECT_COPY, 'utf8'), readFileSync(SHARED_COPY, 'utf8'));
  });

  it('holds 594 codes of the form digits and dots, 2 to 11 characters', () => {
    assert.equal(resultCodes.size, 594);
    for (const code of resultCodes.keys()) assert.match(code, /^[0-9.]{2,11}$/);
  });

  it('uses the specification wording for the two codes it names', () => {
    assert.equal(resultCode('800.120.100').description, 'Too many requests; try again later');
    assert.equal(resultCode('600.200.701').description, 'testMode not allowed on production');
  });

  const statuses: [string, number][] = [
    ['000.000.000', 200],
    ['000.100.110', 200],
    ['000.200.000', 200],
    ['200.300.404', 400],
    ['800.100.100', 400],
    ['600.200.701', 400],
    ['800.900.300', 401],
    ['800.900.301', 403],
    ['700.400.580', 404],
    ['800.120.100', 429],
    ['999.999.888', 503],
  ];
  for (const [code, status] of statuses) {
    it(`${code} answers HTTP ${status}`, () => assert.equal(resultCode(code).httpStatus, status));
  }

  const groups: [string, boolean, boolean][] = [
    ['000.000.000', true, false],
    ['000.100.110', true, false],
    ['000.100.112', true, false],
    ['000.400.110', true, false],
    ['000.200.000', false, true],
    ['800.400.500', false, true],
    ['800.100.100', false, false],
  ];
  for (const [code, success, pending] of groups) {
    it(`${code}: success ${success}, pending ${pending}`, () => {
      assert.equal(isSuccessCode(code), success);
      assert.equal(isPendingCode(code), pending);
    });
  }

  it('an unknown code is a programming error', () => {
    assert.throws(() => new GatewayError('123.456.789'), /not in the catalogue/);
  });
});
