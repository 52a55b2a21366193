import type { MessageVersion } from './fields.js';

/**
 * The typed EMV 3-D Secure messages validate() returns: the fields messages.ts covers, with
 * their spec names. Extension and uncovered fields stay in the object at run time (a message is
 * forwarded as received) but are not typed here. Which fields a message must carry depends on
 * its channel and category; the tables check that, the types only say what may be there.
 */

type YesNo = 'Y' | 'N';
export type TransStatus = 'Y' | 'N' | 'U' | 'A' | 'C' | 'D' | 'R' | 'I' | 'S';

interface Header<T extends string> {
  readonly messageType: T;
  readonly messageVersion: MessageVersion;
  readonly messageExtension?: readonly MessageExtension[];
}

export interface MessageExtension {
  readonly name: string;
  readonly id: string;
  readonly criticalityIndicator: boolean;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface RequestorAuthenticationInfo {
  readonly threeDSReqAuthMethod: string;
  /** YYYYMMDDHHMM, UTC. */
  readonly threeDSReqAuthTimestamp: string;
  readonly threeDSReqAuthData?: string;
}

export interface AReqMessage extends Header<'AReq'> {
  readonly threeDSServerTransID: string;
  readonly threeDSServerRefNumber: string;
  readonly threeDSServerOperatorID?: string;
  readonly threeDSServerURL?: string;
  readonly threeDSRequestorID: string;
  readonly threeDSRequestorName: string;
  readonly threeDSRequestorURL: string;
  readonly threeDSRequestorAuthenticationInd?: string;
  /** One object in 2.2.0; 2.3.1 also allows a list. */
  readonly threeDSRequestorAuthenticationInfo?: RequestorAuthenticationInfo | readonly RequestorAuthenticationInfo[];
  readonly threeDSRequestorPriorAuthenticationInfo?: Readonly<Record<string, string>>;
  readonly threeDSRequestorChallengeInd?: string;
  readonly threeDSRequestorDecReqInd?: YesNo;
  readonly threeDSCompInd?: 'Y' | 'N' | 'U';
  readonly threeRIInd?: string;
  /** 01 app, 02 browser, 03 3DS Requestor Initiated (3RI). */
  readonly deviceChannel: '01' | '02' | '03';
  /** 01 payment, 02 non-payment. */
  readonly messageCategory: string;
  /** The PAN: card data; never logged, never in an error. */
  readonly acctNumber: string;
  readonly acctType?: '01' | '02' | '03';
  /** YYMM */
  readonly cardExpiryDate?: string;
  readonly cardholderName?: string;
  readonly email?: string;
  readonly acquirerBIN?: string;
  readonly acquirerMerchantID?: string;
  readonly mcc?: string;
  readonly merchantCountryCode?: string;
  readonly merchantName?: string;
  /** Minor units, no separators. */
  readonly purchaseAmount?: string;
  /** ISO 4217 numeric. */
  readonly purchaseCurrency?: string;
  readonly purchaseExponent?: string;
  /** YYYYMMDDHHMMSS, UTC. */
  readonly purchaseDate?: string;
  readonly transType?: string;
  /** YYYYMMDD: with threeDSRequestorAuthenticationInd 02 or 03. */
  readonly recurringExpiry?: string;
  /** Minimum days between authorisations, 1-4 digits: with 02 or 03. */
  readonly recurringFrequency?: string;
  /** Maximum number of authorisations, 1-3 digits, more than 1: with 03. */
  readonly purchaseInstalData?: string;
  readonly notificationURL?: string;
  readonly browserAcceptHeader?: string;
  readonly browserIP?: string;
  readonly browserJavaEnabled?: boolean;
  readonly browserJavascriptEnabled?: boolean;
  readonly browserLanguage?: string;
  readonly browserColorDepth?: string;
  readonly browserScreenHeight?: string;
  readonly browserScreenWidth?: string;
  readonly browserTZ?: string;
  readonly browserUserAgent?: string;
  readonly sdkAppID?: string;
  readonly sdkEncData?: string;
  readonly sdkEphemPubKey?: Readonly<Record<string, unknown>>;
  readonly sdkMaxTimeout?: string;
  readonly sdkReferenceNumber?: string;
  readonly sdkTransID?: string;
  readonly deviceRenderOptions?: { readonly sdkInterface: string; readonly sdkUiType: readonly string[] };
}

interface TransactionIds {
  readonly threeDSServerTransID: string;
  readonly acsTransID: string;
  readonly dsTransID: string;
  readonly sdkTransID?: string;
}

export interface AcsRenderingType {
  readonly acsInterface: string;
  readonly acsUiTemplate: string;
}

export interface AResMessage extends Header<'ARes'>, TransactionIds {
  readonly acsReferenceNumber: string;
  readonly acsOperatorID?: string;
  readonly dsReferenceNumber: string;
  readonly transStatus: TransStatus;
  readonly transStatusReason?: string;
  readonly acsURL?: string;
  readonly acsChallengeMandated?: YesNo;
  readonly authenticationType?: string;
  readonly acsDecConInd?: YesNo;
  readonly acsSignedContent?: string;
  readonly acsRenderingType?: AcsRenderingType;
  readonly authenticationValue?: string;
  readonly eci?: string;
  readonly cardholderInfo?: string;
  readonly whiteListStatus?: string;
}

export interface CReqMessage extends Header<'CReq'> {
  readonly threeDSServerTransID: string;
  readonly acsTransID: string;
  readonly challengeWindowSize?: string;
  readonly sdkTransID?: string;
  readonly sdkCounterStoA?: string;
  readonly challengeCancel?: string;
  readonly challengeDataEntry?: string;
  readonly challengeHTMLDataEntry?: string;
  readonly challengeNoEntry?: 'Y';
  readonly oobContinue?: boolean;
  readonly resendChallenge?: YesNo;
}

export interface CResMessage extends Header<'CRes'> {
  readonly threeDSServerTransID: string;
  readonly acsTransID: string;
  readonly sdkTransID?: string;
  readonly acsCounterAtoS?: string;
  readonly challengeCompletionInd: YesNo;
  readonly transStatus?: 'Y' | 'N';
  readonly acsUiType?: string;
  readonly challengeInfoText?: string;
}

export interface RReqMessage extends Header<'RReq'>, TransactionIds {
  readonly messageCategory: string;
  readonly transStatus: 'Y' | 'N' | 'U' | 'A' | 'R';
  readonly transStatusReason?: string;
  readonly authenticationValue?: string;
  readonly eci?: string;
  readonly authenticationType?: string;
  readonly authenticationMethod?: string;
  readonly interactionCounter: string;
  readonly challengeCancel?: string;
  readonly acsRenderingType?: AcsRenderingType;
  readonly whiteListStatus?: string;
}

export interface RResMessage extends Header<'RRes'>, TransactionIds {
  /** 01 received, 02 CReq not sent to the ACS, 03 ARes challenge data not delivered to the SDK. */
  readonly resultsStatus: string;
}

export interface PReqMessage extends Header<'PReq'> {
  readonly threeDSServerTransID: string;
  readonly threeDSServerRefNumber: string;
  readonly threeDSServerOperatorID?: string;
  readonly serialNum?: string;
}

export interface AcsProtocolVersion {
  readonly version: string;
  readonly threeDSMethodURL?: string;
  readonly acsInfoInd?: readonly string[];
}

export interface CardRange {
  readonly startRange: string;
  readonly endRange: string;
  readonly actionInd?: 'A' | 'D' | 'M';
  readonly acsStartProtocolVersion?: string;
  readonly acsEndProtocolVersion?: string;
  readonly dsStartProtocolVersion?: string;
  readonly dsEndProtocolVersion?: string;
  readonly threeDSMethodURL?: string;
  readonly acsInfoInd?: readonly string[];
  /** 2.3.1 */
  readonly acsProtocolVersions?: readonly AcsProtocolVersion[];
}

export interface PResMessage extends Header<'PRes'> {
  readonly threeDSServerTransID: string;
  readonly dsTransID?: string;
  readonly serialNum: string;
  readonly dsStartProtocolVersion?: string;
  readonly dsEndProtocolVersion?: string;
  /** 2.3.1 */
  readonly dsProtocolVersions?: readonly string[];
  readonly cardRangeData?: readonly CardRange[];
}

export interface ErroMessage {
  readonly messageType: 'Erro';
  readonly messageVersion: MessageVersion;
  readonly threeDSServerTransID?: string;
  readonly acsTransID?: string;
  readonly dsTransID?: string;
  readonly sdkTransID?: string;
  readonly errorCode: string;
  readonly errorComponent: 'C' | 'S' | 'D' | 'A';
  readonly errorDescription: string;
  readonly errorDetail: string;
  readonly errorMessageType?: string;
}

export type Emv3dsMessage = AReqMessage | AResMessage | CReqMessage | CResMessage | RReqMessage | RResMessage | PReqMessage | PResMessage | ErroMessage;

/** The typed message of a messageType. */
export type MessageOf<T extends Emv3dsMessage['messageType']> = Extract<Emv3dsMessage, { readonly messageType: T }>;
