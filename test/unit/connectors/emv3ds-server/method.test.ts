/**
 * The 3DS Method's pure parts (src/connectors/emv3ds-server/method.ts), as tables: the
 * threeDSMethodData codec, the threeDSCompInd rule and when a payment runs the method first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RangeDecision } from '../../../../src/connectors/emv3ds-server/card-ranges.js';
import { decodeMethodData, encodeMethodData, methodUrlToRun, threeDSCompIndOf, type MethodDone } from '../../../../src/connectors/emv3ds-server/method.js';
import { areqVersionOf } from '../../../../src/connectors/emv3ds-server/server.js';

const TRANS_ID = '8a880dc0-d2d2-4067-bcb1-b08d1690b26e';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8').toString('base64url');

describe('threeDSMethodData', () => {
  it('encodes base64url JSON of threeDSServerTransID and threeDSMethodNotificationURL, nothing else', () => {
    const encoded = encodeMethodData(TRANS_ID, 'https://gateway.example/v1/threeDSecure/method/notification');
    assert.match(encoded, /^[A-Za-z0-9_-]+$/, 'base64url, no padding');
    assert.deepEqual(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')), { threeDSServerTransID: TRANS_ID, threeDSMethodNotificationURL: 'https://gateway.example/v1/threeDSecure/method/notification' });
    assert.equal(decodeMethodData(encoded), TRANS_ID, 'what the gateway sends, it reads back');
  });

  const cases: readonly (readonly [string, unknown, string | undefined])[] = [
    ['the ACS\'s answer: the transaction id alone', b64({ threeDSServerTransID: TRANS_ID }), TRANS_ID],
    ['an upper-case id, read lower case (as the redirect keeps it)', b64({ threeDSServerTransID: TRANS_ID.toUpperCase() }), TRANS_ID],
    ['with the notification URL too', b64({ threeDSServerTransID: TRANS_ID, threeDSMethodNotificationURL: 'https://g.example/n' }), TRANS_ID],
    ['with padding', `${b64({ threeDSServerTransID: TRANS_ID })}==`.replace(/===$/, '=='), TRANS_ID],
    ['absent', undefined, undefined],
    ['not a string', ['x'], undefined],
    ['empty', '', undefined],
    ['not base64url', 'not base64 !', undefined],
    ['not JSON', b64('plain text'), undefined],
    ['JSON, not an object', b64([TRANS_ID]), undefined],
    ['JSON null', b64('null'), undefined],
    ['no transaction id', b64({ threeDSMethodNotificationURL: 'https://g.example/n' }), undefined],
    ['a transaction id that is no UUID', b64({ threeDSServerTransID: 'x' }), undefined],
    ['a number as id', b64({ threeDSServerTransID: 7 }), undefined],
    ['longer than any method data', b64({ threeDSServerTransID: TRANS_ID, pad: 'x'.repeat(3000) }), undefined],
  ];
  for (const [name, value, expected] of cases) {
    it(`decodes ${name}: ${expected ?? 'refused'}`, () => assert.equal(decodeMethodData(value), expected));
  }
});

describe('threeDSCompInd', () => {
  const withMethod: RangeDecision = { kind: 'enrolled', messageVersion: '2.3.1', threeDSMethodURL: 'https://acs.example/method' };
  const withoutMethod: RangeDecision = { kind: 'enrolled', messageVersion: '2.2.0' };
  const notified: MethodDone = { threeDSServerTransID: TRANS_ID, completed: 'Y' };
  const notInTime: MethodDone = { threeDSServerTransID: TRANS_ID, completed: 'N' };
  const rows: readonly (readonly [string, RangeDecision | undefined, MethodDone | undefined, 'Y' | 'N' | 'U'])[] = [
    ['a range with a method URL, the ACS notified in time', withMethod, notified, 'Y'],
    ['a range with a method URL, no notification in time', withMethod, notInTime, 'N'],
    ['a range with a method URL, the method not run (no method page: a standalone authentication)', withMethod, undefined, 'N'],
    ['a range without method URL', withoutMethod, undefined, 'U'],
    ['a method that ran, whatever the ranges say now', withoutMethod, notified, 'Y'],
    ['ranges unknown (no PRes): whether the ACS has a method is not known', undefined, undefined, 'N'],
    ['ranges unknown after a method that ran', undefined, notInTime, 'N'],
  ];
  for (const [name, range, done, expected] of rows) {
    it(`${name}: ${expected}`, () => {
      assert.equal(threeDSCompIndOf(range, done), expected);
      assert.equal(areqVersionOf(range, done).threeDSCompInd, expected, 'the AReq says the same');
    });
  }
});

describe('whether a payment runs the method first', () => {
  const withMethod: RangeDecision = { kind: 'enrolled', messageVersion: '2.3.1', threeDSMethodURL: 'https://acs.example/method' };
  const rows: readonly (readonly [string, RangeDecision | undefined, Parameters<typeof methodUrlToRun>[1], string | undefined])[] = [
    ['browser, a method URL, the method page available', withMethod, { channel: 'browser', methodPage: true }, 'https://acs.example/method'],
    ['no channel named (browser), the method page available', withMethod, { methodPage: true }, 'https://acs.example/method'],
    ['the app channel (the SDK runs no method page)', withMethod, { channel: 'app', methodPage: true }, undefined],
    ['no method page (a standalone authentication)', withMethod, { channel: 'browser' }, undefined],
    ['the method ran already', withMethod, { channel: 'browser', methodPage: true, methodDone: { threeDSServerTransID: TRANS_ID, completed: 'N' } }, undefined],
    ['a range without method URL', { kind: 'enrolled', messageVersion: '2.2.0' }, { channel: 'browser', methodPage: true }, undefined],
    ['not enrolled', { kind: 'not-enrolled' }, { channel: 'browser', methodPage: true }, undefined],
    ['ranges unknown', undefined, { channel: 'browser', methodPage: true }, undefined],
  ];
  for (const [name, range, query, expected] of rows) {
    it(`${name}: ${expected ?? 'no method'}`, () => assert.equal(methodUrlToRun(range, query), expected));
  }
});
