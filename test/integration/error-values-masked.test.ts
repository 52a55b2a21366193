import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { bearer, form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const CARD = '4111 1111 1111 1111';
const DIGITS = CARD.replace(/ /g, '');
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * Errors built outside the catalogue (authentication, the admin API, webhooks) quote what was
 * sent; the error handler masks digit runs in every parameterErrors name and value, whoever made
 * it (found by the fuzz campaign: entityId sent twice, a webhook url, a delivery id).
 */
for (const database of testDatabases()) {
  describe(`error values never show a card number, whoever built the error, on ${database.name}`, () => {
    let t: TestApp;
    let merchant: { entityId: string; accessToken: string };
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn' } });
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const cases: ReadonlyArray<readonly [string, () => Promise<{ body: string; statusCode: number }>]> = [
      ['entityId sent twice (authentication)', () => t.app.inject({ method: 'GET', url: `/v1/payments/${'a'.repeat(32)}?entityId=${merchant.entityId}&entityId=${encodeURIComponent(`note:${CARD}`)}`, headers: bearer(merchant.accessToken) })],
      ['a webhook url (admin API)', () => t.app.inject({ method: 'POST', url: '/admin/webhooks', headers: { ...admin, ...FORM_HEADERS }, payload: form({ entity: merchant.entityId, url: `note:${CARD.replace(/ /g, '-')}` }) })],
      ['a delivery id (admin API)', () => t.app.inject({ method: 'POST', url: `/admin/webhooks/deliveries/${DIGITS}/resend`, headers: { ...admin, ...FORM_HEADERS }, payload: form({}) })],
      ['an attempts limit (admin API)', () => t.app.inject({ method: 'GET', url: `/admin/webhooks/${'b'.repeat(32)}/attempts?limit=${DIGITS}`, headers: admin })],
    ];
    for (const [name, send] of cases) {
      it(name, async () => {
        const response = await send();
        assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${response.statusCode} ${response.body}`);
        const digits = response.body.replace(/[ -]/g, '');
        assert.ok(!digits.includes(DIGITS), response.body);
        assert.ok(!/411111[0-9 -]{6,}/.test(response.body), response.body);
      });
    }
  });
}
