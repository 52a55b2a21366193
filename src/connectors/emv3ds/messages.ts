import { absent, all, FORMATS, is, oneOf, opt, present, req, TRANS_STATUS_2_2, when, type MessageType, type MessageVersion } from './fields.js';
import type { FieldFormat, FieldRule } from './formats.js';

/**
 * The EMV 3-D Secure messages as data: for every message type, the rules of version 2.2.0 and
 * what 2.3.1 changes. A rule is a field, its presence (required, optional, or required when a
 * condition on other fields of the message holds) and its format (fields.ts).
 *
 * Coverage: the fields the gateway sends in an AReq for a payment or a non-payment on the app
 * (01), browser (02) and 3RI (03) channels, and every field an answer carries into the payment
 * (transStatus, transStatusReason, eci, authenticationValue, dsTransID, acsTransID, the challenge
 * fields). Left out, and tolerated as unknown fields: most of the ~150 optional AReq risk fields
 * (acctInfo, merchantRiskIndicator, billing and shipping addresses, phone numbers,
 * payTokenInfo; recurringExpiry, recurringFrequency and purchaseInstalData are modelled for the
 * 01 and 02 channels' threeDSRequestorAuthenticationInd 02/03, not for a 3RI's threeRIInd), the app channel's native-UI CRes fields (challengeText,
 * issuerImage, psImage, challengeSelectInfo…), the decoupled timing fields and the 2.3.1 additions
 * the gateway does not send (SPC, trust lists, device binding, split SDK, multi-transaction).
 *
 * Conditions an answer alone cannot show (it carries neither deviceChannel nor messageCategory)
 * are left to the connector, which knows its request: the ARes's sdkTransID (app channel),
 * and eci (a payment-system-specific "when provided"). Where the spec says "required for 01-PA",
 * the rule is written for messageCategory 01 (the AReq) or for transStatus Y/A (authenticationValue
 * in the ARes and the RReq), because the gateway authenticates payments.
 */

const BROWSER = is('deviceChannel', '02');
const APP = is('deviceChannel', '01');
const APP_OR_BROWSER = is('deviceChannel', '01', '02');
const PAYMENT = is('messageCategory', '01');
const BROWSER_WITH_SCRIPT = all(BROWSER, is('browserJavascriptEnabled', true));
const REFUSED = is('transStatus', 'N', 'U', 'R');
const AUTHENTICATED = is('transStatus', 'Y', 'A');
/** threeDSRequestorAuthenticationInd 02 recurring, 03 instalment: the series data is required (EMV 3DS 2.2, Table A.1). */
const SERIES = is('threeDSRequestorAuthenticationInd', '02', '03');
const INSTALMENT = is('threeDSRequestorAuthenticationInd', '03');

const IDS = [req('threeDSServerTransID'), req('acsTransID'), req('dsTransID')];
const HEADER = [req('messageType'), req('messageVersion'), opt('messageExtension')];

const AREQ: readonly FieldRule[] = [
  ...HEADER,
  req('threeDSServerTransID'), req('threeDSServerRefNumber'), opt('threeDSServerOperatorID'), when(APP_OR_BROWSER, 'threeDSServerURL'),
  req('threeDSRequestorID'), req('threeDSRequestorName'), req('threeDSRequestorURL'),
  when(APP_OR_BROWSER, 'threeDSRequestorAuthenticationInd'), opt('threeDSRequestorAuthenticationInfo', authenticationInfo(['01', '02', '03', '04', '05', '06', '07', '08'])),
  opt('threeDSRequestorPriorAuthenticationInfo', priorAuthenticationInfo()),
  opt('threeDSRequestorChallengeInd'), opt('threeDSRequestorDecReqInd'), when(BROWSER, 'threeDSCompInd'), when(is('deviceChannel', '03'), 'threeRIInd'),
  req('deviceChannel'), req('messageCategory'),
  req('acctNumber'), opt('acctType'), opt('cardExpiryDate'), opt('cardholderName'), opt('email'),
  when(PAYMENT, 'acquirerBIN'), when(PAYMENT, 'acquirerMerchantID'), when(PAYMENT, 'mcc'), when(PAYMENT, 'merchantCountryCode'), when(PAYMENT, 'merchantName'),
  when(PAYMENT, 'purchaseAmount'), when(PAYMENT, 'purchaseCurrency'), when(PAYMENT, 'purchaseExponent'), when(PAYMENT, 'purchaseDate'), opt('transType'),
  when(SERIES, 'recurringExpiry'), when(SERIES, 'recurringFrequency'), when(INSTALMENT, 'purchaseInstalData'),
  when(BROWSER, 'notificationURL'),
  when(BROWSER, 'browserAcceptHeader'), opt('browserIP'), when(BROWSER, 'browserJavaEnabled'), when(BROWSER, 'browserJavascriptEnabled'),
  when(BROWSER, 'browserLanguage'), when(BROWSER_WITH_SCRIPT, 'browserColorDepth'), when(BROWSER_WITH_SCRIPT, 'browserScreenHeight'),
  when(BROWSER_WITH_SCRIPT, 'browserScreenWidth'), when(BROWSER_WITH_SCRIPT, 'browserTZ'), when(BROWSER, 'browserUserAgent'),
  when(APP, 'sdkAppID'), when(APP, 'sdkEncData'), when(APP, 'sdkEphemPubKey'), when(APP, 'sdkMaxTimeout'), when(APP, 'sdkReferenceNumber'),
  when(APP, 'sdkTransID'), when(APP, 'deviceRenderOptions'),
];

const ARES: readonly FieldRule[] = [
  ...HEADER, ...IDS, opt('sdkTransID'),
  req('acsReferenceNumber'), opt('acsOperatorID'), req('dsReferenceNumber'),
  req('transStatus'), when(REFUSED, 'transStatusReason'),
  // A browser challenge sends the shopper to acsURL; an app challenge carries acsSignedContent instead.
  when(all(is('transStatus', 'C'), absent('acsSignedContent')), 'acsURL'),
  when(is('transStatus', 'C', 'D'), 'acsChallengeMandated'), when(is('transStatus', 'C', 'D'), 'authenticationType'),
  when(is('transStatus', 'D'), 'acsDecConInd'), opt('acsSignedContent'), opt('acsRenderingType'),
  when(AUTHENTICATED, 'authenticationValue'), opt('eci'), opt('cardholderInfo'), opt('whiteListStatus'),
];

const CREQ: readonly FieldRule[] = [
  ...HEADER, req('threeDSServerTransID'), req('acsTransID'),
  // The browser's CReq has no sdkTransID; the app's has it and counts its messages.
  when(absent('sdkTransID'), 'challengeWindowSize'), opt('sdkTransID'), when(present('sdkTransID'), 'sdkCounterStoA'),
  opt('challengeCancel'), opt('challengeDataEntry'), opt('challengeHTMLDataEntry'), opt('challengeNoEntry'), opt('oobContinue'), opt('resendChallenge'),
];

const CRES: readonly FieldRule[] = [
  ...HEADER, req('threeDSServerTransID'), req('acsTransID'), opt('sdkTransID'), when(present('sdkTransID'), 'acsCounterAtoS'),
  req('challengeCompletionInd'), when(is('challengeCompletionInd', 'Y'), 'transStatus', oneOf(['Y', 'N'])),
  opt('acsUiType'), opt('challengeInfoText'),
];

const RREQ: readonly FieldRule[] = [
  ...HEADER, ...IDS, opt('sdkTransID'), req('messageCategory'),
  req('transStatus', oneOf(['Y', 'N', 'U', 'A', 'R'])), when(REFUSED, 'transStatusReason'),
  when(AUTHENTICATED, 'authenticationValue'), opt('eci'), opt('authenticationType'), opt('authenticationMethod'),
  req('interactionCounter'), opt('challengeCancel'), opt('acsRenderingType'), opt('whiteListStatus'),
];

const RRES: readonly FieldRule[] = [...HEADER, ...IDS, opt('sdkTransID'), req('resultsStatus')];

const PREQ: readonly FieldRule[] = [...HEADER, req('threeDSServerTransID'), req('threeDSServerRefNumber'), opt('threeDSServerOperatorID'), opt('serialNum')];

const CARD_RANGE_2_2: readonly FieldRule[] = [
  req('startRange', FORMATS['acctNumber']!), req('endRange', FORMATS['acctNumber']!), opt('actionInd', oneOf(['A', 'D', 'M'])),
  req('acsStartProtocolVersion', { kind: 'version' }), req('acsEndProtocolVersion', { kind: 'version' }),
  opt('dsStartProtocolVersion'), opt('dsEndProtocolVersion'),
  opt('threeDSMethodURL', { kind: 'url', max: 256 }), opt('acsInfoInd', { kind: 'array', min: 1, max: 99, of: oneOf(['01', '02', '03', '04'], true) }),
];

const PRES: readonly FieldRule[] = [
  ...HEADER, req('threeDSServerTransID'), opt('dsTransID'), req('serialNum'), req('dsStartProtocolVersion'), req('dsEndProtocolVersion'),
  opt('cardRangeData', cardRanges(CARD_RANGE_2_2)),
];

const ERRO: readonly FieldRule[] = [
  req('messageType'), req('messageVersion'),
  // "If available": an Erro may answer a message whose ids could not be read.
  opt('threeDSServerTransID'), opt('acsTransID'), opt('dsTransID'), opt('sdkTransID'),
  req('errorCode'), req('errorComponent'), req('errorDescription'), req('errorDetail'), opt('errorMessageType'),
];

function authenticationInfo(methods: readonly string[]): FieldFormat {
  return {
    kind: 'object', rules: [
      req('threeDSReqAuthMethod', oneOf(methods, true)),
      req('threeDSReqAuthTimestamp', { kind: 'date', layout: 'YYYYMMDDHHMM' }),
      opt('threeDSReqAuthData', { kind: 'string', min: 1, max: 20000 }),
    ],
  };
}

/** The earlier authentication a 3RI (or a later CIT) rests on: EMV 3DS 2.2, Table A.1. */
function priorAuthenticationInfo(): FieldFormat {
  return {
    kind: 'object', rules: [
      req('threeDSReqPriorAuthMethod', oneOf(['01', '02', '03', '04'], true)),
      req('threeDSReqPriorAuthTimestamp', { kind: 'date', layout: 'YYYYMMDDHHMM' }),
      opt('threeDSReqPriorRef', { kind: 'string', min: 36, max: 36 }),
      opt('threeDSReqPriorAuthData', { kind: 'string', min: 1, max: 2048 }),
    ],
  };
}

function cardRanges(rules: readonly FieldRule[]): FieldFormat {
  return { kind: 'array', min: 0, max: 100000, of: { kind: 'object', rules } };
}

/**
 * What 2.3.1 changes, as rules that replace (or add) the 2.2.0 rule of the same field. Only the
 * changes we are sure of; a 2.3.1 field not listed keeps its 2.2.0 rule:
 * - browserJavaEnabled is required only when browserJavascriptEnabled is true (Java is gone from browsers);
 * - browserLanguage takes an IETF BCP 47 tag of up to 35 characters;
 * - threeDSRequestorAuthenticationInfo may be a list of such objects (one object still accepted),
 *   and threeDSReqAuthMethod gains 09;
 * - transStatus S (a challenge by Secure Payment Confirmation) in the ARes;
 * - the PRes's card ranges list the ACS's versions in acsProtocolVersions, which replaces the
 *   start/end pair (both accepted), and the DS's in dsProtocolVersions.
 * Not modelled: the new 2.3.1 enumerated values of threeDSRequestorChallengeInd, threeRIInd and
 * challengeCancel (the DS range 80-99 is accepted in both versions), and the fields the gateway
 * does not use (see the coverage above).
 */
const INFO_2_3 = authenticationInfo(['01', '02', '03', '04', '05', '06', '07', '08', '09']);
const CARD_RANGE_2_3: readonly FieldRule[] = [
  ...CARD_RANGE_2_2.map((rule) => (rule.field.startsWith('acs') && rule.field.endsWith('ProtocolVersion') ? { ...rule, presence: 'O' as const } : rule)),
  opt('acsProtocolVersions', {
    kind: 'array', min: 1, max: 10, of: {
      kind: 'object', rules: [req('version', { kind: 'version' }), opt('threeDSMethodURL', { kind: 'url', max: 256 }), opt('acsInfoInd', { kind: 'array', min: 1, max: 99, of: oneOf(['01', '02', '03', '04'], true) })],
    },
  }),
];

const CHANGES_2_3_1: Readonly<Partial<Record<MessageType, readonly FieldRule[]>>> = {
  AReq: [
    when(all(BROWSER, is('browserJavascriptEnabled', true)), 'browserJavaEnabled'),
    when(BROWSER, 'browserLanguage', { kind: 'string', min: 1, max: 35 }),
    opt('threeDSRequestorAuthenticationInfo', { kind: 'either', formats: [INFO_2_3, { kind: 'array', min: 1, max: 3, of: INFO_2_3 }] }),
  ],
  ARes: [req('transStatus', oneOf([...TRANS_STATUS_2_2, 'S']))],
  PRes: [
    opt('dsStartProtocolVersion'), opt('dsEndProtocolVersion'),
    opt('dsProtocolVersions', { kind: 'array', min: 1, max: 10, of: { kind: 'version' } }),
    opt('cardRangeData', cardRanges(CARD_RANGE_2_3)),
  ],
};

const BASE: Readonly<Record<MessageType, readonly FieldRule[]>> = { AReq: AREQ, ARes: ARES, CReq: CREQ, CRes: CRES, RReq: RREQ, RRes: RRES, PReq: PREQ, PRes: PRES, Erro: ERRO };

/** A changed rule takes the place of the 2.2.0 rule of its field; a new field goes at the end. */
function withChanges(base: readonly FieldRule[], changes: readonly FieldRule[]): readonly FieldRule[] {
  const byField = new Map(changes.map((rule) => [rule.field, rule]));
  const replaced = base.map((rule) => byField.get(rule.field) ?? rule);
  return [...replaced, ...changes.filter((rule) => !base.some((old) => old.field === rule.field))];
}

export const MESSAGE_DEFINITIONS: Readonly<Record<MessageVersion, Readonly<Record<MessageType, readonly FieldRule[]>>>> = {
  '2.2.0': BASE,
  '2.3.1': Object.fromEntries(Object.entries(BASE).map(([type, rules]) => [type, withChanges(rules, CHANGES_2_3_1[type as MessageType] ?? [])])) as Record<MessageType, readonly FieldRule[]>,
};

export function rulesOf(type: MessageType, version: MessageVersion): readonly FieldRule[] {
  return MESSAGE_DEFINITIONS[version][type];
}

function namesOf(format: FieldFormat, into: Set<string>): Set<string> {
  if (format.kind === 'array') return namesOf(format.of, into);
  if (format.kind === 'either') format.formats.forEach((one) => namesOf(one, into));
  if (format.kind === 'object') {
    for (const rule of format.rules) namesOf(rule.format, into.add(rule.field));
  }
  return into;
}

/** Every data element name the tables define, at any depth: the only names an error may repeat from a message's text. */
export const KNOWN_FIELD_NAMES: ReadonlySet<string> = Object.values(MESSAGE_DEFINITIONS).reduce(
  (names, types) => Object.values(types).reduce((inner, rules) => namesOf({ kind: 'object', rules }, inner), names),
  new Set<string>(),
);
