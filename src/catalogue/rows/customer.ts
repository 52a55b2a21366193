import { defineRows, mirrorRows } from '../define.js';
import { bool, chars, digits, oneOf, pattern, text } from '../formats.js';
import { email, phone } from '../formats-contact.js';
import { date } from '../formats-time.js';
import { INITIAL_PAYMENTS, PARTY_DATA, conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: customer and shipping customer. */

const SECTION = 'Customer';

const identity = defineRows({ section: SECTION, use: optional(PARTY_DATA) }, [
  ['customer.merchantCustomerId', text(255), { sample: 'customer-17' }],
  ['customer.givenName', text(50, 1), { use: conditional(PARTY_DATA), code: '100.700.201', missingCode: '100.700.200', sample: 'Jane' }],
  ['customer.middleName', text(50, 2), { sample: 'Mary' }],
  ['customer.surname', text(50, 1), { use: conditional(PARTY_DATA), code: '100.700.101', missingCode: '100.700.100', sample: 'Jones' }],
  ['customer.sex', oneOf(['F', 'M'])],
  ['customer.birthDate', date({ years19or20: true, sample: '1970-02-17' }), { code: '800.900.450' }],
  ['customer.phone', phone('AN25, + or a digit, then digits, space . ( ) / -', { min: 0, max: 24 }), { code: '800.900.200' }],
  ['customer.mobile', phone('same format as phone', { min: 0, max: 24 }), { code: '100.900.300' }],
  ['customer.workPhone', text(25), { code: '800.900.200', sample: '+49 89 7654321' }],
  ['customer.email', email(), { code: '800.900.101', missingCode: '100.900.100' }],
  ['customer.companyName', text(60), { code: '100.700.500', sample: 'Jones Ltd' }],
  ['customer.identificationDocType', oneOf(['IDCARD', 'PASSPORT', 'TAXSTATEMENT']), { use: conditional(PARTY_DATA), code: '100.700.800' }],
  ['customer.identificationDocId', text(64, 8), { use: conditional(PARTY_DATA), code: '100.700.801', sample: 'L01X00T47' }],
  ['customer.ip', text(255), { code: '100.900.401', sample: '192.0.2.17' }],
  ['customer.merchantReference', text(255), { sample: 'payer-account-17' }],
  ['customer.salutation', oneOf(['MR', 'MRS', 'MS', 'MX']), { code: '100.700.300', sample: 'MS' }],
  ['customer.language', chars('A-Z', 2, 2, 'two uppercase letters', 'DE')],
  ['customer.category', oneOf(['INDIVIDUAL', 'COMPANY'])],
  ['customer.status', oneOf(['NEW', 'EXISTING'])],
  ['customer.browserFingerprint.id', text(255, 1), { sample: 'fp-0017' }],
  ['customer.browserFingerprint.value', text(4096, 1), { sample: '0400CIfeAe15Cx8Nf94lis1ztlXAN' }],
]);

const BROWSER = [...PARTY_DATA, 'checkoutPayment'] as const;

/** The C fields are mandatory when a 3D Secure v2 authentication runs (operations/three-d-secure/authenticate-payment.ts). */
const browser = defineRows({ section: SECTION, use: conditional(BROWSER) }, [
  ['customer.browser.acceptHeader', text(2048, 1), { sample: 'text/html,application/xhtml+xml' }],
  ['customer.browser.language', text(8, 1, '1 to 8, IETF BCP47'), { sample: 'de-DE' }],
  ['customer.browser.screenHeight', digits(6, 1, '1 to 6 digits, pixels', '1080')],
  ['customer.browser.screenWidth', digits(6, 1, '1 to 6 digits, pixels', '1920')],
  ['customer.browser.timezone', pattern('^-?[0-9]{1,4}$', { notation: '1 to 5, offset in minutes', min: 1, max: 5, sample: '-60', bad: '+60' })],
  ['customer.browser.userAgent', text(2048, 1), { sample: 'Mozilla/5.0 (X11; Linux x86_64)' }],
  ['customer.browser.javaEnabled', bool(), { sample: 'false' }],
  ['customer.browser.screenColorDepth', digits(2, 1, 'N2, bits per pixel', '24'), { use: optional(BROWSER) }],
  ['customer.browser.challengeWindow', digits(1, 1, 'N1', '4'), { use: optional(BROWSER) }],
  ['customer.browser.deviceId', text(32), { use: optional(BROWSER), sample: 'device-17' }],
  ['customer.app.deviceId', text(40), { use: optional(PARTY_DATA), sample: 'app-device-17' }],
]);

export const customerOnlyRows: readonly ParameterRow[] = [...identity, ...browser];

/** Device data belongs to the paying customer, so the shipping customer has none. */
function notForShippingCustomer(name: string): boolean {
  return name.startsWith('customer.browserFingerprint.') || name === 'customer.browser.deviceId' || name === 'customer.app.deviceId';
}

const shippingCustomer = mirrorRows(
  customerOnlyRows,
  'customer.',
  { section: 'Shipping customer', use: optional(INITIAL_PAYMENTS) },
  'shipping.customer.',
  notForShippingCustomer,
);

export const customerRows: readonly ParameterRow[] = [...customerOnlyRows, ...shippingCustomer];
