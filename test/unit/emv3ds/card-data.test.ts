import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encode, readMessage } from '../../../src/connectors/emv3ds/codec.js';
import { erroFor } from '../../../src/connectors/emv3ds/errors.js';
import { browserAReq, PAN } from '../../support/emv3ds.js';

const areq = (overrides: Record<string, unknown>): string => JSON.stringify({ ...browserAReq(), ...overrides });
/** The PAN and its longest pieces a careless message could still leak (BIN + middle, middle + last four). */
const leaks = (text: string): boolean => text.includes(PAN) || text.includes(PAN.slice(0, 12)) || text.includes(PAN.slice(4));

/** Malformed AReqs that carry the PAN somewhere: the error names the field, never the value. */
const CASES: readonly { readonly name: string; readonly text: string; readonly code: string; readonly detail: string }[] = [
  { name: 'acctNumber with a letter', text: areq({ acctNumber: `${PAN}X` }), code: '203', detail: 'acctNumber' },
  { name: 'acctNumber of 20 digits', text: areq({ acctNumber: `${PAN}0000` }), code: '203', detail: 'acctNumber' },
  { name: 'acctNumber as a JSON number', text: areq({ acctNumber: Number(PAN) }), code: '203', detail: 'acctNumber' },
  { name: 'the PAN in another field', text: areq({ threeDSServerTransID: PAN, merchantName: `shop ${PAN}`.padEnd(50, '.') }), code: '203', detail: 'threeDSServerTransID,merchantName' },
  { name: 'acctNumber twice', text: `${areq({}).slice(0, -1)},"acctNumber":"${PAN}"}`, code: '204', detail: 'acctNumber' },
  { name: 'the PAN as a duplicate key', text: `${areq({ [PAN]: '1' }).slice(0, -1)},"${PAN}":"2"}`, code: '204', detail: 'an extension data element' },
  { name: 'the PAN as a critical extension id', text: areq({ messageExtension: [{ name: 'x', id: PAN, criticalityIndicator: true, data: {} }] }), code: '202', detail: '*'.repeat(PAN.length) },
  { name: 'not JSON around the PAN', text: `{"messageType":"AReq","acctNumber":"${PAN}",`, code: '101', detail: 'message is not valid JSON' },
  { name: 'the PAN as a bare number', text: PAN, code: '101', detail: 'message is not a JSON object' },
];

describe('EMV 3DS card data: a refused AReq never echoes the PAN', () => {
  for (const { name, text, code, detail } of CASES) {
    it(name, () => {
      assert.ok(leaks(text), 'the case does carry the PAN');
      const result = readMessage(text, 'AReq');
      assert.ok(!result.ok);
      assert.equal(result.error.code, code);
      assert.equal(result.error.detail, detail);
      const answer = encode(erroFor(result.error, 'D'));
      assert.ok(!leaks(answer), `the Erro carries no card digits: ${answer}`);
      assert.ok(!leaks(JSON.stringify(result.error)), 'nor does the error object a caller might log');
    });
  }
});
