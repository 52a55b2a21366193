import { defineRows, sameFormat, type RowSpec } from '../define.js';
import { bool, countryAlpha3, currency, decimal, digits, multilineText, oneOf, pattern, text } from '../formats.js';
import { conditional, optional } from '../use.js';
import type { Endpoint, ParameterRow } from '../types.js';

/** Core: 3D Secure authentication message fields, payment fields of an external server, exemptions. */

const THREE_D_SECURE: readonly Endpoint[] = ['payment', 'registration', 'registrationPayment', 'checkout'];
const NETWORKS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;

const twoDigits = (notation: string, source: string, sample: string, bad: string) =>
  pattern(source, { notation, min: 2, max: 2, sample, bad });

const requestorRows: RowSpec[] = NETWORKS.flatMap((network) =>
  sameFormat(`threeDSecure.v2.network${network}.`, ['requestorId', 'requestorName'], text(100), {
    description: `Assigned by card network ${network}.`,
  }),
);

const authentication = defineRows({ section: '3D Secure: authentication message fields', use: optional(THREE_D_SECURE) }, [
  ['threeDSecure.amount', decimal(9), {
    code: '100.550.303',
    description: 'The amount the shopper authenticates (the ACS shows it), in threeDSecure.currency; default risk.amount, else amount. Never what is charged, and never what risk rules or the 3-D Secure threshold count: they take amount.',
  }],
  ['threeDSecure.currency', currency(), { code: '100.550.401', description: 'Currency of threeDSecure.amount; default currency.' }],
  ['threeDSecure.deviceInfo', multilineText(16384, 1, 'encrypted authRequestParams of the mobile SDK'), {
    // Not on a checkout: the widget pays from a browser and could not run the app channel's challenge.
    use: conditional(THREE_D_SECURE.filter((endpoint) => endpoint !== 'checkout')),
    echo: false,
    description: 'Starts the app-based 3D Secure v2 flow (deviceChannel 01): no customer.browser.* needed, and a challenge answers with the SDK\'s data in threeDSecure (acsSignedContent, acsReferenceNumber, status C) instead of a redirect (docs/api.md). With the gateway\'s own 3DS server: the SDK\'s authRequestParams as base64 JSON, else 200.300.404 (docs/three-d-secure.md).',
  }],
  ['threeDSecure.merchant.name', text(100)],
  ['threeDSecure.merchant.url', text(2048), { sample: 'https://shop.example.com' }],
  ['threeDSecure.merchant.country', countryAlpha3()],
  ...requestorRows,
  ['threeDSecure.channel', twoDigits('N2, 01 to 99', '^(0[1-9]|[1-9][0-9])$', '03', '00'), { description: '03 asks for a 3RI (merchant-initiated) authentication, deviceChannel 03 (docs/three-d-secure.md).' }],
  ['threeDSecure.npa', bool()],
  ['threeDSecure.decoupled', bool()],
  ['threeDSecure.threeRIInd', oneOf(['RECURRING', 'SPLIT_SHIPMENT', 'DELAYED_SHIPMENT']), { description: 'Asks for a 3RI (merchant-initiated) authentication: threeRIInd 01, or 06 for a split or delayed shipment (docs/three-d-secure.md).' }],
  ['threeDSecure.authenticationInd', oneOf(['PAYMENT', 'RECURRING', 'INSTALLMENT', 'ADD_CARD', 'MAINTAIN_CARD', 'EMV_ID', 'BILLING_AGREEMENT', 'SPLIT_SHIPMENT', '_DELAYED_SHIPMENT', 'SPLIT_PAYMENT'])],
  ['threeDSecure.schemeData[NF-ITEMSNB]', digits(2, 1, 'N2', '2'), { use: conditional(THREE_D_SECURE) }],
  ['threeDSecure.schemeData[NF-SCORE_MERCHANT]', pattern('^[a-zA-Z0-9 +:-]{1,20}$', {
    notation: '1 to 20 characters: alphanumeric, space, + - :',
    min: 1,
    max: 20,
    sample: 'SCORE-12',
    bad: 'score_12',
  }), { use: conditional(THREE_D_SECURE) }],
  ['threeDSecure.schemeData[NF-USECASE]', digits(2, 1, 'N2', '01'), {
    use: conditional(THREE_D_SECURE),
    description: 'Required with network F scheme data for a payment authentication (PA), or an NPA with authenticationInd RECURRING or INSTALLMENT (rule networkFUseCaseRequired).',
  }],
]);

const externalServer = defineRows({ section: '3D Secure: fields of the payment transaction', use: conditional(THREE_D_SECURE) }, [
  ['threeDSecure.eci', twoDigits('N2, 01 to 08', '^0[1-8]$', '05', '09')],
  // The CAVV is sensitive authentication data: masked in errors and never echoed.
  ['threeDSecure.verificationId', pattern('^[A-Za-z0-9+/=]{28}$', { notation: '28 characters (CAVV or AAV)', min: 28, max: 28, sample: 'AAACAgSRBklmQCFgMpEGAAAAAAA=', bad: 'too-short' }), {
    secret: 'full',
    code: '100.370.125',
  }],
  ['threeDSecure.authenticationStatus', oneOf(['Y', 'A', 'U', 'N'])],
  ['threeDSecure.dsTransactionId', text(36, 36, '36 characters'), { use: optional(THREE_D_SECURE), sample: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4b' }],
  ['threeDSecure.acsTransactionId', text(36, 36, '36 characters'), { use: optional(THREE_D_SECURE), sample: 'f25084f0-5b16-4c0a-ae5d-b24808a95e4c' }],
  ['threeDSecure.challengeMandatedIndicator', oneOf(['Y', 'N']), { use: optional(THREE_D_SECURE) }],
  ['threeDSecure.version', pattern('^[12]\\.[0-9]{1,3}\\.[0-9]{1,3}$', { notation: 'form 1.x.y or 2.x.y', min: 5, max: 9, sample: '2.2.0', bad: '3.0.0' }), { use: optional(THREE_D_SECURE) }],
  ['threeDSecure.authType', twoDigits('01 to 04', '^0[1-4]$', '01', '05'), { use: optional(THREE_D_SECURE) }],
  ['threeDSecure.transactionStatusReason', digits(2, 1, 'N2', '01'), { use: optional(THREE_D_SECURE) }],
]);

const exemptions = defineRows({ section: '3D Secure: exemption requests', use: optional(THREE_D_SECURE) }, [
  ['threeDSecure.challengeIndicator', twoDigits('01 to 09', '^0[1-9]$', '01', '10')],
  ['threeDSecure.challengeWindowSize', twoDigits('01 to 05', '^0[1-5]$', '05', '06'), {
    description: 'Not in the specification; sent by OPPWA clients (docs/compatibility.md). Size of the challenge window: 01 250x400, 02 390x400, 03 500x600, 04 600x400, 05 full screen.',
  }],
  ['threeDSecure.exemptionFlag', twoDigits('N2, 01 to 04', '^0[1-4]$', '01', '05')],
]);

export const threeDSecureRows: readonly ParameterRow[] = [...authentication, ...externalServer, ...exemptions];
