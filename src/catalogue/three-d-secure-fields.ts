/**
 * The request fields of a browser-based 3D Secure v2 authentication. They are not catalogue rules:
 * whether an authentication runs depends on the card's enrolment and the entity's setting, so
 * the payment operation requires them once it knows (operations/three-d-secure/authenticate-payment.ts).
 */

/** What asks the gateway to authenticate whatever the card's own enrolment (docs/parameters.md). */
export const THREE_D_SECURE_V2_SIGNALS = [
  'customParameters[3DS2_enrolled]=true',
  'customParameters[3DS2_flow]',
  'threeDSecure.challengeIndicator',
  'threeDSecure.authenticationInd',
  'threeDSecure.npa',
  'threeDSecure.decoupled',
] as const;

/** The C fields of customer.browser.* an issuer's ACS needs (spec: "mandatory for 3D Secure v2"). */
export const BROWSER_DATA_FOR_THREE_D_SECURE_V2 = [
  'customer.browser.acceptHeader',
  'customer.browser.language',
  'customer.browser.screenHeight',
  'customer.browser.screenWidth',
  'customer.browser.timezone',
  'customer.browser.userAgent',
  'customer.browser.javaEnabled',
] as const;

/** The billing address fields an authentication needs, with the code of each one missing. */
export const BILLING_FOR_THREE_D_SECURE_V2 = [
  ['billing.street1', '100.800.100'],
  ['billing.city', '100.800.300'],
  ['billing.postcode', '100.800.200'],
  ['billing.country', '100.800.500'],
] as const;
