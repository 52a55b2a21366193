/**
 * What a 3-D Secure authentication is asked to authenticate, read from a payment request: the
 * amount the shopper confirms at the issuer, and the device channel the authentication runs on.
 * Pure rules over plain values; the payment and standalone operations gather the inputs.
 */

/** EMV 3-D Secure deviceChannel: 01 app-based (the mobile SDK), 02 browser-based. */
export type DeviceChannel = 'app' | 'browser';

export const DEVICE_CHANNEL_CODE: Readonly<Record<DeviceChannel, string>> = { app: '01', browser: '02' };

/** Where the authenticated amount came from, for the documentation and the tests. */
export type AuthenticatedAmountSource = 'threeDSecure.amount' | 'risk.amount' | 'amount';

export interface AuthenticatedAmount {
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly source: AuthenticatedAmountSource;
}

export interface AmountFields {
  /** The payment's own amount and currency: what is charged, and what operator rules count. */
  readonly amountMinor: bigint;
  readonly currency: string;
  readonly threeDSecureAmountMinor?: bigint | undefined;
  readonly threeDSecureCurrency?: string | undefined;
  readonly riskAmountMinor?: bigint | undefined;
}

/**
 * The amount the authentication covers (the AReq's purchaseAmount): threeDSecure.amount ("amount
 * to authenticate") in threeDSecure.currency, else risk.amount (the specification: "also used as
 * the 3D Secure amount when present") in the payment's currency, else the payment's own amount.
 * It may differ from the charge (an order shipped in parts authenticates the whole order), so it
 * is never what the operator's risk rules or 3-D Secure threshold count: those take the payment's
 * own amount, which a merchant cannot restate.
 */
export function authenticatedAmount(fields: AmountFields): AuthenticatedAmount {
  if (fields.threeDSecureAmountMinor !== undefined) {
    return { amountMinor: fields.threeDSecureAmountMinor, currency: fields.threeDSecureCurrency ?? fields.currency, source: 'threeDSecure.amount' };
  }
  if (fields.riskAmountMinor !== undefined) return { amountMinor: fields.riskAmountMinor, currency: fields.currency, source: 'risk.amount' };
  return { amountMinor: fields.amountMinor, currency: fields.currency, source: 'amount' };
}

/** threeDSecure.deviceInfo (the mobile SDK's encrypted authRequestParams) starts the app-based flow. */
export function deviceChannelOf(deviceInfo: string | undefined): DeviceChannel {
  return deviceInfo !== undefined && deviceInfo !== '' ? 'app' : 'browser';
}

/** EMV transStatus C: a challenge is required; the app channel's pending answer carries it. */
export const CHALLENGE_REQUIRED_STATUS = 'C';

/** Fields of the app channel's pending answer that only start the SDK's challenge. */
const APP_CHALLENGE_ONLY_FIELDS: readonly string[] = ['acsReferenceNumber', 'acsSignedContent', 'threeDSServerTransactionId', 'sdkTransactionId'];

/**
 * A threeDSecure block once its challenge has ended, whichever way: the SDK's start data and the
 * "challenge required" status go, so no final answer says C (the result's own status replaces it).
 */
export function withoutChallengeStart(block: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> | undefined {
  if (!block) return undefined;
  const kept = Object.entries(block).filter(([name, value]) => !APP_CHALLENGE_ONLY_FIELDS.includes(name) && !(name === 'authenticationStatus' && value === CHALLENGE_REQUIRED_STATUS));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}
