import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loggableId, MAX_LOGGED_PARAMETER_NAMES, resultLogFields } from '../../src/http/request-log-facts.js';

describe('a result as the request log line shows it', () => {
  const cases: { name: string; result: Parameters<typeof resultLogFields>[0]; expected: ReturnType<typeof resultLogFields> }[] = [
    { name: 'a success: the code alone', result: { code: '000.100.110' }, expected: { resultCode: '000.100.110' } },
    { name: 'a pending answer: the code alone', result: { code: '000.200.000' }, expected: { resultCode: '000.200.000' } },
    {
      name: 'a decline: the code and the catalogue reason',
      result: { code: '800.100.151' },
      expected: { resultCode: '800.100.151', reason: 'transaction declined (invalid card)' },
    },
    {
      name: 'a validation refusal: the names that failed, never their values',
      result: { code: '200.300.404', parameterErrors: [{ name: 'card.number', value: '4200000000000001', message: 'invalid' }, { name: 'billing.city', value: '', message: 'is required' }] },
      expected: { resultCode: '200.300.404', reason: 'invalid or missing parameter', failedParameters: ['card.number', 'billing.city'] },
    },
    {
      name: 'an unknown parameter named like a card number: the name masked',
      result: { code: '200.300.404', parameterErrors: [{ name: '4200000000000000', value: 'x', message: 'unknown' }] },
      expected: { resultCode: '200.300.404', reason: 'invalid or missing parameter', failedParameters: ['420000******0000'] },
    },
  ];
  for (const { name, result, expected } of cases) {
    it(name, () => assert.deepEqual(resultLogFields(result), expected));
  }

  it('hundreds of failed names: the first ones and how many failed', () => {
    const parameterErrors = Array.from({ length: 150 }, (_, index) => ({ name: `unknown${index}`, value: '', message: 'unknown' }));
    const fields = resultLogFields({ code: '200.300.404', parameterErrors });
    assert.equal(fields.failedParameters?.length, MAX_LOGGED_PARAMETER_NAMES);
    assert.equal(fields.failedParameters?.[0], 'unknown0');
    assert.equal(fields.failedParameterCount, 150);
  });

  it('a code outside the catalogue: the code without a reason', () => {
    assert.deepEqual(resultLogFields({ code: '999.000.001' }), { resultCode: '999.000.001' });
  });
});

describe('an id the client sent, as the log may show it', () => {
  it('a well-formed id as it came', () => assert.equal(loggableId('8a8294174b7ecb28014b9699220015ca'), '8a8294174b7ecb28014b9699220015ca'));
  it('an id holding a card number: left out', () => assert.equal(loggableId('4200000000000000aaaaaaaaaaaaaaaa'), undefined));
  it('a checkout id holding one: left out', () => assert.equal(loggableId('4200000000000000AAAAAAAAAAAAAAAA.gw01'), undefined));
  it('none: none', () => assert.equal(loggableId(undefined), undefined));
});
