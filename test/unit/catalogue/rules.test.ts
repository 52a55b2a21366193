import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateRequest } from '../../../src/catalogue/engine.js';
import { RULES } from '../../../src/catalogue/rules/index.js';
import type { Endpoint } from '../../../src/catalogue/types.js';
import { CONTEXT, MINIMAL, VISA_CARD, withLuhnDigit } from './fixtures.js';

/**
 * One table row per case: the endpoint's minimal request plus the listed parameters (undefined
 * removes one) gives exactly the listed [name, code] errors, in this order; [] means accepted.
 */
type Case = readonly [title: string, endpoint: Endpoint, additions: Readonly<Record<string, string | undefined>>, expected: readonly (readonly [string, string])[]];

const UNKNOWN_RANGE_NUMBER = withLuhnDigit('999999999999999');
const NAMES = { 'customer.givenName': 'Jane', 'customer.surname': 'Jones' };
const SEPA = { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE23100000001234567890' };
/** The wallet's own authentication of decrypted data: ECI and cryptogram (CAVV). */
const WALLET_AUTHENTICATION = { 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=' };
const TOKEN = { 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK' };

const CASES: Readonly<Record<string, readonly Case[]>> = {
  arrayIndexWithinLimit: [
    ['index 999 is the last', 'payment', { 'cart.items[999].name': 'x' }, []],
    ['cart index 1000', 'payment', { 'cart.items[1000].name': 'x' }, [['cart.items[1000].name', '100.400.320']]],
    ['deep index', 'payment', { 'cart.items[99999999999].name': 'x' }, [['cart.items[99999999999].name', '100.400.320']]],
    ['other arrays', 'payment', { 'airline.passengers[1000].name': 'x' }, [['airline.passengers[1000].name', '200.300.404']]],
  ],
  widgetCustomParametersPrefix: [
    ['SHOPPER_ from the widget', 'checkoutPayment', { 'customParameters[SHOPPER_note]': 'x' }, []],
    ['other names from the widget', 'checkoutPayment', { 'customParameters[note]': 'x' }, [['customParameters[note]', '200.300.404']]],
    ['any name from a server', 'payment', { 'customParameters[note]': 'x' }, []],
  ],
  referencingAmountAndCurrency: [
    ['reversal without amount', 'referencing', {}, []],
    ['capture without amount and currency', 'referencing', { paymentType: 'CP' }, [['amount', '100.550.300']]],
    ['refund with amount only: the currency is the parent\'s', 'referencing', { paymentType: 'RF', amount: '10.00' }, []],
    ['refund with both', 'referencing', { paymentType: 'RF', amount: '10.00', currency: 'EUR' }, []],
  ],
  forexPair: [
    ['both', 'payment', { 'forex.amount': '10.00', 'forex.currency': 'USD' }, []],
    ['amount alone', 'payment', { 'forex.amount': '10.00' }, [['forex.currency', '200.300.404']]],
  ],
  queryTimeFramePair: [
    ['start and end', 'query', { 'date.from': '2034-05-01 00:00:00', 'date.to': '2034-05-02 00:00:00' }, []],
    ['start alone', 'query', { 'date.from': '2034-05-01 00:00:00' }, [['date.to', '200.300.404']]],
  ],
  queryByReferenceOrTimeFrame: [
    ['reference alone', 'query', { merchantTransactionId: 'order-17' }, []],
    ['reference and time frame', 'query', { merchantTransactionId: 'order-17', 'date.from': '2034-05-01 00:00:00', 'date.to': '2034-05-02 00:00:00' }, [['merchantTransactionId', '200.300.404']]],
  ],
  dateRangeOrdered: [
    ['query: equal start and end', 'query', { 'date.from': '2034-05-01 00:00:00', 'date.to': '2034-05-01 00:00:00' }, [['date.to', '200.300.404']]],
    ['reporting: one day', 'reporting', { 'date.to': '2034-05-01' }, []],
    ['reporting: end before start', 'reporting', { 'date.to': '2034-04-30' }, [['date.to', '200.300.404']]],
  ],
  paymentBrandRequired: [
    ['detected from the card', 'payment', { ...VISA_CARD, paymentBrand: undefined }, []],
    ['card of no known range', 'payment', { ...VISA_CARD, paymentBrand: undefined, 'card.number': UNKNOWN_RANGE_NUMBER }, [['paymentBrand', '100.100.500']]],
    ['no card, no brand', 'payment', { paymentBrand: undefined }, [['paymentBrand', '200.300.404']]],
    ['a registration knows its brand', 'registrationPayment', {}, []],
    ["the widget's stored card knows its brand", 'checkoutPayment', { paymentBrand: undefined, registrationId: 'a'.repeat(32) }, []],
    ['the widget without a card or stored card', 'checkoutPayment', { paymentBrand: undefined }, [['paymentBrand', '200.300.404']]],
  ],
  checkoutPaymentData: [
    ['a payment checkout', 'checkout', { amount: '92.00', currency: 'EUR', paymentType: 'DB' }, []],
    ['a registration checkout', 'checkout', { amount: undefined, currency: undefined, paymentType: undefined, createRegistration: 'true' }, []],
    ['neither', 'checkout', { amount: undefined, currency: undefined, paymentType: undefined }, [['amount', '100.550.300'], ['currency', '100.550.400'], ['paymentType', '200.300.404']]],
    ['createRegistration with a paymentType is a payment', 'checkout', { amount: undefined, currency: undefined, createRegistration: 'true' }, [['amount', '100.550.300'], ['currency', '100.550.400']]],
    ['not a checkout', 'payment', {}, []],
  ],
  asynchronousBrandData: [
    ['Sofort with result URL and bank country', 'payment', { paymentBrand: 'SOFORTUEBERWEISUNG', shopperResultUrl: 'https://shop.example/return', 'bankAccount.country': 'DE' }, []],
    ['Sofort without them', 'payment', { paymentBrand: 'SOFORTUEBERWEISUNG' }, [['shopperResultUrl', '100.370.101'], ['bankAccount.country', '100.200.100']]],
    ['PayPal with card data', 'payment', { paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example/return', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK' }, [['tokenAccount.number', '200.100.404']]],
  ],
  cardNumberLuhn: [
    ['valid check digit', 'payment', VISA_CARD, []],
    ['wrong check digit', 'payment', { ...VISA_CARD, 'card.number': '4200000000000001' }, [['card.number', '100.100.101']]],
    ['UNIONPAY issues numbers without one', 'payment', { ...VISA_CARD, paymentBrand: 'UNIONPAY', 'card.number': '6200000000000001' }, []],
    ['brands outside the table are not judged', 'payment', { ...VISA_CARD, paymentBrand: 'PRIVATELABEL', 'card.number': '4200000000000001' }, []],
  ],
  cardBrandMatchesNumber: [
    ['VISADEBIT on a VISA range', 'payment', { ...VISA_CARD, paymentBrand: 'VISADEBIT' }, []],
    ['MASTER on a VISA range', 'payment', { ...VISA_CARD, paymentBrand: 'MASTER' }, [['paymentBrand', '100.100.700']]],
  ],
  cardNotExpired: [
    ['current month', 'payment', { ...VISA_CARD, 'card.expiryMonth': '11', 'card.expiryYear': '2026' }, []],
    ['last month', 'payment', { ...VISA_CARD, 'card.expiryMonth': '10', 'card.expiryYear': '2026' }, [['card.expiryYear', '100.100.303']]],
    ['token account', 'payment', { ...TOKEN, 'tokenAccount.expiryMonth': '01', 'tokenAccount.expiryYear': '2020' }, [['tokenAccount.expiryYear', '100.100.303']]],
  ],
  cvvRequiredForBrand: [
    ['VISA with CVV', 'payment', VISA_CARD, []],
    ['VISA without CVV', 'payment', { ...VISA_CARD, 'card.cvv': undefined }, [['card.cvv', '100.100.600']]],
    ['widget post without CVV', 'checkoutPayment', { ...VISA_CARD, 'card.cvv': undefined }, [['card.cvv', '100.100.600']]],
    ['MAESTRO without CVV', 'payment', { ...VISA_CARD, paymentBrand: 'MAESTRO', 'card.number': '6759649826438453', 'card.cvv': undefined }, []],
    ['repeated standing instruction', 'payment', { ...VISA_CARD, 'card.cvv': undefined, 'standingInstruction.mode': 'REPEATED' }, []],
    ['merchant-initiated', 'payment', { ...VISA_CARD, 'card.cvv': undefined, 'standingInstruction.source': 'MIT' }, []],
    ['decrypted wallet data', 'payment', { ...VISA_CARD, ...WALLET_AUTHENTICATION, 'card.cvv': undefined, 'walletA.source': 'app' }, []],
    ['registration', 'registration', { ...VISA_CARD, 'card.cvv': undefined }, []],
    ['AMEX with three digits', 'payment', { ...VISA_CARD, paymentBrand: 'AMEX', 'card.number': '377777777777770' }, [['card.cvv', '100.100.601']]],
  ],
  walletDataComplete: [
    ['encrypted token', 'payment', { paymentBrand: 'WALLETC', 'walletC.paymentToken': '{"token":"x"}' }, []],
    ['neither token nor source', 'payment', { 'walletA.cardNetwork': 'VISA' }, [['walletA.paymentToken', '200.100.602']]],
    ['decrypted data complete', 'payment', { ...VISA_CARD, ...WALLET_AUTHENTICATION, 'walletA.source': 'web' }, []],
    ['card data alone is not enough', 'payment', { ...VISA_CARD, 'walletA.source': 'web' }, [['threeDSecure.eci', '100.370.121'], ['threeDSecure.verificationId', '100.370.125']]],
    ['verificationId missing', 'payment', { ...VISA_CARD, 'threeDSecure.eci': '05', 'walletC.source': 'app' }, [['threeDSecure.verificationId', '100.370.125']]],
    ['source alone: every field named', 'payment', { 'walletB.source': 'web' }, [
      ['card.number', '100.100.100'],
      ['card.expiryMonth', '100.100.200'],
      ['card.expiryYear', '100.100.300'],
      ['threeDSecure.eci', '100.370.121'],
      ['threeDSecure.verificationId', '100.370.125'],
    ]],
    ['registration: the same data', 'registration', { ...VISA_CARD, 'walletA.source': 'web' }, [['threeDSecure.eci', '100.370.121'], ['threeDSecure.verificationId', '100.370.125']]],
    ['widget post: card data only (threeDSecure.* is not admitted there)', 'checkoutPayment', { ...VISA_CARD, 'walletA.source': 'web' }, []],
  ],
  bankAccountHolderRequired: [
    ['holder with the account', 'payment', { ...SEPA }, []],
    ['account without holder', 'payment', { paymentBrand: 'DIRECTDEBIT_DE', 'bankAccount.iban': 'DE23100000001234567890' }, [['bankAccount.holder', '100.100.400']]],
    ['the shopper\'s bank for an asynchronous brand', 'payment', { paymentBrand: 'EPS', shopperResultUrl: 'https://shop.example/return', 'bankAccount.country': 'AT' }, []],
  ],
  bankAccountNumberOrIban: [
    ['IBAN', 'payment', { paymentBrand: 'DIRECTDEBIT_DE', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE23100000001234567890' }, []],
    ['holder only', 'payment', { paymentBrand: 'DIRECTDEBIT_DE', 'bankAccount.holder': 'Jane Jones' }, [['bankAccount.iban', '100.100.100']]],
  ],
  ibanChecksum: [
    ['wrong check digits', 'payment', { 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE23100000001234567891' }, [['bankAccount.iban', '100.100.101']]],
  ],
  bankCodeOrBic: [
    ['number with bank code', 'payment', { 'bankAccount.holder': 'Jane Jones', 'bankAccount.number': '1234567890', 'bankAccount.bankCode': '10000000' }, []],
    ['number alone', 'payment', { 'bankAccount.holder': 'Jane Jones', 'bankAccount.number': '1234567890' }, [['bankAccount.bic', '200.300.404']]],
  ],
  sepaMandateRequired: [
    ['mandate given', 'payment', { ...SEPA, 'bankAccount.mandate.id': 'MANDATE-A', 'bankAccount.mandate.dateOfSignature': '2026-01-01' }, []],
    ['no mandate (OPPWA clients send none)', 'payment', SEPA, []],
    ['mandate id without its date', 'payment', { ...SEPA, 'bankAccount.mandate.id': 'MANDATE-A' }, [['bankAccount.mandate.dateOfSignature', '100.500.302']]],
    ['date without a mandate id', 'payment', { ...SEPA, 'bankAccount.mandate.dateOfSignature': '2026-01-01' }, [['bankAccount.mandate.id', '100.500.303']]],
    ['no account', 'registration', { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.mandate.id': 'MANDATE-A', 'bankAccount.mandate.dateOfSignature': '2026-01-01' }, [
      ['bankAccount.holder', '100.100.400'],
      ['bankAccount.iban', '100.100.100'],
    ]],
  ],
  customerNamesRequired: [
    ['names with e-mail', 'payment', { ...NAMES, 'customer.email': 'jane@example.com' }, []],
    ['e-mail alone', 'payment', { 'customer.email': 'jane@example.com' }, [['customer.givenName', '100.700.200'], ['customer.surname', '100.700.100']]],
    ['given name alone', 'payment', { 'customer.givenName': 'Jane' }, [['customer.surname', '100.700.100']]],
    ['device data alone', 'payment', { 'customer.ip': '192.0.2.1', 'customer.browser.language': 'de' }, []],
    ['shipping customer', 'payment', { 'shipping.customer.email': 'jane@example.com' }, [['shipping.customer.givenName', '100.700.200'], ['shipping.customer.surname', '100.700.100']]],
  ],
  identificationDocPair: [
    ['both', 'payment', { ...NAMES, 'customer.identificationDocType': 'PASSPORT', 'customer.identificationDocId': 'L01X00T47' }, []],
    ['type alone', 'payment', { ...NAMES, 'customer.identificationDocType': 'PASSPORT' }, [['customer.identificationDocId', '100.700.801']]],
    ['id alone', 'payment', { ...NAMES, 'customer.identificationDocId': 'L01X00T47' }, [['customer.identificationDocType', '100.700.800']]],
  ],
  houseNumber2NeedsHouseNumber1: [
    ['both', 'payment', { 'billing.houseNumber1': '17', 'billing.houseNumber2': 'a' }, []],
    ['second alone', 'payment', { 'billing.houseNumber2': 'a' }, [['billing.houseNumber1', '200.300.404']]],
    ['merchant shipping', 'payment', { 'merchant.shipping.houseNumber2': 'a' }, [['merchant.shipping.houseNumber1', '200.300.404']]],
  ],
  streetNotDigitsOnly: [
    ['digits and a letter', 'payment', { 'billing.street1': '12', 'billing.street2': 'a' }, []],
    ['digits only', 'payment', { 'billing.street1': '12', 'billing.street2': '34' }, [['billing.street1', '100.800.102']]],
    ['second line alone', 'payment', { 'shipping.street2': '123' }, [['shipping.street2', '100.800.102']]],
    ['merchant billing', 'payment', { 'merchant.billing.street1': '1 2' }, [['merchant.billing.street1', '100.800.102']]],
  ],
  networkFUseCaseRequired: [
    ['no network F data', 'payment', { 'threeDSecure.npa': 'false' }, []],
    ['payment authentication with the use case', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.schemeData[NF-USECASE]': '01' }, []],
    ['payment authentication (PA) without it', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2' }, [['threeDSecure.schemeData[NF-USECASE]', '200.300.404']]],
    ['PA: npa false', 'registration', { 'threeDSecure.schemeData[NF-SCORE_MERCHANT]': 'SCORE-12', 'threeDSecure.npa': 'false' }, [['threeDSecure.schemeData[NF-USECASE]', '200.300.404']]],
    ['NPA, recurring (02)', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'RECURRING' }, [['threeDSecure.schemeData[NF-USECASE]', '200.300.404']]],
    ['NPA, instalment (03)', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'INSTALLMENT' }, [['threeDSecure.schemeData[NF-USECASE]', '200.300.404']]],
    ['NPA, add card (04): not required', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.npa': 'true', 'threeDSecure.authenticationInd': 'ADD_CARD' }, []],
    ['NPA without an indicator: not required', 'payment', { 'threeDSecure.schemeData[NF-ITEMSNB]': '2', 'threeDSecure.npa': 'true' }, []],
  ],
  jobDayOfWeekOrDayOfMonth: [
    ['one of them ?', 'schedule', { 'job.dayOfWeek': '?' }, []],
    ['both given', 'schedule', { 'job.dayOfWeek': '2' }, [['job.dayOfWeek', '100.250.120']]],
  ],
};

/** Endpoint rules that live in the rows' data rather than in RULES. */
const DATA_RULES: readonly Case[] = [
  ['overridePaymentType on a checkout', 'checkout', { 'overridePaymentType[VISA]': 'PA' }, []],
  ['overridePaymentType elsewhere', 'payment', { 'overridePaymentType[VISA]': 'PA' }, [['overridePaymentType[VISA]', '200.300.404']]],
  ['account data on a capture', 'referencing', { 'card.number': '4200000000000000' }, [['card.number', '200.100.404']]],
  ['numberOfCaptures 98', 'payment', { numberOfCaptures: '98' }, []],
  ['numberOfCaptures 99', 'payment', { numberOfCaptures: '99' }, [['numberOfCaptures', '200.300.404']]],
  ['numberOfCaptures 0', 'payment', { numberOfCaptures: '0' }, [['numberOfCaptures', '200.300.404']]],
  ['card structure incomplete', 'payment', { 'card.holder': 'Jane Jones' }, [
    ['card.number', '100.100.100'],
    ['card.expiryMonth', '100.100.200'],
    ['card.expiryYear', '100.100.300'],
  ]],
];

function run([title, endpoint, additions, expected]: Case): void {
  const result = validateRequest(endpoint, { ...MINIMAL[endpoint], ...additions }, CONTEXT);
  const actual = result.ok ? [] : result.issues.map((issue) => [issue.name, issue.code]);
  assert.deepEqual(actual, expected.map(([name, code]) => [name, code]), title);
  if (!result.ok) assert.equal(result.code, expected[0]![1], title);
}

test('every rule has a table with a passing and a failing case', () => {
  for (const rule of RULES) {
    const cases = CASES[rule.id];
    assert.ok(cases, `no cases for ${rule.id}`);
    assert.ok(cases.some((entry) => entry[3].length > 0), `${rule.id} never fails`);
  }
});

for (const [ruleId, cases] of Object.entries(CASES)) {
  test(`rule ${ruleId}`, () => cases.forEach(run));
}

test('endpoint rules kept as data', () => DATA_RULES.forEach(run));
