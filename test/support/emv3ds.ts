import type { MessageVersion } from '../../src/connectors/emv3ds/fields.js';
import type { AReqMessage, AResMessage, CReqMessage, CResMessage, Emv3dsMessage, ErroMessage, PReqMessage, PResMessage, RReqMessage, RResMessage } from '../../src/connectors/emv3ds/types.js';

/**
 * Valid EMV 3-D Secure messages of every type, small enough to read: one builder per message
 * type and channel, each taking the version and overrides. Malformed cases start from these.
 */

export const PAN = '4012001037141112';
export const IDS = {
  threeDSServerTransID: '8a880dc0-d2d2-4067-bcb1-b08d1690b26e',
  acsTransID: 'd7c1ee99-9478-44a6-b1f2-391e29c6b340',
  dsTransID: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b',
  sdkTransID: 'b2385523-a66c-4907-ac3c-91848e8c0067',
} as const;
const CAVV = 'AAABBEg0VhI0VniQEjRWAAAAAAA=';

type Overrides = Readonly<Record<string, unknown>>;

function areqCommon(version: MessageVersion): Omit<AReqMessage, 'deviceChannel'> {
  return {
    messageType: 'AReq',
    messageVersion: version,
    threeDSServerTransID: IDS.threeDSServerTransID,
    threeDSServerRefNumber: '3DS_LOA_SER_GATE_020200_00001',
    threeDSRequestorID: 'gateway-merchant-1',
    threeDSRequestorName: 'Demo Shop',
    threeDSRequestorURL: 'https://shop.example.com',
    messageCategory: '01',
    acctNumber: PAN,
    cardExpiryDate: '3012',
    acquirerBIN: '400551',
    acquirerMerchantID: 'MERCHANT0000001',
    mcc: '5999',
    merchantCountryCode: '276',
    merchantName: 'Demo Shop',
    purchaseAmount: '1250',
    purchaseCurrency: '978',
    purchaseExponent: '2',
    purchaseDate: '20261127153000',
  };
}

export function browserAReq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AReqMessage {
  return {
    ...areqCommon(version),
    deviceChannel: '02',
    threeDSServerURL: 'https://gateway.example.com/3ds/results',
    threeDSRequestorAuthenticationInd: '01',
    threeDSRequestorChallengeInd: '01',
    threeDSCompInd: 'Y',
    notificationURL: 'https://gateway.example.com/3ds/notification',
    browserAcceptHeader: 'text/html,application/xhtml+xml',
    browserIP: '192.0.2.10',
    browserJavaEnabled: false,
    browserJavascriptEnabled: true,
    browserLanguage: 'de-DE',
    browserColorDepth: '24',
    browserScreenHeight: '1080',
    browserScreenWidth: '1920',
    browserTZ: '-60',
    browserUserAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    ...overrides,
  } as AReqMessage;
}

export function appAReq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AReqMessage {
  return {
    ...areqCommon(version),
    deviceChannel: '01',
    threeDSServerURL: 'https://gateway.example.com/3ds/results',
    threeDSRequestorAuthenticationInd: '01',
    sdkAppID: '9063b12c-fcde-43c7-b28e-8d0af5520e8a',
    sdkEncData: 'eyJhbGciOiJSU0EtT0FFUC0yNTYiLCJlbmMiOiJBMTI4R0NNIn0.encrypted-device-data',
    sdkEphemPubKey: { kty: 'EC', crv: 'P-256', x: 'mPUKT_bAWGHIhg0TpjjqVsP1rXWQu_vwVOHHtNkdYoA', y: '8BQAsImGeAS46fyWw5MhYfGTT0IjBpFw2SS34Dv4Irs' },
    sdkMaxTimeout: '05',
    sdkReferenceNumber: '3DS_LOA_SDK_GATE_020200_00001',
    sdkTransID: IDS.sdkTransID,
    deviceRenderOptions: { sdkInterface: '03', sdkUiType: ['01', '02', '03', '04', '05'] },
    ...overrides,
  } as AReqMessage;
}

/** A 3DS Requestor Initiated non-payment (an account check): no browser, no SDK, no purchase. */
export function threeRIAReq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AReqMessage {
  const { purchaseAmount: _a, purchaseCurrency: _c, purchaseExponent: _e, purchaseDate: _d, ...rest } = areqCommon(version);
  return { ...rest, deviceChannel: '03', messageCategory: '02', threeRIInd: '04', ...overrides } as AReqMessage;
}

const { sdkTransID: _sdk, ...IDS_WITHOUT_SDK } = IDS;
const ares = (version: MessageVersion): Omit<AResMessage, 'transStatus'> => ({
  messageType: 'ARes', messageVersion: version, ...IDS_WITHOUT_SDK, acsReferenceNumber: 'ACS_REF_0001', dsReferenceNumber: 'DS_REF_0001',
});

export function frictionlessARes(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AResMessage {
  return { ...ares(version), transStatus: 'Y', authenticationValue: CAVV, eci: '05', ...overrides } as AResMessage;
}

export function challengeARes(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AResMessage {
  return { ...ares(version), transStatus: 'C', acsURL: 'https://acs.example.com/challenge', acsChallengeMandated: 'N', authenticationType: '02', ...overrides } as AResMessage;
}

export function appChallengeARes(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AResMessage {
  return {
    ...ares(version), sdkTransID: IDS.sdkTransID, transStatus: 'C', acsChallengeMandated: 'Y', authenticationType: '02',
    acsSignedContent: 'eyJhbGciOiJQUzI1NiJ9.signed.content', acsRenderingType: { acsInterface: '01', acsUiTemplate: '01' }, ...overrides,
  } as AResMessage;
}

export function refusedARes(version: MessageVersion = '2.2.0', overrides: Overrides = {}): AResMessage {
  return { ...ares(version), transStatus: 'N', transStatusReason: '01', eci: '07', ...overrides } as AResMessage;
}

export function browserCReq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): CReqMessage {
  return { messageType: 'CReq', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, acsTransID: IDS.acsTransID, challengeWindowSize: '05', ...overrides } as CReqMessage;
}

export function appCReq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): CReqMessage {
  return { messageType: 'CReq', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, acsTransID: IDS.acsTransID, sdkTransID: IDS.sdkTransID, sdkCounterStoA: '001', challengeDataEntry: '1234', ...overrides } as CReqMessage;
}

export function finalCRes(version: MessageVersion = '2.2.0', overrides: Overrides = {}): CResMessage {
  return { messageType: 'CRes', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, acsTransID: IDS.acsTransID, challengeCompletionInd: 'Y', transStatus: 'Y', ...overrides } as CResMessage;
}

export function rreq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): RReqMessage {
  return {
    messageType: 'RReq', messageVersion: version, ...IDS_WITHOUT_SDK, messageCategory: '01', transStatus: 'Y',
    authenticationValue: CAVV, eci: '05', authenticationType: '02', interactionCounter: '01', ...overrides,
  } as RReqMessage;
}

export function rres(version: MessageVersion = '2.2.0', overrides: Overrides = {}): RResMessage {
  return { messageType: 'RRes', messageVersion: version, ...IDS_WITHOUT_SDK, resultsStatus: '01', ...overrides } as RResMessage;
}

export function preq(version: MessageVersion = '2.2.0', overrides: Overrides = {}): PReqMessage {
  return { messageType: 'PReq', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, threeDSServerRefNumber: '3DS_LOA_SER_GATE_020200_00001', serialNum: '0', ...overrides } as PReqMessage;
}

export function pres(version: MessageVersion = '2.2.0', overrides: Overrides = {}): PResMessage {
  return {
    messageType: 'PRes', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, dsTransID: IDS.dsTransID, serialNum: '1',
    dsStartProtocolVersion: '2.1.0', dsEndProtocolVersion: version,
    cardRangeData: [{
      startRange: '4012001037140000', endRange: '4012001037149999', actionInd: 'A',
      acsStartProtocolVersion: '2.1.0', acsEndProtocolVersion: version, threeDSMethodURL: 'https://acs.example.com/method', acsInfoInd: ['01', '02'],
    }],
    ...overrides,
  } as PResMessage;
}

export function erro(version: MessageVersion = '2.2.0', overrides: Overrides = {}): ErroMessage {
  return {
    messageType: 'Erro', messageVersion: version, threeDSServerTransID: IDS.threeDSServerTransID, errorCode: '203', errorComponent: 'D',
    errorDescription: 'Format of One or More Data Elements is Invalid According to the Specification', errorDetail: 'purchaseDate', errorMessageType: 'AReq', ...overrides,
  } as ErroMessage;
}

/** One valid example per message type and variant: what the round-trip tests walk. */
export const VALID_EXAMPLES: readonly { readonly name: string; readonly build: (version: MessageVersion) => Emv3dsMessage }[] = [
  { name: 'AReq browser payment', build: browserAReq },
  { name: 'AReq browser, JavaScript off', build: (v) => withoutFields(browserAReq(v, { browserJavascriptEnabled: false }), ['browserColorDepth', 'browserScreenHeight', 'browserScreenWidth', 'browserTZ']) },
  { name: 'AReq app payment', build: appAReq },
  { name: 'AReq 3RI non-payment', build: threeRIAReq },
  { name: 'ARes frictionless Y', build: frictionlessARes },
  { name: 'ARes attempted A', build: (v) => frictionlessARes(v, { transStatus: 'A', eci: '06' }) },
  { name: 'ARes browser challenge C', build: challengeARes },
  { name: 'ARes app challenge C', build: appChallengeARes },
  { name: 'ARes decoupled D', build: (v) => challengeARes(v, { transStatus: 'D', acsDecConInd: 'Y' }) },
  { name: 'ARes not authenticated N', build: refusedARes },
  { name: 'ARes rejected R', build: (v) => refusedARes(v, { transStatus: 'R', transStatusReason: '11' }) },
  { name: 'ARes unavailable U', build: (v) => refusedARes(v, { transStatus: 'U', transStatusReason: '06' }) },
  { name: 'ARes informational I', build: (v) => withoutFields(frictionlessARes(v, { transStatus: 'I' }), ['authenticationValue', 'eci']) },
  { name: 'CReq browser', build: browserCReq },
  { name: 'CReq app', build: appCReq },
  { name: 'CReq cancelled', build: (v) => browserCReq(v, { challengeCancel: '01' }) },
  { name: 'CRes final', build: finalCRes },
  { name: 'CRes interim (app)', build: (v) => withoutFields(finalCRes(v, { challengeCompletionInd: 'N', sdkTransID: IDS.sdkTransID, acsCounterAtoS: '001', acsUiType: '01' }), ['transStatus']) },
  { name: 'RReq authenticated', build: rreq },
  { name: 'RReq failed', build: (v) => withoutFields(rreq(v, { transStatus: 'N', transStatusReason: '01', eci: '07' }), ['authenticationValue']) },
  { name: 'RRes', build: rres },
  { name: 'PReq', build: preq },
  { name: 'PRes', build: pres },
  { name: 'Erro', build: erro },
];

/** A copy without the fields (undefined overrides would be dropped by JSON but not by deepEqual). */
export function withoutFields<T extends object>(message: T, fields: readonly string[]): T {
  return Object.fromEntries(Object.entries(message).filter(([key, value]) => !fields.includes(key) && value !== undefined)) as T;
}
