import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateRequest } from '../../../src/catalogue/engine.js';
import type { RequestBody } from '../../../src/catalogue/types.js';
import { CONTEXT, MINIMAL, VISA_CARD } from './fixtures.js';

/** The engine's contract: precedence, masking, robustness, and the typed request. */

const PAYMENT = MINIMAL.payment;

function errorsOf(body: RequestBody, endpoint: Parameters<typeof validateRequest>[0] = 'payment') {
  const result = validateRequest(endpoint, body, CONTEXT);
  assert.ok(!result.ok, 'expected a rejection');
  return result;
}

function accepted(body: RequestBody, endpoint: Parameters<typeof validateRequest>[0] = 'payment') {
  const result = validateRequest(endpoint, body, CONTEXT);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.request as unknown as Record<string, any>;
}

test('precedence: names, then formats, then required, then rules', () => {
  const broken = { ...PAYMENT, ...VISA_CARD, 'card.number': '4200000000000001', currency: undefined, amount: '-1', colour: 'blue' };
  const all = errorsOf(broken);
  assert.deepEqual(all.issues.map((issue) => [issue.name, issue.code]), [
    ['colour', '200.300.404'],
    ['amount', '100.550.303'],
    ['currency', '100.550.400'],
    ['card.number', '100.100.101'],
  ]);
  assert.equal(all.code, '200.300.404');
  assert.equal(errorsOf({ ...broken, colour: undefined }).code, '100.550.303');
  assert.equal(errorsOf({ ...broken, colour: undefined, amount: '92.00' }).code, '100.550.400');
  assert.equal(errorsOf({ ...broken, colour: undefined, amount: '92.00', currency: 'EUR' }).code, '100.100.101');
});

test('the same request in any key order gives the same errors', () => {
  const broken: Record<string, string> = { ...PAYMENT, ...VISA_CARD, zeta: '1', alpha: '2', 'card.cvv': '1', 'customer.email': 'x', 'cart.items[10].name': 'x'.repeat(300), 'cart.items[2].name': 'y'.repeat(300) };
  const reversed = Object.fromEntries(Object.entries(broken).reverse());
  assert.deepEqual(errorsOf(reversed), errorsOf(broken));
  assert.deepEqual(errorsOf(broken).parameterErrors.map((error) => error.name), [
    'alpha',
    'zeta',
    'card.cvv',
    'customer.email',
    'cart.items[2].name',
    'cart.items[10].name',
    'customer.givenName',
    'customer.surname',
  ]);
});

test('one error per parameter, with the public messages', () => {
  const result = errorsOf({ ...PAYMENT, amount: '-20.20', paymentType: undefined, 'customer.givenName': 'Jane' });
  assert.deepEqual(result.parameterErrors, [
    { name: 'amount', value: '-20.20', message: 'must match ^[0-9]{1,10}(\\.[0-9]{2})?$' },
    { name: 'paymentType', value: '', message: 'is required' },
    { name: 'customer.surname', value: '', message: 'is required when customer.givenName is sent' },
  ]);
});

test('repeated keys, non-string values, unknown and misplaced names are named', () => {
  const result = errorsOf({ ...PAYMENT, paymentType: ['DB', 'PA'], descriptor: 42 as unknown as string, colour: 'blue', 'job.name': 'x' });
  assert.deepEqual(result.parameterErrors, [
    { name: 'colour', value: 'blue', message: 'unknown parameter' },
    { name: 'descriptor', value: '', message: 'must be a string' },
    { name: 'job.name', value: 'x', message: 'not allowed on payment requests' },
    { name: 'paymentType', value: 'DB', message: 'must not be repeated' },
  ]);
});

test('secret values never appear in clear', () => {
  const result = errorsOf({
    ...PAYMENT,
    ...VISA_CARD,
    'card.number': '4200000000000001',
    'card.cvv': '12a',
    'bankAccount.holder': 'Jane Jones',
    'bankAccount.iban': 'DE23100000001234567891',
    'tokenAccount.cryptogram': 'short',
    'walletA.paymentToken': 'x'.repeat(40_000),
    'giftCard.pin': '1',
    'card.numbr': '4111111111111111',
    'customer.pin': '1234',
    comment: 'my card is 4111111111111111',
  });
  const values = Object.fromEntries(result.parameterErrors.map((error) => [error.name, error.value]));
  assert.deepEqual(values, {
    'card.numbr': '****',
    comment: '****',
    'customer.pin': '****',
    'card.cvv': '****',
    'tokenAccount.cryptogram': '****',
    'walletA.paymentToken': '****',
    'giftCard.pin': '****',
    'card.number': '420000******0001',
    'bankAccount.iban': '****7891',
    'tokenAccount.number': '',
    'tokenAccount.type': '',
  });
  const serialised = JSON.stringify(result);
  for (const secret of ['4200000000000001', '4111111111111111', '12a', 'DE23100000001234567891']) assert.ok(!serialised.includes(secret), secret);
});

test('account data on a referencing request is refused with 200.100.404', () => {
  const result = errorsOf({ ...MINIMAL.referencing, 'card.number': '4200000000000000' }, 'referencing');
  assert.equal(result.code, '200.100.404');
  assert.deepEqual(result.parameterErrors, [{ name: 'card.number', value: '420000******0000', message: 'not allowed on referencing requests' }]);
});

test('hostile names and values neither throw nor pollute prototypes', () => {
  const body = JSON.parse('{"__proto__": "x", "constructor": "y", "toString": "z", "customParameters[__proto__]": "p", "cart.items[01].name": "a", "customParameters[]": "b"}');
  const result = errorsOf({ ...PAYMENT, ...body });
  assert.deepEqual(result.parameterErrors.map((error) => [error.name, error.message]), [
    ['__proto__', 'unknown parameter'],
    ['cart.items[01].name', 'unknown parameter'],
    ['constructor', 'unknown parameter'],
    ['customParameters[]', 'unknown parameter'],
    ['toString', 'unknown parameter'],
    ['customParameters[__proto__]', 'name is not allowed'],
  ]);
  assert.equal(({} as Record<string, unknown>)['p'], undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

test('huge values are rejected cheaply and shown cut', () => {
  const huge = 'x'.repeat(5_000_000);
  const started = performance.now();
  const result = errorsOf({ ...PAYMENT, 'customer.givenName': huge, 'customer.surname': 'Jones', [`x${huge}`]: huge });
  assert.ok(performance.now() - started < 500);
  for (const error of result.parameterErrors) {
    assert.ok(error.value.length <= 257 && error.name.length <= 257);
  }
});

test('a body that is no object counts as empty', () => {
  for (const body of [null, undefined, 'amount=1', 42, ['amount']]) {
    const result = validateRequest('payment', body as unknown as RequestBody, CONTEXT);
    assert.ok(!result.ok && result.parameterErrors.some((error) => error.name === 'amount'));
  }
});

test('empty values count as not sent', () => {
  const request = accepted({ ...PAYMENT, descriptor: '', 'customer.givenName': '' });
  assert.equal(request['descriptor'], undefined);
  assert.equal(request['customer'], undefined);
  assert.equal(errorsOf({ ...PAYMENT, amount: '' }).parameterErrors[0]!.message, 'is required');
});

test('the typed request: bigint amounts, booleans, dates, numbers, lists', () => {
  const request = accepted({
    ...PAYMENT,
    amount: '92.50',
    createRegistration: 'true',
    numberOfCaptures: '3',
    transactionDueDate: '2034-05-17',
    'risk.orderTimestamp': '2034-05-17 10:11:12',
    'customer.givenName': 'Jane',
    'customer.surname': 'Jones',
    'customer.birthDate': '1970-02-17',
  });
  assert.equal(request['amount'], 9250n);
  assert.equal(request['createRegistration'], true);
  assert.equal(request['numberOfCaptures'], 3);
  assert.deepEqual(request['transactionDueDate'], new Date('2034-05-17T00:00:00Z'));
  assert.deepEqual(request['risk'].orderTimestamp, new Date('2034-05-17T10:11:12Z'));
  assert.deepEqual(request['customer'], { givenName: 'Jane', surname: 'Jones', birthDate: new Date('1970-02-17T00:00:00Z') });
  const migration = accepted({ ...MINIMAL.registration, 'recurringMigration.paymentType': 'DB', 'recurringMigration.requestTimestamp': '2024-05-17 10:00:00+0200' }, 'registration');
  assert.deepEqual(migration['recurringMigration'].requestTimestamp, new Date('2024-05-17T08:00:00Z'));
  const query = accepted({ ...MINIMAL.query, paymentTypes: 'DB,PA,3D', limit: '250' }, 'query');
  assert.deepEqual(query['paymentTypes'], ['DB', 'PA', '3D']);
  assert.equal(query['limit'], 250);
});

test('sparse indexes are compacted in index order, maps have no prototype', () => {
  const request = accepted({
    ...PAYMENT,
    'cart.items[10].name': 'ten',
    'cart.items[2].name': 'two',
    'cart.items[2].price': '1.00',
    'cart.items[5].name': 'five',
    'airline.passengers[1].legs[3].flightNumber': 'LH1',
    'airline.passengers[1].legs[0].flightNumber': 'LH0',
    'customParameters[SHOPPER_a.b]': 'x',
    'threeDSecure.schemeData[NF-ITEMSNB]': '2',
    // Network F data on a payment authentication needs its use case (rule networkFUseCaseRequired).
    'threeDSecure.schemeData[NF-USECASE]': '01',
  });
  assert.deepEqual(request['cart'].items, [{ name: 'two', price: 100n }, { name: 'five' }, { name: 'ten' }]);
  assert.deepEqual(request['airline'].passengers, [{ legs: [{ flightNumber: 'LH0' }, { flightNumber: 'LH1' }] }]);
  assert.equal(Object.getPrototypeOf(request['customParameters']), null);
  assert.equal(request['customParameters']['SHOPPER_a.b'], 'x');
  assert.equal(request['threeDSecure'].schemeData['NF-ITEMSNB'], '2');
  assert.equal(request['threeDSecure'].schemeData['NF-USECASE'], '01');
});

test('the brand detected from the card number fills paymentBrand', () => {
  assert.equal(accepted({ ...PAYMENT, ...VISA_CARD, paymentBrand: undefined })['paymentBrand'], 'VISA');
  assert.equal(accepted({ ...PAYMENT, ...VISA_CARD, paymentBrand: 'VISADEBIT' })['paymentBrand'], 'VISADEBIT');
});

test('the card data stays in the typed request for the payment operation', () => {
  assert.deepEqual(accepted({ ...PAYMENT, ...VISA_CARD })['card'], {
    number: '4200000000000000',
    expiryMonth: '05',
    expiryYear: '2034',
    cvv: '123',
    holder: 'Jane Jones',
  });
});

test('unknown names under the "ignore" setting: left out and listed; names of other endpoints and card numbers still refused', () => {
  const ignore = { ...CONTEXT, unknownParameters: 'ignore' as const };
  const cases: [string, RequestBody, string[] | 'refused'][] = [
    ['one unknown name', { ...PAYMENT, colour: 'blue' }, ['colour']],
    ['sorted, values never kept', { ...PAYMENT, zeta: '1', alpha: 'secret' }, ['alpha', 'zeta']],
    ['none', PAYMENT, []],
    ['a parameter of another endpoint', { ...PAYMENT, sequence: 'FINAL' }, 'refused'],
    ['a name holding a card number', { ...PAYMENT, x4200000000000000: '1' }, 'refused'],
  ];
  for (const [name, body, expected] of cases) {
    const result = validateRequest('payment', body, ignore);
    if (expected === 'refused') {
      assert.ok(!result.ok, name);
    } else {
      assert.ok(result.ok, name);
      assert.deepEqual(result.ignored, expected, name);
      assert.ok(!result.ignored.join().includes('secret'), name);
    }
  }
  assert.ok(!validateRequest('payment', { ...PAYMENT, colour: 'blue' }, CONTEXT).ok, 'reject is the default');
});
