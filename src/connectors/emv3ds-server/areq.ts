import currencyCodes from 'currency-codes';
import type { AReqMessage } from '../emv3ds/types.js';
import type { ThreeDsServerSettings } from '../../config/three-ds-server-settings.js';
import type { BrowserData, DirectoryQuery } from '../three-d-secure.js';

/**
 * The AReq the gateway's 3DS server sends for a payment: pure, from the directory query, the
 * settings and the transaction's id and time. The channel (deviceChannel): 01 app where the query
 * has the SDK's data, 03 3RI where it is requestor initiated, else 02 browser. The card number
 * goes into acctNumber and nowhere else; the AReq itself is never logged.
 */

/**
 * ISO 4217's numeric code and exponent (purchaseCurrency, purchaseExponent); undefined for a code
 * it does not list, and for its units that are no money a shopper pays in (XXX, XTS, metals, bond
 * units: currency-codes lists their countries as `Zz…`).
 */
export function currencyOfAReq(code: string): { readonly numeric: string; readonly exponent: string } | undefined {
  const found = currencyCodes.code(code);
  if (!found || found.countries.some((country) => country.startsWith('Zz'))) return undefined;
  return { numeric: found.number, exponent: String(found.digits) };
}

/** Where the ACS's RReq and the browser's final CRes go: the gateway's addresses. */
export interface AReqContext {
  readonly threeDSServerTransID: string;
  readonly now: Date;
  readonly threeDSServerURL: string;
  readonly notificationURL: string;
  /** The version the card's range allows (card-ranges.ts); without one, the setting's. */
  readonly messageVersion?: ThreeDsServerSettings['messageVersion'] | undefined;
  /**
   * threeDSCompInd: U where the card's range names no 3DS Method URL; N where it does and the
   * method did not run (or timed out), Y where it ran and the ACS notified (method.ts). Without card ranges N.
   */
  readonly threeDSCompInd?: 'Y' | 'N' | 'U' | undefined;
}

/** Why an AReq cannot be built; the connector answers 'unavailable' without asking the directory. */
export type AReqRefusal = 'no-sdk-data' | 'currency' | 'no-purchase';

function purchaseDate(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** YYMM from card.expiryMonth (1-12) and card.expiryYear (YYYY). */
function expiryOf(query: DirectoryQuery): string | undefined {
  if (!query.cardExpiry) return undefined;
  const { month, year } = query.cardExpiry;
  if (!/^\d{4}$/.test(year) || !/^\d{1,2}$/.test(month)) return undefined;
  return `${year.slice(2)}${month.padStart(2, '0')}`;
}

/** 2.2.0 takes a browserLanguage of up to 8 characters, 2.3.1 up to 35 (BCP 47 tags can be longer). */
const LANGUAGE_MAX_LENGTH = { '2.2.0': 8, '2.3.1': 35 } as const;

/** The tag with its last subtags dropped until it fits (zh-Hant-TW → zh-Hant): still the shopper's language. */
export function fitLanguage(tag: string, maxLength: number): string {
  let fitted = tag;
  while (fitted.length > maxLength && fitted.includes('-')) fitted = fitted.slice(0, fitted.lastIndexOf('-'));
  return fitted.slice(0, maxLength);
}

/**
 * The browser fields. browserJavascriptEnabled is not a request field: the screen size, colour
 * depth and time zone can only be measured with script, so they say it ran; without all four it
 * is false and none of them is sent (the spec requires them only with script).
 */
function browserFields(browser: BrowserData | undefined, version: ThreeDsServerSettings['messageVersion']): Record<string, unknown> {
  const b = browser ?? {};
  const script = b.screenHeight !== undefined && b.screenWidth !== undefined && b.timezone !== undefined && b.screenColorDepth !== undefined;
  return {
    ...(b.acceptHeader !== undefined ? { browserAcceptHeader: b.acceptHeader } : {}),
    ...(b.ip !== undefined ? { browserIP: b.ip } : {}),
    browserJavaEnabled: b.javaEnabled ?? false,
    browserJavascriptEnabled: script,
    ...(b.language !== undefined ? { browserLanguage: fitLanguage(b.language, LANGUAGE_MAX_LENGTH[version]) } : {}),
    ...(script ? { browserColorDepth: b.screenColorDepth, browserScreenHeight: b.screenHeight, browserScreenWidth: b.screenWidth, browserTZ: b.timezone } : {}),
    ...(b.userAgent !== undefined ? { browserUserAgent: b.userAgent } : {}),
  };
}

/**
 * threeDSRequestorChallengeInd: threeDSecure.challengeIndicator as sent (or as the risk step-up
 * set it); without one 04 for a mandate (challenge requested), else 01 no preference.
 */
function challengeIndicator(query: DirectoryQuery): string {
  return query.challengeIndicator ?? (query.challengeRequested ? '04' : '01');
}

/**
 * threeDSRequestorAuthenticationInd and, with 02/03, recurringExpiry, recurringFrequency and
 * purchaseInstalData (domain/three-d-secure/requestor-authentication.ts); without them 01.
 */
function requestorAuthenticationFields(query: DirectoryQuery): Record<string, string> {
  return { ...(query.requestorAuthentication ?? { threeDSRequestorAuthenticationInd: '01' }) };
}

/** The app channel's fields: the SDK's authRequestParams as they came (threeDSecure.deviceInfo). */
function sdkFields(sdk: NonNullable<DirectoryQuery['sdk']>): Record<string, unknown> {
  return {
    sdkAppID: sdk.sdkAppID, sdkEncData: sdk.sdkEncData, sdkEphemPubKey: sdk.sdkEphemPubKey, sdkMaxTimeout: sdk.sdkMaxTimeout,
    sdkReferenceNumber: sdk.sdkReferenceNumber, sdkTransID: sdk.sdkTransID, deviceRenderOptions: sdk.deviceRenderOptions,
  };
}

/**
 * What differs per channel. 01 app: the SDK's fields, no browser fields, no notificationURL (the
 * SDK gets the CRes itself), no threeDSCompInd (the 3DS Method is the browser's). 03 3RI: the
 * threeRIInd and the prior authentication, no threeDSServerURL (no challenge, so no RReq) and no
 * threeDSRequestorAuthenticationInd (the spec's rule is for 01 and 02). 02 browser: as before.
 */
function channelFields(query: DirectoryQuery, context: AReqContext, version: ThreeDsServerSettings['messageVersion']): Record<string, unknown> {
  if (query.requestorInitiated) {
    const { indicator, prior } = query.requestorInitiated;
    return { deviceChannel: '03', threeRIInd: indicator, ...(prior ? { threeDSRequestorPriorAuthenticationInfo: prior } : {}) };
  }
  const common = { threeDSServerURL: context.threeDSServerURL, ...requestorAuthenticationFields(query), threeDSRequestorChallengeInd: challengeIndicator(query) };
  if (query.sdk) return { ...common, deviceChannel: '01', ...sdkFields(query.sdk) };
  return { ...common, threeDSCompInd: context.threeDSCompInd ?? 'N', deviceChannel: '02', notificationURL: context.notificationURL, ...browserFields(query.browser, version) };
}

export function buildAReq(query: DirectoryQuery, settings: ThreeDsServerSettings, context: AReqContext): { readonly ok: true; readonly areq: AReqMessage } | { readonly ok: false; readonly refusal: AReqRefusal } {
  // An app payment whose SDK data the operation did not parse (a server that reads none) cannot be sent.
  if (query.channel === 'app' && !query.sdk && !query.requestorInitiated) return { ok: false, refusal: 'no-sdk-data' };
  if (!query.purchase) return { ok: false, refusal: 'no-purchase' };
  const currency = currencyOfAReq(query.purchase.currency);
  if (!currency) return { ok: false, refusal: 'currency' };
  const expiry = expiryOf(query);
  const version = context.messageVersion ?? settings.messageVersion;
  const areq = {
    messageType: 'AReq',
    messageVersion: version,
    threeDSServerTransID: context.threeDSServerTransID,
    threeDSServerRefNumber: settings.serverReferenceNumber,
    threeDSRequestorID: settings.requestor.id,
    threeDSRequestorName: settings.requestor.name,
    threeDSRequestorURL: settings.requestor.url,
    messageCategory: '01',
    acctNumber: query.pan,
    ...(expiry !== undefined ? { cardExpiryDate: expiry } : {}),
    acquirerBIN: settings.acquirer.bin,
    acquirerMerchantID: settings.acquirer.merchantId,
    mcc: settings.acquirer.mcc,
    merchantCountryCode: settings.acquirer.countryCode,
    merchantName: settings.requestor.name,
    purchaseAmount: query.purchase.amountMinor.toString(),
    purchaseCurrency: currency.numeric,
    purchaseExponent: currency.exponent,
    purchaseDate: purchaseDate(context.now),
    ...channelFields(query, context, version),
  } as AReqMessage;
  return { ok: true, areq };
}
