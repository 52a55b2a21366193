import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointCatalogue } from '../../../src/catalogue/catalogue.js';
import { validateRequest } from '../../../src/catalogue/engine.js';
import type { Endpoint } from '../../../src/catalogue/types.js';
import { ASYNCHRONOUS_BRANDS, type AsynchronousBrand } from '../../../src/domain/payment-brands.js';
import { CONTEXT, MINIMAL, VISA_CARD } from './fixtures.js';

/** Every asynchronous brand through the catalogue's validation: complete, each field missing, card data. */

const RESULT_URL = 'https://shop.example/return';

function row(endpoint: Endpoint, name: string) {
  const resolved = endpointCatalogue(endpoint).lookup.resolve(name);
  assert.ok(resolved, `${name} is a parameter of ${endpoint}`);
  return resolved.compiled.row;
}

function completeRequest(entry: AsynchronousBrand): Record<string, string> {
  const body: Record<string, string> = { ...MINIMAL.payment, paymentBrand: entry.brand, shopperResultUrl: RESULT_URL };
  for (const name of entry.required) body[name] = row('payment', name).validSample;
  return body;
}

function issuesOf(endpoint: Endpoint, body: Record<string, string>): [string, string][] {
  const result = validateRequest(endpoint, body, CONTEXT);
  return result.ok ? [] : result.issues.map((issue) => [issue.name, issue.code]);
}

function without(body: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _left, ...rest } = body;
  return rest;
}

for (const entry of ASYNCHRONOUS_BRANDS) {
  test(`${entry.brand}: a complete request is accepted`, () => {
    assert.deepEqual(issuesOf('payment', completeRequest(entry)), []);
  });

  test(`${entry.brand}: each missing field is named with its code`, () => {
    const complete = completeRequest(entry);
    for (const name of ['shopperResultUrl', ...entry.required]) {
      const expected = name === 'shopperResultUrl' ? '100.370.101' : row('payment', name).missingCode;
      assert.deepEqual(issuesOf('payment', without(complete, name)), [[name, expected]], name);
    }
  });

  test(`${entry.brand}: card data is refused`, () => {
    assert.deepEqual(issuesOf('payment', { ...completeRequest(entry), ...VISA_CARD }), [['card.cvv', '200.100.404']]);
    assert.deepEqual(
      issuesOf('payment', { ...completeRequest(entry), 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK' }),
      [['tokenAccount.number', '200.100.404']],
    );
  });
}

/** [title, endpoint, body, expected [name, code] in order]. */
type Case = readonly [string, Endpoint, Record<string, string>, readonly (readonly [string, string])[]];

const PAYMENT = MINIMAL.payment;
const CASES: readonly Case[] = [
  ['Sofort with the bank country only (no holder, no account)', 'payment', { ...PAYMENT, paymentBrand: 'SOFORTUEBERWEISUNG', shopperResultUrl: RESULT_URL, 'bankAccount.country': 'AT' }, []],
  ['Paytrail with bank name, country and holder', 'payment', { ...PAYMENT, paymentBrand: 'PAYTRAIL', shopperResultUrl: RESULT_URL, 'bankAccount.bankName': 'Bank Paytrail', 'bankAccount.country': 'FI', 'bankAccount.holder': 'Jane Jones' }, []],
  ['giropay with IBAN and BIC as the bank hint, no holder', 'payment', { ...PAYMENT, paymentBrand: 'GIROPAY', shopperResultUrl: RESULT_URL, 'bankAccount.country': 'DE', 'bankAccount.iban': 'DE14940593100000012346', 'bankAccount.bic': 'TESTDETT421' }, []],
  ['giropay with a national number and no bank code', 'payment', { ...PAYMENT, paymentBrand: 'GIROPAY', shopperResultUrl: RESULT_URL, 'bankAccount.country': 'DE', 'bankAccount.number': '1234567890' }, []],
  ['a hint IBAN still has its checksum', 'payment', { ...PAYMENT, paymentBrand: 'GIROPAY', shopperResultUrl: RESULT_URL, 'bankAccount.country': 'DE', 'bankAccount.iban': 'DE23100000001234567891' }, [['bankAccount.iban', '100.100.101']]],
  ['Sofort without anything', 'payment', { ...PAYMENT, paymentBrand: 'SOFORTUEBERWEISUNG' }, [['shopperResultUrl', '100.370.101'], ['bankAccount.country', '100.200.100']]],
  ['a malformed result URL keeps its format code', 'payment', { ...PAYMENT, paymentBrand: 'PAYPAL', shopperResultUrl: 'not a url' }, [['shopperResultUrl', '100.370.102']]],
  ['card data with PayPal: the first card field is named', 'payment', { ...PAYMENT, paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL, 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' }, [['card.expiryMonth', '200.100.404']]],
  ['wallet data with PayPal', 'payment', { ...PAYMENT, paymentBrand: 'PAYPAL', shopperResultUrl: RESULT_URL, 'walletA.paymentToken': 'token' }, [['walletA.paymentToken', '200.100.404']]],
  ['PayPal with a virtual account is paid at once, as before', 'payment', { ...PAYMENT, paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' }, []],
  ['brands are case-sensitive: paypal is no asynchronous brand', 'payment', { ...PAYMENT, paymentBrand: 'paypal' }, []],
  ['card brands are untouched', 'payment', { ...PAYMENT, ...VISA_CARD }, []],
  ['the widget post: the checkout carries the result URL', 'checkoutPayment', { paymentBrand: 'SOFORTUEBERWEISUNG', 'bankAccount.country': 'DE' }, []],
  ['the widget post still needs the bank country', 'checkoutPayment', { paymentBrand: 'SOFORTUEBERWEISUNG' }, [['bankAccount.country', '100.200.100']]],
  ['the widget post: customer data comes with the checkout', 'checkoutPayment', { paymentBrand: 'PRZELEWY' }, []],
  ['the widget post refuses card data too', 'checkoutPayment', { paymentBrand: 'IDEAL', 'bankAccount.country': 'NL', ...VISA_CARD }, [['card.cvv', '200.100.404']]],
  ['a registration keeps the bank account rules', 'registration', { ...MINIMAL.registration, paymentBrand: 'SOFORTUEBERWEISUNG', 'bankAccount.country': 'AT' }, [['bankAccount.holder', '100.100.400'], ['bankAccount.iban', '100.100.100']]],
  ['a direct debit keeps them too', 'payment', { ...PAYMENT, paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.country': 'DE' }, [['bankAccount.holder', '100.100.400'], ['bankAccount.iban', '100.100.100']]],
];

test('asynchronous brands beside the other rules', () => {
  for (const [title, endpoint, body, expected] of CASES) {
    assert.deepEqual(issuesOf(endpoint, body), expected.map(([name, code]) => [name, code]), title);
  }
});
