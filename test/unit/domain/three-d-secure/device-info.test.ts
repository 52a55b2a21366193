/**
 * threeDSecure.deviceInfo as the gateway's own 3DS server reads it (the SDK's authRequestParams,
 * base64 JSON) and the 3RI rules: a table of cases each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDeviceInfo } from '../../../../src/domain/three-d-secure/device-info.js';
import { asksForThreeRi, priorAuthenticationInfo, threeRiIndicator, type ThreeRiFacts } from '../../../../src/domain/three-d-secure/three-ri.js';

const PARAMS = {
  sdkAppID: 'A4F1B2C3-1111-4222-8333-944445555666', sdkEncData: 'eyJhbGciOiJSU0EtT0FFUC0yNTYifQ.e30.aXY.Y2lwaGVy.dGFn',
  sdkEphemPubKey: { kty: 'EC', crv: 'P-256', x: 'WKn-ZIGevcwGIyyrzFoZNBdaq9_TsqzGl96oc0CWuis', y: 'y77t-RvAHRKTsSGdIYUfweuOvwrvDD-Q3Hv5J0fSKbE' },
  sdkMaxTimeout: '05', sdkReferenceNumber: 'SDK_REF_1', sdkTransID: 'B5E2C3D4-2222-4333-9444-A55556666777',
  deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01', '02'] },
};
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const without = (name: string) => Object.fromEntries(Object.entries(PARAMS).filter(([key]) => key !== name));

describe('threeDSecure.deviceInfo: the SDK\'s authRequestParams', () => {
  const rows: ReadonlyArray<readonly [string, string, string | null]> = [
    // name, deviceInfo, a problem it must name (null: parsed)
    ['base64 JSON', base64(PARAMS), null],
    ['base64url without padding', base64url(PARAMS), null],
    ['with padding and surrounding spaces', ` ${base64(PARAMS)} `, null],
    ['a JWT-like string (the simulator\'s example)', 'eyJzZGtBcHBJRCI6InNpbXVsYXRlZCJ9.c2ltdWxhdGVkLWF1dGgtcmVxdWVzdC1wYXJhbXM', 'not base64 of a JSON object'],
    ['base64 of a JSON list', base64([PARAMS]), 'not base64 of a JSON object'],
    ['base64 of text', Buffer.from('hello').toString('base64'), 'not base64 of a JSON object'],
    ['empty', '', 'not base64 of a JSON object'],
    ['no sdkAppID', base64(without('sdkAppID')), 'sdkAppID'],
    ['sdkTransID not a UUID', base64({ ...PARAMS, sdkTransID: '1234' }), 'sdkTransID'],
    ['no sdkEncData', base64(without('sdkEncData')), 'sdkEncData'],
    ['sdkEphemPubKey a string', base64({ ...PARAMS, sdkEphemPubKey: 'key' }), 'sdkEphemPubKey'],
    ['sdkEphemPubKey RSA', base64({ ...PARAMS, sdkEphemPubKey: { ...PARAMS.sdkEphemPubKey, kty: 'RSA' } }), 'sdkEphemPubKey.kty'],
    ['sdkEphemPubKey with its private part', base64({ ...PARAMS, sdkEphemPubKey: { ...PARAMS.sdkEphemPubKey, d: 'secret' } }), 'private key'],
    ['sdkMaxTimeout 04 (under the spec\'s 05)', base64({ ...PARAMS, sdkMaxTimeout: '04' }), 'sdkMaxTimeout'],
    ['sdkMaxTimeout a number', base64({ ...PARAMS, sdkMaxTimeout: 5 }), 'sdkMaxTimeout'],
    ['sdkReferenceNumber of 33 characters', base64({ ...PARAMS, sdkReferenceNumber: 'x'.repeat(33) }), 'sdkReferenceNumber'],
    ['no deviceRenderOptions', base64(without('deviceRenderOptions')), 'deviceRenderOptions'],
    ['sdkInterface 04', base64({ ...PARAMS, deviceRenderOptions: { sdkInterface: '04', sdkUiType: ['01'] } }), 'sdkInterface'],
    ['sdkUiType empty', base64({ ...PARAMS, deviceRenderOptions: { sdkInterface: '01', sdkUiType: [] } }), 'sdkUiType'],
  ];
  for (const [name, deviceInfo, problem] of rows) {
    it(`${name} → ${problem === null ? 'parsed' : `refused: ${problem}`}`, () => {
      const parsed = parseDeviceInfo(deviceInfo);
      if (problem === null) {
        assert.ok(parsed.ok, JSON.stringify(parsed));
        assert.equal(parsed.info.sdkTransID, PARAMS.sdkTransID.toLowerCase());
        assert.deepEqual(parsed.info.sdkEphemPubKey, PARAMS.sdkEphemPubKey);
        assert.deepEqual(parsed.info.deviceRenderOptions, PARAMS.deviceRenderOptions);
      } else {
        assert.ok(!parsed.ok);
        assert.ok(parsed.problems.some((p) => p.includes(problem)), JSON.stringify(parsed.problems));
      }
    });
  }
  it('names every problem at once', () => {
    const parsed = parseDeviceInfo(base64({ sdkMaxTimeout: '99' }));
    assert.ok(!parsed.ok);
    assert.equal(parsed.problems.length, 6, JSON.stringify(parsed.problems));
  });
});

describe('3RI: when it is asked for, and its threeRIInd', () => {
  const rows: ReadonlyArray<readonly [string, ThreeRiFacts, boolean, string]> = [
    ['threeRIInd RECURRING', { threeRIInd: 'RECURRING' }, true, '01'],
    ['threeRIInd SPLIT_SHIPMENT', { threeRIInd: 'SPLIT_SHIPMENT' }, true, '06'],
    ['threeRIInd DELAYED_SHIPMENT', { threeRIInd: 'DELAYED_SHIPMENT' }, true, '06'],
    ['the request\'s threeRIInd wins over the standing instruction', { threeRIInd: 'SPLIT_SHIPMENT', standingInstructionType: 'INSTALLMENT' }, true, '06'],
    ['channel 03, a RECURRING series', { channel: '03', standingInstructionType: 'RECURRING' }, true, '01'],
    ['channel 03, an INSTALLMENT series', { channel: '03', standingInstructionType: 'INSTALLMENT' }, true, '02'],
    ['channel 03, an UNSCHEDULED series', { channel: '03', standingInstructionType: 'UNSCHEDULED' }, true, '11'],
    ['channel 03 alone', { channel: '03' }, true, '11'],
    ['channel 01 (not a 3RI)', { channel: '01', standingInstructionType: 'RECURRING' }, false, '01'],
    ['nothing', { standingInstructionType: 'RECURRING' }, false, '01'],
  ];
  for (const [name, facts, asked, indicator] of rows) {
    it(`${name} → ${asked ? `3RI, threeRIInd ${indicator}` : 'no 3RI'}`, () => {
      assert.equal(asksForThreeRi(facts), asked);
      assert.equal(threeRiIndicator(facts), indicator);
    });
  }
  it('the prior authentication: its acsTransID, dsTransID, method and minute', () => {
    const at = new Date('2026-11-27T15:30:45Z');
    assert.deepEqual(priorAuthenticationInfo({ acsTransactionId: 'a', dsTransactionId: 'd', challenged: true, at }), { threeDSReqPriorAuthMethod: '02', threeDSReqPriorAuthTimestamp: '202611271530', threeDSReqPriorRef: 'a', threeDSReqPriorAuthData: 'd' });
    assert.deepEqual(priorAuthenticationInfo({ acsTransactionId: 'a', challenged: false, at }), { threeDSReqPriorAuthMethod: '01', threeDSReqPriorAuthTimestamp: '202611271530', threeDSReqPriorRef: 'a' });
  });
});
