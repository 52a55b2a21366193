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

    it('a body that is not a form names the accepted media type', async () => {
      for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'text/plain' }, {}]) {
        const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...headers }, payload: '{"entityId":"x"}' });
        assert.equal(response.statusCode, 415, response.body);
        const result = json(response).result;
        assert.equal(result.description, 'invalid Request Message. No valid XML. XML must be url-encoded! maybe it contains a not encoded ampersand or something similar.');
        assert.deepEqual(result.parameterErrors.map((e: { name: string; message: string }) => [e.name, e.message]), [['Content-Type', 'must be application/x-www-form-urlencoded']]);
      }
    });

    it('413 names the limit', async () => {
      const payload = form({ entityId, pad: 'x'.repeat(4096) });
      const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...FORM_HEADERS }, payload });
      assert.equal(response.statusCode, 413);
      assert.deepEqual(json(response).result.parameterErrors, [{ name: 'body', value: String(payload.length), message: 'must be at most 2048 bytes' }]);
    });

    it('every answer carries nosniff and no-store, and no HSTS on the test system', async () => {
      const requests = [
        { method: 'GET', url: '/v1/resultcodes' },
        { method: 'GET', url: `/v1/probe?entityId=${entityId}`, headers: bearer(token) },
        { method: 'GET', url: '/v1/probe' },
        { method: 'GET', url: '/v1/nothing-here' },
        { method: 'PUT', url: '/v1/resultcodes' },
        { method: 'POST', url: '/v1/probe', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '{}' },
        { method: 'POST', url: '/v1/probe', headers: { ...bearer(token), ...FORM_HEADERS }, payload: 'x'.repeat(4096) },
        { method: 'GET', url: '/health' },
      ] as const;
      for (const request of requests) {
        const response = await t.app.inject(request);
        assert.equal(response.headers['x-content-type-options'], 'nosniff', `${request.method} ${request.url} → ${response.statusCode}`);
        assert.equal(response.headers['cache-control'], 'no-store', `${request.method} ${request.url} → ${response.statusCode}`);
        assert.equal(response.headers['strict-transport-security'], undefined);
      }
    });

    it('the live system sends Strict-Transport-Security on every answer', async () => {
      const live = await startTestApp(t.storage, { env: { GATEWAY_SYSTEM: 'live', TRUST_PROXY_TLS: 'true' } });
      try {
        for (const headers of [{ 'x-forwarded-proto': 'https' }, {}]) {
          const response = await live.app.inject({ method: 'GET', url: '/v1/resultcodes', headers });
          assert.match(String(response.headers['strict-transport-security']), /^max-age=31536000; includeSubDomains$/, `${response.statusCode}`);
          assert.equal(response.headers['cache-control'], 'no-store');
        }
      } finally {
        await live.close();
      }
    });

    it('a handler slower than HANDLER_TIMEOUT_MS answers 504 900.100.300 with the envelope', async () => {
      const env = { HEADERS_TIMEOUT_MS: '100', REQUEST_TIMEOUT_MS: '200', HANDLER_TIMEOUT_MS: '300', DATABASE_FAILOVER_WAIT_MS: '100', CONNECTION_TIMEOUT_MS: '5000', CONNECTOR_TIMEOUT_MS: '250' };
      let finished!: () => void;
      const handlerDone = new Promise<void>((resolve) => (finished = resolve));
      const slow = await startTestApp(t.storage, {
        env,
        extraRoutes: (app) => app.get('/v1/slow', async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          finished();
          return { late: true };
        }),
      });
      try {
        const response = await slow.app.inject({ method: 'GET', url: '/v1/slow' });
        assert.equal(response.statusCode, 504, response.body);
        const body = json(response);
        assert.equal(body.result.code, '900.100.300');
        assert.match(body.timestamp, ENVELOPE_TIMESTAMP);
        assert.equal(response.headers['cache-control'], 'no-store');
        await handlerDone;
        await new Promise((resolve) => setImmediate(resolve));
        const errors = slow.logs.lines.map((line) => JSON.parse(line) as { level: number }).filter((line) => line.level >= 50);
        assert.deepEqual(errors, [], 'the late answer is dropped quietly');
      } finally {
        await slow.close();
      }
    });

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
