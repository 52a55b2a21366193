import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { accessTokenOf, legacyCredentialOf } from '../../src/domain/access-token-form.js';
import { hashAccessToken, randomIds } from '../../src/domain/ids.js';
import { insertAccessToken } from '../../src/storage/repositories/access-tokens.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment } from '../support/payments.js';
import { postRegistration, REGISTRATION_CARD } from '../support/registrations.js';
import { bearer, form, FORM_HEADERS, json, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

type Fields = Record<string, string | string[]>;

/** One endpoint behind entity authentication; prepare makes what the call needs (a payment to capture, a registration to delete). */
interface Endpoint {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  prepare(): Promise<string>;
  readonly fields: Fields;
}

/** How a request authenticates: a Bearer header, fields, or both. */
interface Credentials {
  readonly headers: Record<string, string>;
  readonly fields: Fields;
}

const DOCUMENTATION_SAMPLE = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg=';

for (const database of testDatabases()) {
  describe(`legacy authentication fields on ${database.name}`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let other: CreatedEntity;
    let switchedOff: CreatedEntity;
    let paymentId: string;
    let registrationId: string;

    const idOf = (response: LightMyRequestResponse): string => {
      assert.ok(response.statusCode < 300, response.body);
      return json(response).id as string;
    };
    const credential = (entity: CreatedEntity) => legacyCredentialOf(entity.accessToken)!;
    const legacy = (userId: string, password: string, entityId?: string): Fields => ({
      'authentication.userId': userId,
      'authentication.password': password,
      ...(entityId ? { 'authentication.entityId': entityId } : {}),
    });

    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant('Shop');
      other = await t.createMerchant('Other shop');
      switchedOff = await t.createMerchant('Bearer only');
      const off = await t.app.inject({
        method: 'POST',
        url: `/admin/entities/${switchedOff.entityId}/legacy-auth`,
        headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS },
        payload: form({ enabled: 'false' }),
      });
      assert.equal(off.statusCode, 200, off.body);
      paymentId = idOf(await cardPayment(t, merchant, 'DB', '10.00', { merchantTransactionId: 'legacy-order' }));
      registrationId = idOf(await postRegistration(t, merchant));
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    const endpoints: Endpoint[] = [
      { name: 'POST /v1/payments', method: 'POST', prepare: async () => '/v1/payments', fields: { amount: '10.00', currency: 'EUR', paymentType: 'PA', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' } },
      { name: 'POST /v1/payments/{id}', method: 'POST', prepare: async () => `/v1/payments/${idOf(await cardPayment(t, merchant, 'PA', '10.00'))}`, fields: { paymentType: 'CP', amount: '10.00', currency: 'EUR' } },
      { name: 'GET /v1/payments/{id}', method: 'GET', prepare: async () => `/v1/payments/${paymentId}`, fields: {} },
      { name: 'POST /v1/registrations', method: 'POST', prepare: async () => '/v1/registrations', fields: { ...REGISTRATION_CARD } },
      { name: 'GET /v1/registrations/{id}', method: 'GET', prepare: async () => `/v1/registrations/${registrationId}`, fields: {} },
      { name: 'DELETE /v1/registrations/{id}', method: 'DELETE', prepare: async () => `/v1/registrations/${idOf(await postRegistration(t, merchant))}`, fields: {} },
      { name: 'POST /v1/registrations/{id}/payments', method: 'POST', prepare: async () => `/v1/registrations/${registrationId}/payments`, fields: { amount: '12.00', currency: 'EUR', paymentType: 'DB' } },
      { name: 'GET /v1/query', method: 'GET', prepare: async () => '/v1/query', fields: { merchantTransactionId: 'legacy-order' } },
      { name: 'GET /v1/query/{id}', method: 'GET', prepare: async () => `/v1/query/${paymentId}`, fields: {} },
    ];

    async function send(endpoint: Endpoint, credentials: Credentials, entityFields: Fields): Promise<LightMyRequestResponse> {
      const path = await endpoint.prepare();
      const fields = { ...entityFields, ...credentials.fields, ...endpoint.fields };
      if (endpoint.method === 'POST') {
        return t.app.inject({ method: 'POST', url: path, headers: { ...credentials.headers, ...FORM_HEADERS }, payload: form(fields) });
      }
      const query = form(fields);
      return t.app.inject({ method: endpoint.method, url: query ? `${path}?${query}` : path, headers: credentials.headers });
    }

    // Each case as a Bearer client and as a legacy client sends it; both must get the same answer.
    const cases: { name: string; bearer: () => [Credentials, Fields]; legacy: () => [Credentials, Fields]; code?: string; status?: number }[] = [
      {
        name: 'own entity',
        bearer: () => [{ headers: bearer(merchant.accessToken), fields: {} }, { entityId: merchant.entityId }],
        legacy: () => [{ headers: {}, fields: legacy(credential(merchant).userId, credential(merchant).password, merchant.entityId) }, {}],
      },
      {
        name: 'wrong password',
        bearer: () => [{ headers: bearer(accessTokenOf(credential(merchant).userId, 'wrong-password')), fields: {} }, { entityId: merchant.entityId }],
        legacy: () => [{ headers: {}, fields: legacy(credential(merchant).userId, 'wrong-password', merchant.entityId) }, {}],
        status: 403,
        code: '800.900.300',
      },
      {
        name: 'unknown user',
        bearer: () => [{ headers: bearer(accessTokenOf(randomIds.id(), credential(merchant).password)), fields: {} }, { entityId: merchant.entityId }],
        legacy: () => [{ headers: {}, fields: legacy(randomIds.id(), credential(merchant).password, merchant.entityId) }, {}],
        status: 403,
        code: '800.900.300',
      },
      {
        name: "another entity's id",
        bearer: () => [{ headers: bearer(merchant.accessToken), fields: {} }, { entityId: other.entityId }],
        legacy: () => [{ headers: {}, fields: legacy(credential(merchant).userId, credential(merchant).password, other.entityId) }, {}],
        status: 403,
        code: '800.900.301',
      },
      {
        name: 'missing entityId',
        bearer: () => [{ headers: bearer(merchant.accessToken), fields: {} }, {}],
        legacy: () => [{ headers: {}, fields: legacy(credential(merchant).userId, credential(merchant).password) }, {}],
        status: 400,
        code: '200.300.404',
      },
      {
        name: 'no credentials',
        bearer: () => [{ headers: {}, fields: {} }, { entityId: merchant.entityId }],
        legacy: () => [{ headers: {}, fields: { 'authentication.entityId': merchant.entityId } }, {}],
        status: 401,
        code: '800.900.300',
      },
      {
        name: 'partial credentials (userId without password)',
        bearer: () => [{ headers: { authorization: 'Bearer' }, fields: {} }, { entityId: merchant.entityId }],
        legacy: () => [{ headers: {}, fields: { 'authentication.userId': credential(merchant).userId, 'authentication.entityId': merchant.entityId } }, {}],
        status: 401,
        code: '800.900.300',
      },
    ];

    for (const endpoint of endpoints) {
      describe(endpoint.name, () => {
        for (const row of cases) {
          it(`${row.name}: the same answer with a Bearer header and with the fields`, async () => {
            const [bearerCredentials, bearerEntity] = row.bearer();
            const [legacyCredentials, legacyEntity] = row.legacy();
            const byBearer = await send(endpoint, bearerCredentials, bearerEntity);
            const byFields = await send(endpoint, legacyCredentials, legacyEntity);
            assert.equal(byFields.statusCode, byBearer.statusCode, `${byBearer.body}\n${byFields.body}`);
            assert.equal(json(byFields).result.code, json(byBearer).result.code);
            if (row.status) assert.equal(byBearer.statusCode, row.status, byBearer.body);
            if (row.code) assert.equal(json(byBearer).result.code, row.code);
            else assert.ok(byBearer.statusCode < 300, byBearer.body);
          });
        }

        it('a header and fields naming different credentials → 403 800.900.300', async () => {
          const { userId, password } = credential(other);
          const response = await send(endpoint, { headers: bearer(merchant.accessToken), fields: legacy(userId, password) }, { entityId: merchant.entityId });
          assert.equal(response.statusCode, 403, response.body);
          assert.equal(json(response).result.code, '800.900.300');
        });

        it('a header and fields naming the same credential are accepted', async () => {
          const { userId, password } = credential(merchant);
          const response = await send(endpoint, { headers: bearer(merchant.accessToken), fields: legacy(userId, password, merchant.entityId) }, {});
          assert.ok(response.statusCode < 300, response.body);
        });

        it('an entity with legacy authentication switched off refuses the fields, not the Bearer header', async () => {
          const { userId, password } = credential(switchedOff);
          // The entity has no payments or registrations: the Bearer answer is whatever it is, only never an authentication refusal.
          const byBearer = await send(endpoint, { headers: bearer(switchedOff.accessToken), fields: {} }, { entityId: switchedOff.entityId });
          assert.ok(![401, 403].includes(byBearer.statusCode), byBearer.body);
          const byFields = await send(endpoint, { headers: {}, fields: legacy(userId, password, switchedOff.entityId) }, {});
          assert.equal(byFields.statusCode, 403, byFields.body);
          assert.equal(json(byFields).result.code, '800.900.300');
        });
      });
    }

    it('entityId and authentication.entityId that disagree → 400 200.300.404 naming authentication.entityId', async () => {
      const { userId, password } = credential(merchant);
      const response = await send(endpoints[2]!, { headers: {}, fields: legacy(userId, password, other.entityId) }, { entityId: merchant.entityId });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(json(response).result.code, '200.300.404');
      assert.deepEqual(json(response).result.parameterErrors.map((e: { name: string }) => e.name), ['authentication.entityId']);
    });

    it("tokens issued before (random base64url) keep working as Bearer and cannot be sent as fields", async () => {
      // The documentation's sample token is one of the new form; an old token is 43 base64url characters.
      assert.deepEqual(legacyCredentialOf(DOCUMENTATION_SAMPLE), { userId: '8a8294174b7ecb28014b9699220015cc', password: 'sy6KJsT8' });
      const old = 'Q'.repeat(20) + '-_' + 'q'.repeat(21);
      await insertAccessToken(t.storage, { id: randomIds.id(), entityId: merchant.entityId, hash: hashAccessToken(old), createdAt: t.clock.now(), revokedAt: null });
      const response = await send(endpoints[2]!, { headers: bearer(old), fields: {} }, { entityId: merchant.entityId });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(legacyCredentialOf(old), undefined, 'no userId and password to send as fields');
    });

    it('the password appears in no response, log line or stored row', async () => {
      const { userId, password } = credential(merchant);
      const responses: string[] = [];
      for (const endpoint of endpoints) {
        responses.push((await send(endpoint, { headers: {}, fields: legacy(userId, password, merchant.entityId) }, {})).body);
        responses.push((await send(endpoint, { headers: {}, fields: legacy(userId, password, merchant.entityId) }, { entityId: other.entityId })).body);
        responses.push((await send(endpoint, { headers: {}, fields: { 'authentication.password': password, 'authentication.entityId': merchant.entityId } }, {})).body);
      }
      // An idempotent request stores its answer: the password must not reach it or its fingerprint.
      responses.push((await t.app.inject({
        method: 'POST', url: '/v1/payments', headers: { ...FORM_HEADERS, 'idempotency-key': 'legacy-1' },
        payload: form({ ...legacy(userId, password, merchant.entityId), ...endpoints[0]!.fields }),
      })).body);
      for (const body of responses) assert.ok(!body.includes(password), body);
      assert.ok(!t.logs.text.includes(password), 'no log line carries the password');
      const { rows: tables } = await t.storage.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      );
      for (const { table_name: table } of tables) {
        const { rows } = await t.storage.query(`SELECT * FROM "${table}"`);
        assert.ok(!JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes(password), `table ${table}`);
      }
    });

    it("the operator's switch answers 404 for an unknown entity and 400 for a value other than true or false", async () => {
      const call = (entityId: string, enabled: string) =>
        t.app.inject({ method: 'POST', url: `/admin/entities/${entityId}/legacy-auth`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ enabled }) });
      assert.equal((await call('f'.repeat(32), 'true')).statusCode, 404);
      assert.equal((await call(merchant.entityId, 'off')).statusCode, 400);
      const list = await t.app.inject({ method: 'GET', url: '/admin/entities', headers: bearer(TEST_ADMIN_TOKEN) });
      const flags = Object.fromEntries(json(list).entities.map((e: { entityId: string; legacyAuth: boolean }) => [e.entityId, e.legacyAuth]));
      assert.equal(flags[merchant.entityId], true, 'on by default');
      assert.equal(flags[switchedOff.entityId], false);
    });
  });
}
