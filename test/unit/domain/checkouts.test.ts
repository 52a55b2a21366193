import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callbackNeeded, decideAttempt, MAX_ATTEMPTS_PER_CHECKOUT, ORPHANED_CLAIM_MS, stateAfterAttempt, type AttemptStatus, type CheckoutState } from '../../../src/domain/checkouts/attempt.js';
import { checkoutResourcePath, isCheckoutId, newCheckoutId } from '../../../src/domain/checkouts/checkout-id.js';
import { keptParameters, storedCards, widgetPaymentParameters } from '../../../src/operations/checkouts/checkout-parameters.js';

const NOW = new Date('2034-06-01T10:00:00Z');
const LATER = new Date(NOW.getTime() + 60_000);
const EARLIER = new Date(NOW.getTime() - 60_000);

describe('checkout ids', () => {
  it('are 32 upper-case hex characters, a dot and the suffix, within 32 to 48 characters', () => {
    const id = newCheckoutId('0123456789abcdef0123456789abcdef', 'gw01');
    assert.equal(id, '0123456789ABCDEF0123456789ABCDEF.gw01');
    assert.ok(isCheckoutId(id));
    assert.ok(isCheckoutId(newCheckoutId('f'.repeat(32), 'a'.repeat(15))));
    assert.equal(newCheckoutId('f'.repeat(32), 'a'.repeat(15)).length, 48);
  });
  for (const bad of ['abc', 'f'.repeat(32), `${'f'.repeat(32)}.gw01`, `${'F'.repeat(32)}.`, `${'F'.repeat(32)}.${'a'.repeat(16)}`, `${'F'.repeat(32)}.gw/01`]) {
    it(`refuses ${JSON.stringify(bad)}`, () => assert.equal(isCheckoutId(bad), false));
  }
  it('names its status path', () => assert.equal(checkoutResourcePath('X', 'registration'), '/v1/checkouts/X/registration'));
});

describe('whether a checkout takes another attempt', () => {
  const cases: readonly [string, CheckoutState, AttemptStatus, Date, Date | null, string][] = [
    ['a fresh checkout', 'open', 'none', LATER, null, 'proceed'],
    ['after a decline', 'open', 'declined', LATER, EARLIER, 'proceed'],
    ['after a decline that came after a redirect', 'attempting', 'declined', LATER, EARLIER, 'proceed'],
    ['an expired checkout', 'open', 'none', EARLIER, null, 'refuse 200.300.404'],
    ['a paid checkout', 'completed', 'success', LATER, EARLIER, 'refuse 200.300.404'],
    ['paid after its redirect', 'attempting', 'success', LATER, EARLIER, 'refuse 200.300.404'],
    ['an attempt waiting on a provider page', 'attempting', 'pending-with-redirect', LATER, EARLIER, 'cancel-redirect-then-proceed'],
    ['an attempt the acquirer has not answered', 'attempting', 'pending', LATER, EARLIER, 'refuse 800.700.100'],
    ['an attempt claimed a moment ago', 'attempting', 'none', LATER, EARLIER, 'refuse 800.700.100'],
    ['a claim whose process died', 'attempting', 'none', LATER, new Date(NOW.getTime() - ORPHANED_CLAIM_MS - 1), 'proceed'],
  ];
  for (const [name, state, latest, expiresAt, attemptStartedAt, expected] of cases) {
    it(`${name}: ${expected}`, () => {
      const decision = decideAttempt({ state, expiresAt, attemptStartedAt, attempts: 1 }, latest, NOW);
      assert.equal(decision.kind === 'refuse' ? `refuse ${decision.code}` : decision.kind, expected);
    });
  }
  it(`a checkout takes at most ${MAX_ATTEMPTS_PER_CHECKOUT} attempts, declined or not`, () => {
    assert.equal(decideAttempt({ state: 'open', expiresAt: LATER, attemptStartedAt: EARLIER, attempts: MAX_ATTEMPTS_PER_CHECKOUT - 1 }, 'declined', NOW).kind, 'proceed');
    assert.deepEqual(decideAttempt({ state: 'open', expiresAt: LATER, attemptStartedAt: EARLIER, attempts: MAX_ATTEMPTS_PER_CHECKOUT }, 'declined', NOW), { kind: 'refuse', code: '700.500.001', reason: `a checkout takes at most ${MAX_ATTEMPTS_PER_CHECKOUT} attempts` });
  });
  it('the state an attempt leaves', () => {
    assert.deepEqual((['success', 'declined', 'pending', 'pending-with-redirect', 'none'] as const).map(stateAfterAttempt), ['completed', 'open', 'attempting', 'attempting', 'attempting']);
  });
  it('the callback goes out only for an attempt whose status nobody fetched, with an address', () => {
    assert.equal(callbackNeeded({ attemptId: 'a', statusFetchedAt: null, shopperResultUrl: 'https://x' }), true);
    assert.equal(callbackNeeded({ attemptId: null, statusFetchedAt: null, shopperResultUrl: 'https://x' }), false);
    assert.equal(callbackNeeded({ attemptId: 'a', statusFetchedAt: NOW, shopperResultUrl: 'https://x' }), false);
    assert.equal(callbackNeeded({ attemptId: 'a', statusFetchedAt: null, shopperResultUrl: undefined }), false);
  });
});

describe("the widget's payment parameters", () => {
  const checkout = { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'overridePaymentType[VISA]': 'PA', 'registrations[0].id': 'r'.repeat(32), overrideHolder: 'true', 'customParameters[orderRef]': 'o1' };
  const cases: readonly [string, Record<string, string>, Record<string, string>][] = [
    ['a card of a brand with an override takes its payment type', { paymentBrand: 'VISA', 'card.number': '4200000000000000' }, { amount: '92.00', currency: 'EUR', paymentType: 'PA', 'customParameters[orderRef]': 'o1', paymentBrand: 'VISA', 'card.number': '4200000000000000' }],
    ['another brand keeps the checkout\'s', { paymentBrand: 'MASTER' }, { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customParameters[orderRef]': 'o1', paymentBrand: 'MASTER' }],
    ['a stored card keeps overrideHolder and drops its id', { registrationId: 'r'.repeat(32) }, { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customParameters[orderRef]': 'o1', overrideHolder: 'true' }],
  ];
  for (const [name, widget, expected] of cases) {
    it(name, () => assert.deepEqual(widgetPaymentParameters(checkout, widget), expected));
  }
  it("the merchant's shopperResultUrl wins over the widget's; without one the widget's serves", () => {
    const merchant = { ...checkout, shopperResultUrl: 'https://merchant.example.com/back' };
    assert.equal(widgetPaymentParameters(merchant, { shopperResultUrl: 'https://evil.example/phish' })['shopperResultUrl'], 'https://merchant.example.com/back');
    assert.equal(widgetPaymentParameters(checkout, { shopperResultUrl: 'https://shop.example.com/result' })['shopperResultUrl'], 'https://shop.example.com/result');
  });
  it('keeps single strings, never the credential, entity or integrity flag, nor ignored names', () => {
    assert.deepEqual(keptParameters({ entityId: 'e', integrity: 'true', 'authentication.userId': 'u', amount: '1.00', twice: ['a', 'b'], odd: 'x' }, ['odd']), { amount: '1.00' });
  });
  it('lists stored cards in index order and refuses more than ten', () => {
    assert.deepEqual(storedCards({ 'registrations[1].id': 'b', 'registrations[0].id': 'a' }).map((c) => c.id), ['a', 'b']);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`registrations[${i}].id`, String(i)]));
    assert.throws(() => storedCards(eleven), /200\.300\.404|GatewayError/);
  });
});
