import { defineRows, sameFormat } from '../define.js';
import { bool, currency, decimal, digits, multilineText, oneOf, pattern, text } from '../formats.js';
import { url } from '../formats-contact.js';
import { date } from '../formats-time.js';
import { ORDER_DATA, conditional, optional } from '../use.js';
import type { ParameterRow } from '../types.js';

/** Party and order data: cart items, cart payments, marketplace. Indexes from 0, at most 1000 items. */

const CART_CODE = '100.400.320'; // shopping cart data invalid or missing
const ITEM = 'cart.items[n].';
const money = () => decimal(10, true);

const items = defineRows({ section: 'Cart items', use: optional(ORDER_DATA), code: CART_CODE }, [
  [`${ITEM}name`, text(255), { use: conditional(ORDER_DATA), sample: 'Paperback novel' }],
  [`${ITEM}merchantItemId`, text(255), { use: conditional(ORDER_DATA), sample: 'item-0017' }],
  [`${ITEM}quantity`, pattern('^[0-9]{1,12}(\\.[0-9]{1,3})?$', { notation: 'up to 12 digits with 0 to 3 decimals', min: 1, max: 16, sample: '2', bad: '2.5000' }), {
    use: conditional(ORDER_DATA),
  }],
  [`${ITEM}type`, oneOf(['PHYSICAL', 'DIGITAL', 'MIXED', 'ANONYMOUS_DONATION', 'AUTHORITIES_PAYMENT']), { use: conditional(ORDER_DATA) }],
  [`${ITEM}sku`, text(255), { sample: 'SKU-0017' }],
  [`${ITEM}currency`, currency(), { use: conditional(ORDER_DATA), code: '100.550.401' }],
  [`${ITEM}description`, multilineText(2048), { use: conditional(ORDER_DATA), sample: 'A novel, paperback edition' }],
  [`${ITEM}commodityCode`, digits(8, 1, 'N8', '49019900')],
  [`${ITEM}commodityDescription`, text(50), { sample: 'Printed books' }],
  [`${ITEM}originalPrice`, text(255), { sample: '40.00' }],
  ...sameFormat(ITEM, ['price', 'totalAmount', 'taxAmount', 'totalTaxAmount'], money(), { use: conditional(ORDER_DATA) }),
  [`${ITEM}tax`, pattern('^(100(\\.0{1,2})?|[0-9]{1,2}(\\.[0-9]{1,2})?)$', { notation: 'AN6, percentage 0 to 100', min: 1, max: 6, sample: '19', bad: '101' }), {
    use: conditional(ORDER_DATA),
  }],
  [`${ITEM}taxCategory`, oneOf(['S', 'AA', 'E', 'Z']), { use: conditional(ORDER_DATA) }],
  ...sameFormat(ITEM, ['shipping', 'discount'], money(), { use: conditional(ORDER_DATA) }),
  [`${ITEM}giftMessage`, multilineText(255), { sample: 'Happy birthday' }],
  ...sameFormat(ITEM, ['shippingMethod', 'shippingTrackingNumber'], text(255), { sample: 'GROUND' }),
  [`${ITEM}shippingInstructions`, multilineText(255), { sample: 'GROUND' }],
  [`${ITEM}quantityUnit`, oneOf(['COUNT', 'M', 'CM', 'KG', 'G'])],
  ...sameFormat(ITEM, ['productUrl', 'imageUrl'], url(2048, 1)),
  [`${ITEM}totalDiscountAmount`, money()],
  ...sameFormat(ITEM, ['productCode', 'partNumber'], text(30), { sample: 'P-0017' }),
  [`${ITEM}itemNumber`, pattern('^[1-9][0-9]{0,2}$', { notation: 'N3, 1 to 999', min: 1, max: 3, sample: '1', bad: '0' })],
  [`${ITEM}vatReferenceNumber`, text(30), { sample: 'VAT-0017' }],
  [`${ITEM}sellerId`, text(255), { sample: 'seller-1' }],
  [`${ITEM}recipient.salutation`, text(5), { sample: 'MS' }],
  ...sameFormat(`${ITEM}recipient.`, ['firstName', 'lastName'], text(48), { sample: 'Jane' }),
  [`${ITEM}recipient.middleName`, text(50), { sample: 'Mary' }],
  [`${ITEM}recipient.apartment`, text(100), { sample: 'Apartment 3' }],
  ...sameFormat(`${ITEM}recipient.`, ['street', 'address'], text(100), { sample: 'Leopoldstr. 17' }),
  [`${ITEM}recipient.city`, text(80), { sample: 'Munich' }],
  [`${ITEM}recipient.state`, text(50), { sample: 'BY' }],
  [`${ITEM}recipient.postcode`, text(16), { sample: '80331' }],
  [`${ITEM}recipient.country`, pattern('^([A-Z]{2}|[0-9]{3})$', { notation: 'A2 letters or N3 digits', min: 2, max: 3, sample: 'DE', bad: 'DEU' })],
  [`${ITEM}recipient.phone`, digits(25, 1, 'N25 digits', '49891234567')],
  [`${ITEM}recipient.email`, text(128), { sample: 'jane.jones@example.com' }],
  [`${ITEM}deliveryDate`, date({ sample: '2034-05-20' })],
]);

const PAYMENT = 'cart.payments[n].';

const payments = defineRows({ section: 'Cart payments', use: optional(ORDER_DATA), code: CART_CODE }, [
  [`${PAYMENT}name`, text(255), { sample: 'Gift card' }],
  [`${PAYMENT}type`, oneOf(['GIFTCARD', 'PROMOTION'])],
  [`${PAYMENT}amount`, money()],
  [`${PAYMENT}currency`, currency(), { code: '100.550.401' }],
  [`${PAYMENT}status`, oneOf(['pending', 'authorized', 'captured'])],
  [`${PAYMENT}brand`, text(255), { sample: 'GIFTCARD' }],
  [`${PAYMENT}primary`, bool()],
]);

const marketplace = defineRows({ section: 'Marketplace', use: optional(ORDER_DATA) }, [
  ['marketPlace.sellers[n].id', text(255), { sample: 'seller-1' }],
  ['marketPlace.sellers[n].amount', money(), { code: '100.550.303' }],
]);

export const cartRows: readonly ParameterRow[] = [...items, ...payments, ...marketplace];
