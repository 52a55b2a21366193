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

    it('a blacklisted e-mail address is refused however it is written, and the admin API finds its entry by any form', async () => {
      const merchant = await fresh();
      assert.equal((await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black`, { kind: 'email', value: 'bad@evil.test', by: 'bob' })).statusCode, 200);
      const variants = ['bad@evil.test.', '"bad"@evil.test', 'b\u200Bad@evil.test', 'b\u0430d@evil.test', '\uFF42\uFF41\uFF44@evil.test', 'bad+x@evil.test'];
      for (const email of variants) assert.equal(json(await pay(t, merchant, { 'customer.email': email })).result.code, '800.300.200', JSON.stringify(email));
      assert.match(json(await pay(t, merchant, { 'customer.email': 'good@evil.test' })).result.code, SUCCESS_PATTERN);
      // The same entry whatever form names it: added once, removed by another form, shown as written.
      const again = json(await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black`, { kind: 'email', value: 'Bad+Promo@Evil.Test.' }));
      assert.equal(again.added, false);
      const listed = json(await adminCall(t, 'GET', `/admin/entities/${merchant.entityId}/risk/lists/black`));
      assert.deepEqual(listed.entries.map((e: { shown: string }) => e.shown), ['bad@evil.test']);
      const removed = json(await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black/remove`, { kind: 'email', value: '"BAD"@evil.test.' }));
      assert.equal(removed.removed, true);
      assert.match(json(await pay(t, merchant, { 'customer.email': 'bad@evil.test' })).result.code, SUCCESS_PATTERN);
    });

    it('a blacklisted IPv4 address is refused in its IPv6 forms (mapped, NAT64, 6to4, Teredo)', async () => {
      const merchant = await fresh();
      assert.equal((await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black`, { kind: 'ip', value: '198.51.100.66', by: 'bob' })).statusCode, 200);
      const variants = ['::ffff:198.51.100.66', '64:ff9b::198.51.100.66', '64:ff9b::c633:6442', '2002:c633:6442::1', '2001:0:4136:e378:8000:63bf:39cc:9bbd'];
      for (const ip of variants) assert.equal(json(await pay(t, merchant, { 'customer.ip': ip })).result.code, '800.300.301', ip);
      assert.match(json(await pay(t, merchant, { 'customer.ip': '2002:c633:6443::1' })).result.code, SUCCESS_PATTERN);
      // An entry given in a 6to4 form is the IPv4 address it embeds: shown so, and removed by it.
      assert.equal(json(await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black`, { kind: 'ip', value: '2002:c633:6442::1' })).added, false);
      assert.equal(json(await adminCall(t, 'POST', `/admin/entities/${merchant.entityId}/risk/lists/black/remove`, { kind: 'ip', value: '64:ff9b::c633:6442' })).removed, true);
    });

    it('e-mail velocity counts the sub-addresses of one mailbox as one', async () => {
      const merchant = await fresh();
      assert.equal((await setRules(t, merchant.entityId, { velocity: [{ key: 'email', measure: 'attempts', windowMinutes: 60, max: 2, action: 'reject' }] })).statusCode, 200);
      assert.match(json(await pay(t, merchant, { 'customer.email': 'jane+1@example.com' })).result.code, SUCCESS_PATTERN);
      assert.match(json(await pay(t, merchant, { 'customer.email': 'Jane+2@Example.com.' })).result.code, SUCCESS_PATTERN);
      assert.equal(json(await pay(t, merchant, { 'customer.email': 'j\u0430ne+3@example.com' })).result.code, '800.120.103');
    });
  });
}
