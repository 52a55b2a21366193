import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CATALOGUE } from '../../../src/catalogue/catalogue.js';
import { echoRequest, type EchoValue } from '../../../src/catalogue/echo.js';
import { validateRequest } from '../../../src/catalogue/engine.js';
import type { PaymentRequest } from '../../../src/catalogue/request-types.generated.js';
import { ENDPOINTS } from '../../../src/catalogue/types.js';
import { CONTEXT, fullRequest } from './fixtures.js';

/** A request with every structure of both documents is accepted and echoed without secrets. */

function validated(endpoint: (typeof ENDPOINTS)[number]): PaymentRequest {
  const result = validateRequest(endpoint, fullRequest(endpoint), CONTEXT);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.issues));
  return result.request;
}

function stringsOf(value: EchoValue): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  return Object.values(value as Record<string, EchoValue>).flatMap(stringsOf);
}

const SECRET_SAMPLES = CATALOGUE.filter((row) => row.secret).map((row) => row.validSample);

test('the full payment request is echoed with every structure of both documents', () => {
  const echo = echoRequest(validated('payment')) as Record<string, any>;
  for (const structure of ['customer', 'billing', 'shipping', 'cart', 'customParameters', 'merchant', 'risk', 'standingInstruction', 'threeDSecure', 'airline', 'marketPlace', 'corporate', 'sender', 'recipient', 'forex', 'card', 'bankAccount', 'tokenAccount', 'virtualAccount', 'walletA', 'giftCard']) {
    assert.ok(echo[structure] !== undefined, structure);
  }
  assert.equal(echo['amount'], '92.00');
  assert.equal(echo['paymentType'], 'DB');
  assert.equal(echo['cart'].items[0].price, '92.00');
  assert.equal(echo['shipping'].cost, '4.90');
  assert.equal(echo['shipping'].customer.givenName, 'Jane');
  assert.equal(echo['customer'].birthDate, '1970-02-17');
  assert.equal(echo['risk'].orderTimestamp, '2034-05-17 10:00:00');
  assert.equal(echo['customParameters'].SHOPPER_orderNote, 'Sample text');
  assert.equal(echo['threeDSecure'].eci, '05');
  assert.equal(echo['airline'].passengers[0].legs[0].fareAmount, '92.00');
});

test('card and bank account appear only as summaries', () => {
  const echo = echoRequest(validated('payment')) as Record<string, any>;
  assert.deepEqual(echo['card'], { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
  assert.deepEqual(echo['bankAccount'], {
    holder: 'Jane Jones',
    bankName: 'Sample Bank',
    bic: 'MARKDEF1100',
    bankCode: '10000000',
    country: 'DE',
    last4Digits: '7890',
    mandate: { id: 'MANDATE-JANE-JONES', dateOfSignature: '2024-05-17' },
  });
  assert.deepEqual(echo['tokenAccount'], { type: 'NETWORK', expiryMonth: '05', expiryYear: '2034', last4Digits: '5678' });
  assert.deepEqual(echo['walletA'], { source: 'web', cardNetwork: 'Sample text', cardType: 'Sample text' });
  assert.deepEqual(Object.keys(echo['giftCard']), ['holder', 'message', 'type']);
  assert.equal(echo['threeDSecure'].verificationId, undefined);
  assert.equal(echo['threeDSecure'].deviceInfo, undefined);
});

test('request controls are not echoed', () => {
  const echo = echoRequest(validated('payment'));
  for (const name of ['entityId', 'testMode', 'shopperResultUrl', 'notificationUrl', 'createRegistration', 'chargebackResultCode']) {
    assert.equal(echo[name], undefined, name);
  }
});

test('no endpoint echoes a secret', () => {
  for (const endpoint of ENDPOINTS) {
    const strings = new Set(stringsOf(echoRequest(validated(endpoint))));
    for (const secret of SECRET_SAMPLES) assert.ok(!strings.has(secret), `${endpoint} echoes ${secret}`);
    const serialised = JSON.stringify(echoRequest(validated(endpoint)));
    for (const key of ['"cvv"', '"number"', '"iban"', '"paymentToken"', '"cryptogram"', '"dtvc"', '"pin"', '"verificationId"', '"accountNumber"', '"accountToken"']) {
      assert.ok(!serialised.includes(key), `${endpoint} echoes ${key}`);
    }
  }
});

test('the echo is plain JSON', () => {
  const echo = echoRequest(validated('payment'));
  assert.deepEqual(JSON.parse(JSON.stringify(echo)), echo);
});

test('the echo ignores what is not a catalogue structure', () => {
  const odd = { card: null, toString: 'x', amount: 100n, colour: 'blue' } as unknown as PaymentRequest;
  assert.deepEqual(echoRequest(odd), { amount: '1.00' });
});
