import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { bearer, ENVELOPE_TIMESTAMP, form, FORM_HEADERS, json, probeRoutes, startTestApp, type TestApp } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`transport errors on ${database.name}`, () => {
    let t: TestApp;
    let token: string;
    let entityId: string;
    before(async () => {
      t = await startTestApp(await database.open(), { env: { BODY_LIMIT_BYTES: '2048' }, extraRoutes: probeRoutes });
      ({ accessToken: token, entityId } = await t.createMerchant());
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const cases = [
      { name: 'unknown path', request: { method: 'GET', url: '/v1/nothing-here' }, status: 404, code: '200.300.404' },
      { name: 'typo in a known prefix', request: { method: 'GET', url: '/v1/resultcode' }, status: 404, code: '200.300.404' },
      { name: 'wrong method', request: { method: 'PUT', url: '/v1/resultcodes' }, status: 405, code: '200.300.403' },
      {
        name: 'body over the limit',
        request: { method: 'POST', url: '/v1/probe', headers: FORM_HEADERS, payload: form({ entityId: 'a'.repeat(32), pad: 'x'.repeat(4096) }) },
        status: 413,
        code: '200.100.103',
      },
      {
        name: 'JSON body',
        request: { method: 'POST', url: '/v1/probe', headers: { 'content-type': 'application/json' }, payload: '{"entityId":"x"}' },
        status: 415,
        code: '200.100.101',
      },
      {
        name: 'multipart body',
        request: { method: 'POST', url: '/v1/probe', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' },
        status: 415,
        code: '200.100.101',
      },
    ] as const;

    for (const row of cases) {
      it(`${row.name} → ${row.status} ${row.code}`, async () => {
        const request = row.request as { method: 'GET'; url: string; headers?: Record<string, string>; payload?: string };
        const response = await t.app.inject({ ...request, headers: { ...bearer(token), ...request.headers } });
        assert.equal(response.statusCode, row.status, response.body);
        const body = json(response);
        assert.equal(body.result.code, row.code);
        assert.ok(body.result.description.length > 0);
        assert.match(body.timestamp, ENVELOPE_TIMESTAMP);
        assert.match(body.buildNumber, /^[0-9a-f]{40}@/);
        assert.ok(body.ndc);
        assert.doesNotMatch(response.body, /at .*\.ts:\d+/, 'no stack trace');
      });
    }

    it('405 names the allowed methods', async () => {
      const response = await t.app.inject({ method: 'DELETE', url: '/v1/resultcodes' });
      assert.equal(response.statusCode, 405);
      assert.match(String(response.headers['allow']), /GET/);
    });

    it('a form body passes and a malformed percent-encoding is not a 500', async () => {
      const ok = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...FORM_HEADERS }, payload: form({ entityId }) });
      assert.equal(ok.statusCode, 200);
      const odd = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...FORM_HEADERS }, payload: `entityId=${entityId}&x=%E0%A4%A&y=%` });
      assert.ok(odd.statusCode < 500, odd.body);
    });

    it('an unexpected failure answers 500 with 900.100.203 and no stack trace', async () => {
      const failing = await startTestApp(t.storage, {
        extraRoutes: (app) => app.get('/v1/boom', async () => { throw new TypeError('secret internals'); }),
      });
      const response = await failing.app.inject({ method: 'GET', url: '/v1/boom' });
      await failing.close();
      assert.equal(response.statusCode, 500);
      assert.equal(json(response).result.code, '900.100.203');
      assert.doesNotMatch(response.body, /secret internals/);
    });

    it('GET /v1/resultcodes lists the whole catalogue', async () => {
      const body = json(await t.app.inject({ method: 'GET', url: '/v1/resultcodes' }));
      assert.equal(body.result.code, '000.000.100');
      assert.equal(body.resultCodes.length, 594);
      assert.deepEqual(body.resultCodes.find((c: { code: string }) => c.code === '800.120.100'), {
        code: '800.120.100',
        description: 'Too many requests; try again later',
      });
    });
  });
}
