import { defineRows, mirrorRows } from '../define.js';
import { countryAlpha2, pattern, text } from '../formats.js';
import { email, phone } from '../formats-contact.js';
import { INITIAL_PAYMENTS, PARTY_DATA, conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: billing address and merchant billing address. */

const state = () =>
  pattern('^[a-zA-Z0-9.]{1,50}$', { notation: 'AN50, a-z A-Z 0-9 .', min: 1, max: 50, sample: 'BY', bad: 'Bavaria!' });

/**
 * The spec says "alphanumeric"; real postcodes also carry spaces and hyphens (SW1A 1AA, 00-950),
 * so those two are admitted as well.
 */
const postcode = () =>
  pattern('^[a-zA-Z0-9 -]{1,16}$', { notation: 'AN16, alphanumeric (space and hyphen admitted)', min: 1, max: 16, sample: '80331', bad: '80331#' });

const billing = defineRows({ section: 'Billing address', use: optional(PARTY_DATA) }, [
  ['billing.street1', text(100), { use: conditional(PARTY_DATA), code: '100.800.101', missingCode: '100.800.100', sample: 'Leopoldstr.' }],
  ['billing.street2', text(100), { use: conditional(PARTY_DATA), code: '100.800.101', sample: 'Building 7' }],
  ['billing.houseNumber1', text(100), { sample: '17' }],
  ['billing.houseNumber2', text(100), { sample: 'a' }],
  ['billing.city', text(80), { use: conditional(PARTY_DATA), code: '100.800.301', missingCode: '100.800.300', sample: 'Munich' }],
  ['billing.state', state(), { use: conditional(PARTY_DATA) }],
  ['billing.postcode', postcode(), { use: conditional(PARTY_DATA), code: '100.800.202', missingCode: '100.800.200' }],
  ['billing.country', countryAlpha2(), { use: conditional(PARTY_DATA), code: '100.800.501', missingCode: '100.800.500' }],
  ['billing.normalized', text(255)],
  ['billing.validationStatus', text(255), { sample: 'VALIDATED' }],
]);

const MERCHANT_BILLING = { section: 'Merchant billing address', use: optional(INITIAL_PAYMENTS) } as const;

const merchantBillingExtras = defineRows(MERCHANT_BILLING, [
  ['merchant.billing.givenName', text(255, 0, 'AN'), { sample: 'Max' }],
  ['merchant.billing.surname', text(255, 0, 'AN'), { sample: 'Muster' }],
  ['merchant.billing.middleName', text(255, 0, 'AN'), { sample: 'Karl' }],
  ['merchant.billing.companyName', text(60), { code: '100.700.500', sample: 'Muster Shop GmbH' }],
  ['merchant.billing.phone', text(25), { code: '800.900.200', sample: '+49 89 1234567' }],
  ['merchant.billing.workPhone', text(25), { code: '800.900.200', sample: '+49 89 1234568' }],
  ['merchant.billing.mobile', phone('AN25, + or a digit, then 5 to 25 of digits, space . ( ) / -', { min: 5, max: 25 }), { code: '100.900.300' }],
  ['merchant.billing.email', email(), { code: '800.900.101' }],
]);

export const billingRows: readonly ParameterRow[] = [
  ...billing,
  ...mirrorRows(billing, 'billing.', MERCHANT_BILLING, 'merchant.billing.'),
  ...merchantBillingExtras,
];
