import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRiskListCsv } from '../../../src/operations/risk/import-risk-list.js';
import { GatewayError } from '../../../src/results/gateway-error.js';

/** What a refused CSV answers: its messages, each naming a line, never a value. */
function refusal(csv: string): string[] {
  try {
    parseRiskListCsv(csv);
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    return error.parameterErrors!.map((p) => p.message);
  }
  return assert.fail('the CSV was refused');
}

describe('the risk list CSV import (a row per case)', () => {
  it('reads kind, value and reason with their line numbers; a header, blank and # lines are skipped', () => {
    const lines = parseRiskListCsv('kind,value,reason\r\nemail,a@shop.test,"chargebacks, twice"\n\n# a comment\nCARD,4012 8888 8888 1881\n');
    assert.deepEqual(lines, [
      { line: 2, kind: 'email', value: 'a@shop.test', reason: 'chargebacks, twice' },
      { line: 5, kind: 'card', value: '4012 8888 8888 1881', reason: null },
    ]);
  });
  const cases: readonly [string, string, string][] = [
    ['an unknown kind', 'email,a@shop.test\nphone,123', 'line 2: kind must be one of card, bin, iban, email, ip, country'],
    ['a card failing its check digit', 'card,4012888888881882', 'line 1: value must be a card number of 12 to 19 digits with a valid check digit'],
    ['a fourth field', 'ip,203.0.113.9,reason,extra', 'line 1: has more than three fields (kind, value, reason)'],
    ['an unclosed quote (at the line it opens)', 'email,a@shop.test\nemail,"b@shop.test\n', 'line 2: the CSV is malformed (csv quote not closed)'],
    ['nothing but a header', 'kind,value,reason\n', 'line 0: the CSV has no entries: one line per entry, kind,value[,reason]'],
  ];
  for (const [name, csv, message] of cases) {
    it(`refuses ${name}`, () => {
      const messages = refusal(csv);
      assert.deepEqual(messages, [message]);
      assert.ok(!messages.join().includes('4012888888881882'));
    });
  }
  it('names every bad line at once', () => {
    assert.deepEqual(refusal('bin,12\ncountry,XX\nemail,ok@shop.test\nip,not-an-ip').map((m) => m.slice(0, 7)), ['line 1:', 'line 2:', 'line 4:']);
  });
});
