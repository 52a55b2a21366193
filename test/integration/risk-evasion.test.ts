import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/** Ways a merchant or a shopper could step around the operator's rules (issue 29, items 7 and 13). */

function adminCall(t: TestApp, method: 'GET' | 'PUT' | 'POST', url: string, fields?: Record<string, string>) {
  return t.app.inject({ method, url, headers: { ...bearer(TEST_ADMIN_TOKEN), ...(fields ? FORM_HEADERS : {}) }, ...(fields ? { payload: form(fields) } : {}) });
}

function setRules(t: TestApp, entityId: string, rules: unknown) {
  return adminCall(t, 'PUT', `/admin/entities/${entityId}/risk/rules`, { rules: JSON.stringify(rules), by: 'alice' });
}

function pay(t: TestApp, merchant: Merchant, extra: Record<string, string> = {}) {
  return postPayment(t, merchant, { amount: '92.00', currency: 'EUR', paymentType: 'DB', 'customer.givenName': 'Jane', 'customer.surname': 'Jones', ...SAMPLE_CARD, ...extra });
}

for (const db of testDatabases()) {
  describe(`risk rules cannot be stepped around (${db.name})`, () => {
    let t: TestApp;
    let fresh: () => Promise<Merchant>;
    withAppAndMerchant(db.open, {}, (app) => {
      t = app;
      fresh = () => app.createMerchant('Evasive shop');
    });

    it('an amount limit counts the payment\'s own amount, whatever risk.amount says', async () => {
      const merchant = await fresh();
      assert.equal((await setRules(t, merchant.entityId, { amountLimits: [{ currency: 'EUR', max: '100.00' }] })).statusCode, 200);
      assert.equal(json(await pay(t, merchant, { amount: '5000.00' })).result.code, '100.550.312');
      const lowered = await pay(t, merchant, { amount: '5000.00', 'risk.amount': '1.00' });
      assert.equal(json(lowered).result.code, '100.550.312');
      // The standalone check counts the same amount.
      const asked = await t.app.inject({ method: 'POST', url: '/v1/risk', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, amount: '5000.00', currency: 'EUR', 'risk.amount': '1.00', ...SAMPLE_CARD }) });
      assert.equal(json(asked).result.code, '100.550.312');
      assert.match(json(await pay(t, merchant, { amount: '100.00', 'risk.amount': '1.00' })).result.code, SUCCESS_PATTERN);
    });

    it('a velocity sum counts each payment\'s own amount, whatever risk.amount says', async () => {
      const merchant = await fresh();
      const rules = { velocity: [{ key: 'ip', measure: 'amount', currency: 'EUR', windowMinutes: 60, max: '150.00', action: 'reject' }] };
      assert.equal((await setRules(t, merchant.entityId, rules)).statusCode, 200);
      const shopper = { 'customer.ip': '198.51.100.20', amount: '100.00', 'risk.amount': '1.00' };
      assert.match(json(await pay(t, merchant, shopper)).result.code, SUCCESS_PATTERN);
      assert.equal(json(await pay(t, merchant, shopper)).result.code, '800.120.202');
    });
  });
}
