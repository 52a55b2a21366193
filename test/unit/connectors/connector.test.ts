import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { callConnector, normalizeOutcome } from '../../../src/connectors/connector.js';

const DETAILS = { ConnectorTxID1: 'SIM-1', AcquirerResponse: '00' };

describe('normalizeOutcome: never success unless the connector clearly said so', () => {
  // [case, raw outcome, kind, code, replaced by pending?]
  const table: ReadonlyArray<readonly [string, unknown, string, string, boolean]> = [
    ['success with a success code', { kind: 'success', code: '000.100.110', resultDetails: DETAILS }, 'success', '000.100.110', false],
    ['success, live', { kind: 'success', code: '000.000.000', resultDetails: {} }, 'success', '000.000.000', false],
    ['declined with a decline code', { kind: 'declined', code: '800.100.203', resultDetails: DETAILS }, 'declined', '800.100.203', false],
    ['pending with a pending code', { kind: 'pending', code: '000.200.000', resultDetails: {} }, 'pending', '000.200.000', false],
    ['pending, may change over days', { kind: 'pending', code: '800.400.500', resultDetails: {} }, 'pending', '800.400.500', false],
    ['unknown (timeout)', { kind: 'unknown', code: '900.100.300', resultDetails: DETAILS }, 'pending', '000.200.000', true],
    ['success with a decline code', { kind: 'success', code: '800.100.100', resultDetails: {} }, 'pending', '000.200.000', true],
    ['success with a code outside the catalogue', { kind: 'success', code: '000.100.999', resultDetails: {} }, 'pending', '000.200.000', true],
    ['declined with a success code', { kind: 'declined', code: '000.000.000', resultDetails: {} }, 'pending', '000.200.000', true],
    ['declined with a pending code', { kind: 'declined', code: '000.200.000', resultDetails: {} }, 'pending', '000.200.000', true],
    ['pending with a success code', { kind: 'pending', code: '000.000.000', resultDetails: {} }, 'pending', '000.200.000', true],
    ['a kind nobody knows', { kind: 'approved', code: '000.000.000', resultDetails: {} }, 'pending', '000.200.000', true],
    ['no code', { kind: 'success', resultDetails: {} }, 'pending', '000.200.000', true],
    ['null', null, 'pending', '000.200.000', true],
    ['a string', 'OK', 'pending', '000.200.000', true],
    ['an array', [{ kind: 'success', code: '000.000.000' }], 'pending', '000.200.000', true],
  ];
  for (const [name, raw, kind, code, replaced] of table) {
    it(name, () => {
      const outcome = normalizeOutcome(raw);
      assert.equal(outcome.kind, kind);
      assert.equal(outcome.code, code);
      assert.equal(outcome.normalizedBecause !== undefined, replaced);
    });
  }

  it('keeps the connector references of an unknown outcome for later resolution', () => {
    assert.deepEqual(normalizeOutcome({ kind: 'unknown', code: '900.100.300', resultDetails: DETAILS }).resultDetails, DETAILS);
  });

  it('drops invalid optional fields and keeps valid ones', () => {
    const outcome = normalizeOutcome({
      kind: 'success',
      code: '000.100.110',
      avsResponse: 'X',
      cvvResponse: 'M',
      schemeTransactionId: 'SIM123456789012345',
      card: { type: 'GOLD', issuer: { bank: 'Bank', phone: 7 } },
      resultDetails: { ok_name: 'v', 'bad name': 'v', xy: 'too short a name', number: 5, long: 'x'.repeat(2049) },
    });
    assert.equal(outcome.avsResponse, undefined);
    assert.equal(outcome.cvvResponse, 'M');
    assert.equal(outcome.schemeTransactionId, 'SIM123456789012345');
    assert.deepEqual(outcome.card, { issuer: { bank: 'Bank' } });
    assert.deepEqual(outcome.resultDetails, { ok_name: 'v' });
  });

  it('drops details that quote the card number, even formatted', () => {
    const outcome = normalizeOutcome(
      {
        kind: 'declined',
        code: '800.100.100',
        resultDetails: { ExtendedDescription: 'card 4200 0000 0000 0000 declined', AcquirerResponse: '05' },
        schemeTransactionId: 'x4200000000000000',
      },
      { secretNumbers: ['4200000000000000', '123'] },
    );
    assert.deepEqual(outcome.resultDetails, { AcquirerResponse: '05' });
    assert.equal(outcome.schemeTransactionId, undefined);
  });
});

describe('callConnector', () => {
  it('turns a throw into pending without quoting the error message', async () => {
    const outcome = await callConnector(async () => {
      throw new TypeError('card 4200000000000000 broke');
    });
    assert.equal(outcome.kind, 'pending');
    assert.equal(outcome.code, '000.200.000');
    assert.ok(!JSON.stringify(outcome).includes('4200000000000000'));
  });

  it('normalizes what the connector returned', async () => {
    const outcome = await callConnector(async () => ({ kind: 'success', code: '000.100.110', resultDetails: {} }));
    assert.equal(outcome.kind, 'success');
  });
});

describe('callConnector: a connector that does not answer in time', () => {
  it('is pending (unknown), never a success, once the time is up', async () => {
    const outcome = await callConnector(() => new Promise(() => undefined), { timeoutMs: 20 });
    assert.deepEqual([outcome.kind, outcome.code, outcome.normalizedBecause], ['pending', '000.200.000', 'connector did not answer in time']);
  });

  it('an answer within the time is taken as it is', async () => {
    const outcome = await callConnector(async () => ({ kind: 'declined', code: '800.100.152', resultDetails: {} }), { timeoutMs: 1_000 });
    assert.equal(outcome.kind, 'declined');
  });
});

describe('normalizeOutcome: redirects', () => {
  const redirect = { url: 'https://acs.example/challenge', method: 'POST', parameters: [{ name: 'creq', value: 'abc' }] };
  const table: ReadonlyArray<readonly [string, Record<string, unknown>, boolean]> = [
    ['kept with a pending outcome', { kind: 'pending', code: '000.200.000', resultDetails: {}, redirect }, true],
    ['dropped from a success', { kind: 'success', code: '000.100.110', resultDetails: {}, redirect }, false],
    ['dropped when the URL is not http(s)', { kind: 'pending', code: '000.200.000', resultDetails: {}, redirect: { ...redirect, url: 'javascript:alert(1)' } }, false],
    ['dropped when the method is not GET or POST', { kind: 'pending', code: '000.200.000', resultDetails: {}, redirect: { ...redirect, method: 'PUT' } }, false],
    ['dropped when a parameter carries the card number', { kind: 'pending', code: '000.200.000', resultDetails: {}, redirect: { ...redirect, parameters: [{ name: 'pan', value: '4200000000000000' }] } }, false],
  ];
  for (const [name, raw, kept] of table) {
    it(name, () => {
      const outcome = normalizeOutcome(raw, { secretNumbers: ['4200000000000000'] });
      assert.equal(outcome.redirect !== undefined, kept);
    });
  }
});
