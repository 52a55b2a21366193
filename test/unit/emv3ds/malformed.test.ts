import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encode, readMessage } from '../../../src/connectors/emv3ds/codec.js';
import { erroFor, ERROR_CODES } from '../../../src/connectors/emv3ds/errors.js';
import type { MessageType } from '../../../src/connectors/emv3ds/fields.js';
import { matchTransaction, validate } from '../../../src/connectors/emv3ds/validate.js';
import {
  appAReq, appCReq, browserAReq, browserCReq, challengeARes, erro, finalCRes, frictionlessARes, IDS, pres, refusedARes, rreq, threeRIAReq, withoutFields,
} from '../../support/emv3ds.js';

type Json = Record<string, unknown>;
const text = (message: object): string => JSON.stringify(message);
const without = (message: object, ...fields: string[]): string => text(withoutFields(message, fields));
const withField = (message: object, overrides: Json): string => text({ ...message, ...overrides });
/** The first key replaced by a duplicate written at the end: JSON.stringify cannot write one. */
const duplicated = (message: object, field: string, value: unknown): string => `${text(message).slice(0, -1)},${JSON.stringify(field)}:${JSON.stringify(value)}}`;
const deep = (levels: number): string => text({ ...browserAReq(), deep: JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels)) });

/**
 * One row per way a message can be wrong, with the error the spec prescribes. errorMessageType is
 * the received messageType when it was one of the spec's.
 */
const ROWS: readonly { readonly name: string; readonly text: string; readonly expected?: MessageType; readonly code: keyof typeof ERROR_CODES; readonly detail: string; readonly messageType?: MessageType }[] = [
  { name: 'not JSON', text: '{"messageType":"AReq",', code: '101', detail: 'message is not valid JSON' },
  { name: 'empty text', text: '', code: '101', detail: 'message is not valid JSON' },
  { name: 'a JSON array', text: '[{"messageType":"AReq"}]', code: '101', detail: 'message is not a JSON object' },
  { name: 'a JSON string', text: '"AReq"', code: '101', detail: 'message is not a JSON object' },
  { name: 'JSON null', text: 'null', code: '101', detail: 'message is not a JSON object' },
  { name: 'nested too deeply', text: deep(40), code: '101', detail: 'message is nested too deeply', messageType: 'AReq' },
  { name: 'no messageType', text: '{}', code: '201', detail: 'messageType' },
  { name: 'an unknown messageType', text: withField(browserAReq(), { messageType: 'AReqX' }), code: '101', detail: 'messageType' },
  { name: 'another messageType than expected', text: text(frictionlessARes()), expected: 'AReq', code: '101', detail: 'messageType', messageType: 'ARes' },
  { name: 'no messageVersion', text: without(browserAReq(), 'messageVersion'), code: '201', detail: 'messageVersion', messageType: 'AReq' },
  { name: 'version 2.1.0', text: withField(browserAReq(), { messageVersion: '2.1.0' }), code: '102', detail: 'messageVersion', messageType: 'AReq' },
  { name: 'version as a number', text: withField(browserAReq(), { messageVersion: 2.2 }), code: '102', detail: 'messageVersion', messageType: 'AReq' },
  { name: 'duplicate data element', text: duplicated(frictionlessARes(), 'acsTransID', IDS.acsTransID), code: '204', detail: 'acsTransID', messageType: 'ARes' },
  { name: 'duplicate written with an escape', text: duplicated(frictionlessARes(), '\\u0061csTransID', IDS.acsTransID).replace('"\\\\u0061', '"\\u0061'), code: '204', detail: 'acsTransID', messageType: 'ARes' },
  { name: 'duplicate inside a card range', text: text(pres()).replace('"startRange":', '"endRange":"4012001037149999","startRange":'), code: '204', detail: 'cardRangeData[0].endRange', messageType: 'PRes' },
  { name: 'AReq without acctNumber', text: without(browserAReq(), 'acctNumber'), code: '201', detail: 'acctNumber', messageType: 'AReq' },
  { name: 'AReq without two required fields, both named', text: without(browserAReq(), 'purchaseAmount', 'threeDSServerTransID'), code: '201', detail: 'threeDSServerTransID,purchaseAmount', messageType: 'AReq' },
  { name: 'browser AReq without notificationURL and browserUserAgent', text: without(browserAReq(), 'browserUserAgent', 'notificationURL'), code: '201', detail: 'notificationURL,browserUserAgent', messageType: 'AReq' },
  { name: 'browser AReq without threeDSCompInd', text: without(browserAReq(), 'threeDSCompInd'), code: '201', detail: 'threeDSCompInd', messageType: 'AReq' },
  { name: 'browser AReq with JavaScript on, no screen width', text: without(browserAReq(), 'browserScreenWidth'), code: '201', detail: 'browserScreenWidth', messageType: 'AReq' },
  { name: 'app AReq without sdkEphemPubKey', text: without(appAReq(), 'sdkEphemPubKey'), code: '201', detail: 'sdkEphemPubKey', messageType: 'AReq' },
  { name: 'app AReq with an incomplete deviceRenderOptions', text: withField(appAReq(), { deviceRenderOptions: { sdkInterface: '03' } }), code: '201', detail: 'deviceRenderOptions.sdkUiType', messageType: 'AReq' },
  { name: '3RI AReq without threeRIInd', text: without(threeRIAReq(), 'threeRIInd'), code: '201', detail: 'threeRIInd', messageType: 'AReq' },
  { name: 'payment AReq without purchaseDate', text: without(browserAReq(), 'purchaseDate'), code: '201', detail: 'purchaseDate', messageType: 'AReq' },
  { name: 'transaction id not a UUID', text: withField(browserAReq(), { threeDSServerTransID: '8a880dc0d2d24067bcb1b08d1690b26e' }), code: '203', detail: 'threeDSServerTransID', messageType: 'AReq' },
  { name: 'deviceChannel 04', text: withField(browserAReq(), { deviceChannel: '04' }), code: '203', detail: 'deviceChannel', messageType: 'AReq' },
  { name: 'messageCategory 03', text: withField(browserAReq(), { messageCategory: '03' }), code: '203', detail: 'messageCategory', messageType: 'AReq' },
  { name: 'purchaseDate on the 32nd', text: withField(browserAReq(), { purchaseDate: '20261132153000' }), code: '203', detail: 'purchaseDate', messageType: 'AReq' },
  { name: 'purchaseDate without seconds', text: withField(browserAReq(), { purchaseDate: '202611271530' }), code: '203', detail: 'purchaseDate', messageType: 'AReq' },
  { name: 'purchaseCurrency alphabetic', text: withField(browserAReq(), { purchaseCurrency: 'EUR' }), code: '203', detail: 'purchaseCurrency', messageType: 'AReq' },
  { name: 'purchaseAmount with a decimal point', text: withField(browserAReq(), { purchaseAmount: '12.50' }), code: '203', detail: 'purchaseAmount', messageType: 'AReq' },
  { name: 'purchaseAmount as a JSON number', text: withField(browserAReq(), { purchaseAmount: 1250 }), code: '203', detail: 'purchaseAmount', messageType: 'AReq' },
  { name: 'cardExpiryDate month 13', text: withField(browserAReq(), { cardExpiryDate: '3013' }), code: '203', detail: 'cardExpiryDate', messageType: 'AReq' },
  { name: 'browserJavaEnabled as a string', text: withField(browserAReq(), { browserJavaEnabled: 'false' }), code: '203', detail: 'browserJavaEnabled', messageType: 'AReq' },
  { name: 'notificationURL not http(s)', text: withField(browserAReq(), { notificationURL: 'javascript:alert(1)' }), code: '203', detail: 'notificationURL', messageType: 'AReq' },
  { name: 'recurring AReq (02) without its series data', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '02' }), code: '201', detail: 'recurringExpiry,recurringFrequency', messageType: 'AReq' },
  { name: 'instalment AReq (03) without purchaseInstalData', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30' }), code: '201', detail: 'purchaseInstalData', messageType: 'AReq' },
  { name: 'instalment AReq (03) without recurringFrequency', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', purchaseInstalData: '12' }), code: '201', detail: 'recurringFrequency', messageType: 'AReq' },
  { name: 'recurringExpiry on the 31st of June', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300631', recurringFrequency: '30' }), code: '203', detail: 'recurringExpiry', messageType: 'AReq' },
  { name: 'recurringExpiry in the form yyyy-mm-dd', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '2030-06-30', recurringFrequency: '30' }), code: '203', detail: 'recurringExpiry', messageType: 'AReq' },
  { name: 'recurringFrequency of five digits', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '02', recurringExpiry: '20300630', recurringFrequency: '10000' }), code: '203', detail: 'recurringFrequency', messageType: 'AReq' },
  { name: 'purchaseInstalData 1 (must exceed 1)', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '1' }), code: '203', detail: 'purchaseInstalData', messageType: 'AReq' },
  { name: 'purchaseInstalData of four digits', text: withField(browserAReq(), { threeDSRequestorAuthenticationInd: '03', recurringExpiry: '20300630', recurringFrequency: '30', purchaseInstalData: '1000' }), code: '203', detail: 'purchaseInstalData', messageType: 'AReq' },
  { name: 'a malformed recurringFrequency is refused even with indicator 01', text: withField(browserAReq(), { recurringFrequency: 'weekly' }), code: '203', detail: 'recurringFrequency', messageType: 'AReq' },
  { name: 'threeDSRequestorChallengeInd 10 in 2.2.0', text: withField(browserAReq(), { threeDSRequestorChallengeInd: '10' }), code: '203', detail: 'threeDSRequestorChallengeInd', messageType: 'AReq' },
  { name: 'a control character in merchantName', text: withField(browserAReq(), { merchantName: 'Demo\u0000Shop' }), code: '203', detail: 'merchantName', messageType: 'AReq' },
  { name: 'two malformed fields, both named', text: withField(browserAReq(), { mcc: '59', eci: 'x', browserColorDepth: '23' }), code: '203', detail: 'mcc,browserColorDepth', messageType: 'AReq' },
  { name: 'ARes transStatus X', text: withField(frictionlessARes(), { transStatus: 'X' }), code: '203', detail: 'transStatus', messageType: 'ARes' },
  { name: 'ARes N without transStatusReason', text: without(refusedARes(), 'transStatusReason'), code: '201', detail: 'transStatusReason', messageType: 'ARes' },
  { name: 'ARes browser challenge without acsURL', text: without(challengeARes(), 'acsURL'), code: '201', detail: 'acsURL', messageType: 'ARes' },
  { name: 'ARes Y without authenticationValue', text: without(frictionlessARes(), 'authenticationValue'), code: '201', detail: 'authenticationValue', messageType: 'ARes' },
  { name: 'ARes authenticationValue of 27 characters', text: withField(frictionlessARes(), { authenticationValue: 'AAABBEg0VhI0VniQEjRWAAAAAAA' }), code: '203', detail: 'authenticationValue', messageType: 'ARes' },
  { name: 'ARes without dsTransID', text: without(frictionlessARes(), 'dsTransID'), code: '201', detail: 'dsTransID', messageType: 'ARes' },
  { name: 'browser CReq without challengeWindowSize', text: without(browserCReq(), 'challengeWindowSize'), code: '201', detail: 'challengeWindowSize', messageType: 'CReq' },
  { name: 'app CReq without sdkCounterStoA', text: without(appCReq(), 'sdkCounterStoA'), code: '201', detail: 'sdkCounterStoA', messageType: 'CReq' },
  { name: 'CReq challengeCancel 02', text: withField(browserCReq(), { challengeCancel: '02' }), code: '203', detail: 'challengeCancel', messageType: 'CReq' },
  { name: 'final CRes without transStatus', text: without(finalCRes(), 'transStatus'), code: '201', detail: 'transStatus', messageType: 'CRes' },
  { name: 'CRes transStatus A', text: withField(finalCRes(), { transStatus: 'A' }), code: '203', detail: 'transStatus', messageType: 'CRes' },
  { name: 'RReq transStatus C', text: withField(rreq(), { transStatus: 'C' }), code: '203', detail: 'transStatus', messageType: 'RReq' },
  { name: 'RReq without interactionCounter', text: without(rreq(), 'interactionCounter'), code: '201', detail: 'interactionCounter', messageType: 'RReq' },
  { name: 'PRes card range without startRange', text: withField(pres(), { cardRangeData: [{ endRange: '4012001037149999', acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.2.0' }] }), code: '201', detail: 'cardRangeData[0].startRange', messageType: 'PRes' },
  { name: 'PRes card range end not numeric', text: withField(pres(), { cardRangeData: [{ startRange: '4012001037140000', endRange: 'abc', acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: '2.2.0' }] }), code: '203', detail: 'cardRangeData[0].endRange', messageType: 'PRes' },
  { name: 'PRes cardRangeData not a list', text: withField(pres(), { cardRangeData: {} }), code: '203', detail: 'cardRangeData', messageType: 'PRes' },
  { name: 'Erro errorCode of one digit', text: withField(erro(), { errorCode: '1' }), code: '203', detail: 'errorCode', messageType: 'Erro' },
  { name: 'Erro without errorComponent', text: without(erro(), 'errorComponent'), code: '201', detail: 'errorComponent', messageType: 'Erro' },
  { name: 'malformed messageExtension', text: withField(browserAReq(), { messageExtension: [{ name: 'x', id: 'E', data: {} }] }), code: '201', detail: 'messageExtension[0].criticalityIndicator', messageType: 'AReq' },
  { name: 'a critical extension not recognised', text: withField(browserAReq(), { messageExtension: [{ name: 'x', id: 'EXT-9', criticalityIndicator: true, data: {} }] }), code: '202', detail: 'EXT-9', messageType: 'AReq' },
];

describe('EMV 3DS malformed messages: each refused with the protocol error', () => {
  for (const row of ROWS) {
    it(`${row.name} → ${row.code} ${row.detail}`, () => {
      const result = readMessage(row.text, row.expected);
      assert.ok(!result.ok, 'refused');
      assert.equal(result.error.code, row.code);
      assert.equal(result.error.detail, row.detail);
      const answer = erroFor(result.error, 'D');
      assert.equal(answer.errorMessageType, row.messageType);
      assert.equal(answer.errorDescription, ERROR_CODES[row.code]);
      const checked = readMessage(encode(answer), 'Erro');
      assert.ok(checked.ok, 'the Erro that answers is itself a valid Erro');
    });
  }
});

describe('EMV 3DS Erro: what it carries', () => {
  it('answers in the received version and copies the well-formed transaction ids', () => {
    const result = validate({ ...frictionlessARes('2.3.1'), transStatus: 'X', dsTransID: 'not-a-uuid' }, 'ARes');
    assert.ok(!result.ok);
    assert.deepEqual(erroFor(result.error, 'S'), {
      messageType: 'Erro', messageVersion: '2.3.1', threeDSServerTransID: IDS.threeDSServerTransID, acsTransID: IDS.acsTransID,
      errorCode: '203', errorComponent: 'S', errorDescription: ERROR_CODES['203'], errorDetail: 'dsTransID,transStatus', errorMessageType: 'ARes',
    });
  });

  it('answers an unsupported version in the fallback version', () => {
    const result = validate({ ...browserAReq(), messageVersion: '2.1.0' });
    assert.ok(!result.ok);
    assert.equal(erroFor(result.error, 'D', '2.3.1').messageVersion, '2.3.1');
  });

  it('301 when an answer names another transaction', () => {
    const answer = frictionlessARes() as unknown as Json;
    assert.equal(matchTransaction(answer, { threeDSServerTransID: IDS.threeDSServerTransID.toUpperCase() }), undefined);
    const error = matchTransaction(answer, { threeDSServerTransID: IDS.threeDSServerTransID, acsTransID: IDS.dsTransID });
    assert.equal(error?.code, '301');
    assert.equal(error?.detail, 'acsTransID');
  });
});
