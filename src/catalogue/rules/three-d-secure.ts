import { DEFAULT_CODE } from '../define.js';
import type { Endpoint } from '../types.js';
import { violation, type ConditionalRule, type RuleContext } from './types.js';

/**
 * When the gateway itself runs a browser-based 3D Secure v2 authentication, the issuer's access
 * control server needs the shopper's browser data and billing address (spec: "mandatory for 3D
 * Secure v2"). The request asks for it with any of these signals:
 */
export const THREE_D_SECURE_V2_SIGNALS = [
  'customParameters[3DS2_enrolled]=true',
  'customParameters[3DS2_flow]',
  'threeDSecure.challengeIndicator',
  'threeDSecure.authenticationInd',
  'threeDSecure.npa',
  'threeDSecure.decoupled',
] as const;

/** The gateway authenticates on these endpoints; a checkout collects browser data later, in the widget. */
const AUTHENTICATING: readonly Endpoint[] = ['payment', 'registration', 'registrationPayment', 'checkoutPayment'];

/** Results of an external 3D Secure server: the authentication already happened elsewhere. */
const EXTERNAL_RESULT_FIELDS = ['threeDSecure.eci', 'threeDSecure.verificationId', 'threeDSecure.authenticationStatus'];

/**
 * True when the request asks the gateway for a browser-based 3D Secure v2 authentication: a signal
 * is present, the app flow (threeDSecure.deviceInfo) is not, and no external result is passed through.
 */
export function isThreeDSecureV2BrowserFlow(context: RuleContext): boolean {
  if (!AUTHENTICATING.includes(context.endpoint)) return false;
  if (context.has('threeDSecure.deviceInfo') || EXTERNAL_RESULT_FIELDS.some((name) => context.has(name))) return false;
  return (
    context.value('customParameters[3DS2_enrolled]') === 'true' ||
    THREE_D_SECURE_V2_SIGNALS.slice(1).some((name) => context.has(name))
  );
}

export const BROWSER_DATA_FOR_THREE_D_SECURE_V2 = [
  'customer.browser.acceptHeader',
  'customer.browser.language',
  'customer.browser.screenHeight',
  'customer.browser.screenWidth',
  'customer.browser.timezone',
  'customer.browser.userAgent',
  'customer.browser.javaEnabled',
] as const;

export const threeDSecureV2BrowserData: ConditionalRule = {
  id: 'threeDSecureV2BrowserData',
  description: 'A browser-based 3D Secure v2 authentication needs the C fields of customer.browser.*.',
  codes: [DEFAULT_CODE],
  check(context) {
    if (!isThreeDSecureV2BrowserFlow(context)) return [];
    return BROWSER_DATA_FOR_THREE_D_SECURE_V2.filter((name) => !context.has(name)).map((name) =>
      violation(name, DEFAULT_CODE, 'is required for 3D Secure v2'),
    );
  },
};

const BILLING_FOR_THREE_D_SECURE_V2 = [
  ['billing.street1', '100.800.100'],
  ['billing.city', '100.800.300'],
  ['billing.postcode', '100.800.200'],
  ['billing.country', '100.800.500'],
] as const;

export const threeDSecureV2BillingAddress: ConditionalRule = {
  id: 'threeDSecureV2BillingAddress',
  description: 'A browser-based 3D Secure v2 authentication needs billing.street1, city, postcode and country.',
  codes: BILLING_FOR_THREE_D_SECURE_V2.map(([, code]) => code),
  check(context) {
    if (!isThreeDSecureV2BrowserFlow(context)) return [];
    return BILLING_FOR_THREE_D_SECURE_V2.filter(([name]) => !context.has(name)).map(([name, code]) =>
      violation(name, code, 'is required for 3D Secure v2'),
    );
  },
};
