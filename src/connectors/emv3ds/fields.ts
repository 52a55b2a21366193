import type { Condition, FieldFormat, FieldRule, Presence } from './formats.js';

/**
 * The EMV 3-D Secure data elements the gateway sends or reads, each with its format (EMV 3DS
 * Protocol and Core Functions Specification 2.2.0, Table A.1), and the small builders the message
 * tables (messages.ts) are written with. A message rule names a field and its presence; the
 * format comes from here unless the rule gives its own (a field whose values differ per message).
 */

export const MESSAGE_TYPES = ['AReq', 'ARes', 'CReq', 'CRes', 'RReq', 'RRes', 'PReq', 'PRes', 'Erro'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const SUPPORTED_VERSIONS = ['2.2.0', '2.3.1'] as const;
export type MessageVersion = (typeof SUPPORTED_VERSIONS)[number];

const str = (min: number, max: number): FieldFormat => ({ kind: 'string', min, max });
const num = (min: number, max: number = min): FieldFormat => ({ kind: 'numeric', min, max });
export const oneOf = (values: readonly string[], dsRange = false): FieldFormat => ({ kind: 'enum', values, dsRange });
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, '0'));
const UUID: FieldFormat = { kind: 'uuid' };
const url = (max: number): FieldFormat => ({ kind: 'url', max });
const BOOLEAN: FieldFormat = { kind: 'boolean' };
const YES_NO = oneOf(['Y', 'N']);

/** transStatus: every value of the ARes; the RReq and the CRes narrow it (messages.ts). */
export const TRANS_STATUS_2_2 = ['Y', 'N', 'U', 'A', 'C', 'D', 'R', 'I'] as const;

export const FORMATS: Readonly<Record<string, FieldFormat>> = {
  // Identity of the message and of the transaction.
  messageType: oneOf(MESSAGE_TYPES),
  messageVersion: { kind: 'version' },
  threeDSServerTransID: UUID,
  acsTransID: UUID,
  dsTransID: UUID,
  sdkTransID: UUID,
  deviceChannel: oneOf(['01', '02', '03']),
  messageCategory: oneOf(['01', '02'], true),
  messageExtension: {
    kind: 'array', min: 1, max: 10, of: {
      kind: 'object', rules: [
        { field: 'name', presence: 'R', format: str(1, 64) },
        { field: 'id', presence: 'R', format: str(1, 64) },
        { field: 'criticalityIndicator', presence: 'R', format: BOOLEAN },
        { field: 'data', presence: 'R', format: { kind: 'anyObject' } },
      ],
    },
  },
  // The 3DS Requestor and the 3DS Server.
  threeDSRequestorID: str(1, 35),
  threeDSRequestorName: str(1, 40),
  threeDSRequestorURL: url(2048),
  threeDSRequestorAuthenticationInd: oneOf(range(1, 6), true),
  threeDSRequestorChallengeInd: oneOf(range(1, 9), true),
  threeDSRequestorDecReqInd: YES_NO,
  threeDSServerRefNumber: str(1, 32),
  threeDSServerOperatorID: str(1, 32),
  threeDSServerURL: url(2048),
  threeDSCompInd: oneOf(['Y', 'N', 'U']),
  threeRIInd: oneOf(range(1, 11), true),
  notificationURL: url(256),
  // The merchant, the acquirer and the purchase.
  acquirerBIN: str(1, 11),
  acquirerMerchantID: str(1, 35),
  mcc: num(4),
  merchantCountryCode: num(3),
  merchantName: str(1, 40),
  purchaseAmount: num(1, 48),
  purchaseCurrency: num(3),
  purchaseExponent: num(1),
  purchaseDate: { kind: 'date', layout: 'YYYYMMDDHHMMSS' },
  transType: oneOf(['01', '03', '10', '11', '28']),
  // A recurring (threeDSRequestorAuthenticationInd 02) or instalment (03) series.
  recurringExpiry: { kind: 'date', layout: 'YYYYMMDD' },
  recurringFrequency: num(1, 4),
  purchaseInstalData: { kind: 'numeric', min: 1, max: 3, minValue: 2 },
  // The card and the cardholder.
  acctNumber: num(13, 19),
  acctType: oneOf(['01', '02', '03']),
  cardExpiryDate: { kind: 'date', layout: 'YYMM' },
  cardholderName: str(2, 45),
  email: str(1, 254),
  // The browser (deviceChannel 02).
  browserAcceptHeader: str(1, 2048),
  browserIP: str(1, 45),
  browserJavaEnabled: BOOLEAN,
  browserJavascriptEnabled: BOOLEAN,
  browserLanguage: str(1, 8),
  browserColorDepth: oneOf(['1', '4', '8', '15', '16', '24', '32', '48']),
  browserScreenHeight: num(1, 6),
  browserScreenWidth: num(1, 6),
  browserTZ: { kind: 'string', min: 1, max: 5 },
  browserUserAgent: str(1, 2048),
  // The 3DS SDK (deviceChannel 01).
  sdkAppID: UUID,
  sdkEncData: str(1, 64000),
  sdkEphemPubKey: { kind: 'anyObject' },
  sdkMaxTimeout: num(2),
  sdkReferenceNumber: str(1, 32),
  deviceRenderOptions: {
    kind: 'object', rules: [
      { field: 'sdkInterface', presence: 'R', format: oneOf(['01', '02', '03']) },
      { field: 'sdkUiType', presence: 'R', format: { kind: 'array', min: 1, max: 5, of: oneOf(range(1, 5)) } },
    ],
  },
  // The answer: ARes, RReq, CRes.
  transStatus: oneOf(TRANS_STATUS_2_2),
  transStatusReason: num(2),
  acsURL: url(2048),
  acsReferenceNumber: str(1, 32),
  acsOperatorID: str(1, 32),
  dsReferenceNumber: str(1, 32),
  acsChallengeMandated: YES_NO,
  acsDecConInd: YES_NO,
  acsSignedContent: str(1, 10000),
  acsRenderingType: {
    kind: 'object', rules: [
      { field: 'acsInterface', presence: 'R', format: oneOf(['01', '02']) },
      { field: 'acsUiTemplate', presence: 'R', format: oneOf(range(1, 5)) },
    ],
  },
  authenticationType: oneOf(range(1, 4), true),
  authenticationMethod: num(2),
  authenticationValue: { kind: 'base64', length: 28 },
  eci: num(2),
  cardholderInfo: str(1, 128),
  interactionCounter: num(2),
  resultsStatus: oneOf(['01', '02', '03'], true),
  whiteListStatus: oneOf(['Y', 'N', 'E', 'P', 'R', 'U']),
  // The challenge (CReq, CRes).
  challengeWindowSize: oneOf(range(1, 5)),
  challengeCancel: oneOf(['01', '03', '04', '05', '06', '07', '08']),
  challengeCompletionInd: YES_NO,
  challengeDataEntry: str(1, 45),
  challengeHTMLDataEntry: str(1, 256),
  challengeNoEntry: oneOf(['Y']),
  resendChallenge: YES_NO,
  oobContinue: BOOLEAN,
  sdkCounterStoA: num(3),
  acsCounterAtoS: num(3),
  acsUiType: oneOf(range(1, 5)),
  challengeInfoText: str(1, 350),
  // Preparation (PReq, PRes).
  serialNum: str(1, 20),
  dsStartProtocolVersion: { kind: 'version' },
  dsEndProtocolVersion: { kind: 'version' },
  // Erro.
  errorCode: num(3),
  errorComponent: oneOf(['C', 'S', 'D', 'A']),
  errorDescription: str(1, 2048),
  errorDetail: str(1, 2048),
  errorMessageType: oneOf(MESSAGE_TYPES),
};

function formatOf(field: string): FieldFormat {
  const format = FORMATS[field];
  if (!format) throw new Error(`EMV 3DS: no format for ${field}`);
  return format;
}

/** Builders of rules: required, optional, required when a condition holds. */
export const req = (field: string, format: FieldFormat = formatOf(field)): FieldRule => ({ field, presence: 'R', format });
export const opt = (field: string, format: FieldFormat = formatOf(field)): FieldRule => ({ field, presence: 'O', format });
export const when = (condition: Condition, field: string, format: FieldFormat = formatOf(field)): FieldRule => ({ field, presence: { requiredWhen: condition }, format });

/** Conditions. */
export const is = (field: string, ...values: (string | boolean)[]): Condition => ({ field, in: values });
export const absent = (field: string): Condition => ({ field, absent: true });
export const present = (field: string): Condition => ({ field, present: true });
export const all = (...conditions: Condition[]): Condition => ({ all: conditions });

export type { Presence };
