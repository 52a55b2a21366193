import { defineRows, mirrorRows } from '../define.js';
import { countryAlpha2, decimal, multilineText, oneOf, pattern, text } from '../formats.js';
import { email, phone } from '../formats-contact.js';
import { date } from '../formats-time.js';
import { INITIAL_PAYMENTS, ORDER_DATA, conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: shipping address and merchant shipping address. */

const METHODS = [
  'GROUND', 'CARRIER_DESIGNATED_BY_CUSTOMER', 'ELECTRONIC_DELIVERY', 'EXPEDITED', 'INTERNATIONAL', 'LOWEST_COST', 'MILITARY',
  'NEXT_DAY_OVERNIGHT', 'OTHER', 'POINT_PICKUP', 'PUDO', 'SAME_DAY_SERVICE', 'STORE_PICKUP', 'THREE_DAY_SERVICE', 'TWO_DAY_SERVICE',
];

const shipPhone = (notation: string) => phone(notation, { min: 5, max: 25 });

/** "letters": any script's letters, plus the space, dot, apostrophe and hyphen city names contain. */
const city = () =>
  pattern("^[\\p{L}\\p{M} .'-]{1,80}$", { notation: 'AN80, letters', min: 1, max: 80, sample: 'München', bad: 'Munich 2' });

const shipping = defineRows({ section: 'Shipping address', use: optional(ORDER_DATA) }, [
  ['shipping.street1', text(100), { use: conditional(ORDER_DATA), code: '100.800.101', sample: 'Marienplatz' }],
  ['shipping.street2', text(100), { use: conditional(ORDER_DATA), code: '100.800.101', sample: 'Rear entrance' }],
  ['shipping.houseNumber1', text(100), { sample: '8' }],
  ['shipping.houseNumber2', text(100), { sample: 'b' }],
  ['shipping.city', city(), { use: conditional(ORDER_DATA), code: '100.800.302' }],
  ['shipping.state', pattern('^[a-zA-Z0-9.]{1,50}$', { notation: 'AN50, a-z A-Z 0-9 .', min: 1, max: 50, sample: 'BY', bad: 'Bavaria!' }), {
    use: conditional(ORDER_DATA),
  }],
  ['shipping.postcode', text(16, 1), { use: conditional(ORDER_DATA), code: '100.800.201', sample: '80331' }],
  ['shipping.country', countryAlpha2(), { use: conditional(ORDER_DATA), code: '100.800.501' }],
  ['shipping.method', oneOf(METHODS), { use: conditional(ORDER_DATA) }],
  ['shipping.cost', decimal(10, true), { use: conditional(ORDER_DATA), code: '100.550.303', sample: '4.90' }],
  ['shipping.comment', multilineText(160), { use: conditional(ORDER_DATA), sample: 'Leave at the door' }],
  ['shipping.expectedDate', date({ sample: '2034-05-20' })],
  ['shipping.logisticsProvider', text(255), { sample: 'Parcel Co' }],
  ['shipping.trackingNumber', text(255), { sample: 'TRACK-0017' }],
  ['shipping.returnTrackingNumber', text(255), { sample: 'RETURN-0017' }],
  ['shipping.normalized', text(255)],
  ['shipping.validationStatus', text(255), { sample: 'VALIDATED' }],
  ['shipping.warehouse', text(100), { sample: 'Warehouse North' }],
  ['shipping.preference', oneOf(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS'])],
  ['shipping.middleName', text(255, 0, 'AN'), { sample: 'Mary' }],
  ['shipping.companyName', text(60), { code: '100.700.500', sample: 'Jones Ltd' }],
  ['shipping.phone', shipPhone('+ or a digit, then 5 to 25 of digits, space . ( ) / -'), { code: '800.900.200' }],
  ['shipping.mobile', shipPhone('+ or a digit, then 5 to 25 of digits, space . ( ) / -'), { code: '100.900.300' }],
  ['shipping.workPhone', text(25), { code: '800.900.200', sample: '+49 89 7654321' }],
  ['shipping.email', email(), { code: '800.900.101' }],
  ['shipping.type', oneOf(['SHIPMENT', 'RETURN'])],
]);

export const shippingRows: readonly ParameterRow[] = [
  ...shipping,
  ...mirrorRows(shipping, 'shipping.', { section: 'Merchant shipping address', use: optional(INITIAL_PAYMENTS) }, 'merchant.shipping.'),
];
