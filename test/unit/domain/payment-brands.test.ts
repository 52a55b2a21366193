import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anyEndpointLookup } from '../../../src/catalogue/catalogue.js';
import { cardBrand } from '../../../src/domain/card.js';
import { ASYNCHRONOUS_BRANDS, asynchronousBrand } from '../../../src/domain/payment-brands.js';

const ISSUE_BRANDS = ['PAYPAL', 'SOFORTUEBERWEISUNG', 'GIROPAY', 'IDEAL', 'EPS', 'TRUSTLY', 'PRZELEWY', 'POLI', 'KLARNA_INVOICE', 'PAYSAFECARD', 'BOLETO', 'PAYTRAIL', 'PREPAYMENT', 'ALIPAY'];
/** The redirect brands the captured OPPWA clients send (opp-python). */
const CAPTURED_BRANDS = ['CHINAUNIONPAY', 'DAOPAY', 'MONEYBOOKERS', 'PAYOLUTION_INS', 'PAYOLUTION_ELV', 'PF_KARTE_DIRECT', 'TRUSTPAY_VA', 'UKASH', 'YANDEX'];

test('the brands of the issue and of the captured clients are asynchronous', () => {
  for (const brand of [...ISSUE_BRANDS, ...CAPTURED_BRANDS]) assert.equal(asynchronousBrand(brand)?.brand, brand, brand);
});

test('card brands and unknown names are not', () => {
  for (const brand of ['VISA', 'UNIONPAY', 'DIRECTDEBIT_SEPA', 'paypal', '', 'NOPE']) assert.equal(asynchronousBrand(brand), undefined, brand);
});

test('the table is consistent', () => {
  const seen = new Set<string>();
  for (const entry of ASYNCHRONOUS_BRANDS) {
    assert.ok(!seen.has(entry.brand), `${entry.brand} twice`);
    seen.add(entry.brand);
    assert.match(entry.brand, /^[A-Z0-9_]{1,32}$/, 'a paymentBrand value');
    assert.equal(cardBrand(entry.brand), undefined, `${entry.brand} is no card brand`);
    assert.ok(entry.name.length > 0 && entry.name.length <= 40, entry.brand);
    assert.ok(['GET', 'POST'].includes(entry.redirectMethod), entry.brand);
    assert.ok(!entry.required.includes('shopperResultUrl'), 'shopperResultUrl is implied');
    for (const name of entry.required) assert.ok(anyEndpointLookup().resolve(name), `${entry.brand}: ${name} is a catalogue parameter`);
    assert.ok(Object.isFrozen(entry) && Object.isFrozen(entry.required), entry.brand);
  }
});
