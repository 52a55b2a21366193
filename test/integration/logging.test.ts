import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { findSecrets, paymentBodyWithSecrets, SECRET_VALUES } from '../support/secrets.js';
import { bearer, form, FORM_HEADERS, probeRoutes, startTestApp, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`logging on ${database.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'trace' }, extraRoutes: probeRoutes });
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('logs are JSON lines with a request id', async () => {
      await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
      const lines = t.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(lines.some((line) => typeof line['reqId'] === 'string' && /^[0-9a-f]{32}$/.test(line['reqId'] as string)));
    });

    it('no secret of a full payment body reaches a log line, on success and on every error path', async () => {
      const { accessToken, entityId } = await t.createMerchant();
      const body = form(paymentBodyWithSecrets(entityId));
      const requests = [
        { method: 'POST', url: '/v1/probe', headers: { ...bearer(accessToken), ...FORM_HEADERS }, payload: body },
        { method: 'POST', url: '/v1/payments-typo', headers: { ...bearer(accessToken), ...FORM_HEADERS }, payload: body },
        { method: 'POST', url: '/v1/probe', headers: { ...bearer('wrong-token-wrong-token'), ...FORM_HEADERS }, payload: body },
        { method: 'POST', url: '/v1/probe', headers: { ...bearer(accessToken), 'content-type': 'text/plain' }, payload: body },
        { method: 'GET', url: `/v1/probe?entityId=${entityId}&card.number=${SECRET_VALUES.cardNumber}`, headers: bearer(accessToken) },
        { method: 'GET', url: `/v1/payments/${SECRET_VALUES.cardNumber}?entityId=${entityId}`, headers: bearer(accessToken) },
      ] as const;
      for (const request of requests) await t.app.inject(request);
      assert.ok(t.logs.lines.length >= requests.length);
      assert.deepEqual(findSecrets(t.logs.text), []);
      assert.ok(!t.logs.text.includes(accessToken), 'access tokens are not logged');
    });
  });
}
