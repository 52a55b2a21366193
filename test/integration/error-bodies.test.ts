/**
 * Every error body has the specification's Error body shape: buildNumber, id, ndc, result and
 * timestamp, with the timestamp as `yyyy-MM-dd hh:mm:ssZ` and the ndc of `a-z A-Z 0-9 -`. An error
 * that created nothing answers the request's own id (fresh per request, as OPPWA answers), the
 * same 32 characters its ndc ends with and its log line carries. One row per status.
 */
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD } from '../support/payments.js';
import { rawRequest } from '../support/raw-socket.js';
import { bearer, ENVELOPE_NDC, ENVELOPE_TIMESTAMP, form, FORM_HEADERS, json, probeRoutes, startTestApp, type TestApp } from '../support/test-app.js';

const REQUEST_ID = /^[0-9a-f]{32}$/;

/** The Error body shape; answers the id. */
function assertErrorBody(text: string, status: number, expectedStatus: number, code: string): string {
  assert.equal(status, expectedStatus, text);
  const body = JSON.parse(text) as Record<string, any>;
  for (const field of ['buildNumber', 'id', 'ndc', 'result', 'timestamp']) assert.ok(field in body, `${field} in ${text}`);
  assert.equal(body.result.code, code, text);
  assert.match(body.id, REQUEST_ID, text);
  assert.ok(body.ndc.endsWith(body.id), `the ndc ${body.ndc} ends with the id ${body.id}`);
  assert.match(body.ndc, ENVELOPE_NDC);
  assert.match(body.timestamp, ENVELOPE_TIMESTAMP);
  return body.id as string;
}

for (const database of testDatabases()) {
  describe(`error bodies carry id, ndc and timestamp in the specification's forms (${database.name})`, () => {
    let t: TestApp;
    let merchant: { entityId: string; accessToken: string };
    before(async () => {
      t = await startTestApp(await database.open(), { env: { BODY_LIMIT_BYTES: '2048' }, extraRoutes: probeRoutes });
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const pay = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/payments', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS, ...headers }, payload: form({ entityId: merchant.entityId, ...fields }) });

    it('400, a validation failure with parameterErrors: the id is the request\'s, the ndc names the entity', async () => {
      const response = await pay({ amount: '10.5', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD });
      const id = assertErrorBody(response.body, response.statusCode, 400, '100.550.303');
      assert.equal(json(response).ndc, `${merchant.entityId}-${id}`);
      assert.equal(json(response).result.parameterErrors[0].name, 'amount');
      // The line is written when the response has finished, which may come after inject resolves on a busy host.
      const lineOf = () => t.logs.text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['reqId'] === id);
      for (const deadline = Date.now() + 5_000; !lineOf() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(lineOf(), 'the log line carries the same id');
    });

    it('a fresh id per request: the same refusal twice answers two ids', async () => {
      const [a, b] = await Promise.all([pay({ amount: '10.5' }), pay({ amount: '10.5' })]);
      assert.notEqual(json(a!).id, json(b!).id);
    });

    it('400 under an Idempotency-Key: the stored error carries its id, and a replay answers the same body', async () => {
      // Not a timestamp: 13 digits are Luhn-valid one time in ten, and the key is refused as a card number.
      const headers = { 'idempotency-key': `error-body-${randomBytes(8).toString('base64url')}` };
      const first = await pay({ amount: '10.5', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD }, headers);
      const id = assertErrorBody(first.body, first.statusCode, 400, '100.550.303');
      const replay = await pay({ amount: '10.5', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD }, headers);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(json(replay).id, id);
    });

    it('401, no Authorization header', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/payments/${'a'.repeat(32)}?entityId=${merchant.entityId}` });
      assertErrorBody(response.body, response.statusCode, 401, '800.900.300');
    });

    it('403, an access token nobody issued', async () => {
      const response = await t.app.inject({ method: 'GET', url: `/v1/payments/${'a'.repeat(32)}?entityId=${merchant.entityId}`, headers: bearer('T'.repeat(43) + '=') });
      assert.equal(response.statusCode, 403, response.body);
      assertErrorBody(response.body, response.statusCode, 403, json(response).result.code);
      assert.match(json(response).result.code, /^800\.900\.30[01]$/);
    });

    it('404, no such endpoint', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: bearer(merchant.accessToken) });
      assertErrorBody(response.body, response.statusCode, 404, '200.300.404');
    });

    it('404, no such payment: the id is the request\'s, never the id asked for', async () => {
      const asked = 'b'.repeat(32);
      const response = await t.app.inject({ method: 'GET', url: `/v1/payments/${asked}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      const id = assertErrorBody(response.body, response.statusCode, 404, '700.400.580');
      assert.notEqual(id, asked);
    });

    it('405, a path that exists under another method', async () => {
      const response = await t.app.inject({ method: 'PUT', url: '/v1/resultcodes', headers: bearer(merchant.accessToken) });
      assertErrorBody(response.body, response.statusCode, 405, '200.300.403');
    });

    it('413, a body over the limit', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, pad: 'x'.repeat(4096) }) });
      assertErrorBody(response.body, response.statusCode, 413, '200.100.103');
    });

    it('415, a JSON body', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/v1/probe', headers: { ...bearer(merchant.accessToken), 'content-type': 'application/json' }, payload: '{"entityId":"x"}' });
      assertErrorBody(response.body, response.statusCode, 415, '200.100.101');
    });

    it('a success keeps its own id and no error id is added', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/v1/resultcodes' });
      assert.equal(response.statusCode, 200);
      assert.equal(json(response).id, undefined);
      assert.match(json(response).timestamp, ENVELOPE_TIMESTAMP);
    });
  });
}

describe('429, throttled', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open(), { env: { THROTTLE_MAX_REQUESTS: '1', THROTTLE_WINDOW_MS: '600000' } });
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  it('the second request in the window answers 429 800.120.100 with the Error body shape', async () => {
    const merchant = await t.createMerchant();
    const get = () => t.app.inject({ method: 'GET', url: `/v1/payments/${'a'.repeat(32)}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
    await get();
    const throttled = await get();
    assertErrorBody(throttled.body, throttled.statusCode, 429, '800.120.100');
  });
});

describe('transport errors answered on the raw socket', () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await startTestApp(await testDatabases()[0]!.open());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await t.close();
    await t.storage.close();
  });

  it('400, a request Node\'s parser refuses: id, and the bare id as ndc (no entity is known)', async () => {
    const answer = await rawRequest(port, 'GET /v1/\0payments HTTP/1.1\r\nHost: x\r\n\r\n', 20_000);
    const id = assertErrorBody(answer.body, answer.status ?? 0, 400, '200.100.103');
    assert.equal(JSON.parse(answer.body).ndc, id);
  });

  it('431, headers over the limit', async () => {
    const answer = await rawRequest(port, `GET /v1/resultcodes?pad=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 20_000);
    assertErrorBody(answer.body, answer.status ?? 0, 431, '200.100.103');
  });
});
