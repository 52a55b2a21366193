import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openDirectAdmin } from '../../src/cli/direct-admin.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, SAMPLE_CARD } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/** One test per decision of docs/compatibility.md, beyond what the replay of the captures shows. */

const SEPA = {
  paymentBrand: 'DIRECTDEBIT_SEPA',
  'bankAccount.iban': 'DE23100000001234567890',
  'bankAccount.bic': 'MARKDEF1100',
  'bankAccount.holder': 'Jane Jones',
  'bankAccount.country': 'DE',
};

const errorNames = (body: Record<string, any>) => (body.result.parameterErrors ?? []).map((error: { name: string }) => error.name);

for (const database of testDatabases()) {
  describe(`decisions for existing OPPWA clients (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    withAppAndMerchant(database.open, {}, (app, created) => {
      t = app;
      merchant = created;
    });

    const reference = (id: string, fields: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: `/v1/payments/${id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, ...fields }) });
    const setUnknownParameters = (entityId: string, mode: string) =>
      t.app.inject({ method: 'PUT', url: `/admin/entities/${entityId}/unknown-parameters`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ mode }) });

    it('challenge-window-size: 01 to 05 accepted, 06 refused naming it', async () => {
      const accepted = await cardPayment(t, merchant, 'DB', '92.00', { 'threeDSecure.challengeWindowSize': '05' });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const refused = json(await cardPayment(t, merchant, 'DB', '92.00', { 'threeDSecure.challengeWindowSize': '06' }));
      assert.equal(refused.result.code, '200.300.404');
      assert.deepEqual(errorNames(refused), ['threeDSecure.challengeWindowSize']);
    });

    it('reference-without-currency: a capture and a refund take the parent\'s currency; the amount stays required', async () => {
      const parent = json(await postPayment(t, merchant, { amount: '92.00', currency: 'GBP', paymentType: 'PA', ...SAMPLE_CARD }));
      const capture = await reference(parent.id, { paymentType: 'CP', amount: '50.00' });
      assert.equal(capture.statusCode, 200, capture.body);
      assert.equal(json(capture).currency, 'GBP');
      const refund = await reference(json(capture).id, { paymentType: 'RF', amount: '5.00' });
      assert.equal(refund.statusCode, 200, refund.body);
      assert.equal(json(refund).currency, 'GBP');
      assert.equal(json(await reference(parent.id, { paymentType: 'CP', amount: '1.00', currency: 'EUR' })).result.code, '700.100.500');
      const noAmount = json(await reference(parent.id, { paymentType: 'CP' }));
      assert.equal(noAmount.result.code, '100.550.300');
      assert.deepEqual(errorNames(noAmount), ['amount']);
    });

    it('amount-one-decimal: 10.5 is refused naming amount', async () => {
      const body = json(await cardPayment(t, merchant, 'DB', '10.5'));
      assert.equal(body.result.code, '100.550.303');
      assert.deepEqual(errorNames(body), ['amount']);
    });

    it('create-registration-1: 1 is refused naming createRegistration; true stores the card', async () => {
      const refused = json(await cardPayment(t, merchant, 'DB', '10.00', { createRegistration: '1' }));
      assert.equal(refused.result.code, '200.300.404');
      assert.deepEqual(errorNames(refused), ['createRegistration']);
      const stored = json(await cardPayment(t, merchant, 'DB', '10.00', { createRegistration: 'true' }));
      assert.match(stored.registrationId, /^[a-zA-Z0-9]{32}$/);
    });

    it('descriptor-on-registration: accepted', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/registrations',
        headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: merchant.entityId, ...SAMPLE_CARD, descriptor: 'Test PA' }),
      });
      assert.equal(response.statusCode, 200, response.body);
    });

    it('sepa-without-mandate: accepted; half a mandate is still refused', async () => {
      const accepted = await postPayment(t, merchant, { amount: '12.12', currency: 'EUR', paymentType: 'DB', ...SEPA });
      assert.equal(accepted.statusCode, 200, accepted.body);
      const half = json(await postPayment(t, merchant, { amount: '12.12', currency: 'EUR', paymentType: 'DB', ...SEPA, 'bankAccount.mandate.id': 'MANDATE-ONE' }));
      assert.equal(half.result.code, '100.500.302');
      assert.deepEqual(errorNames(half), ['bankAccount.mandate.dateOfSignature']);
    });

    it('recurring-type: INITIAL accepted, other values refused naming it', async () => {
      assert.equal((await cardPayment(t, merchant, 'DB', '10.00', { recurringType: 'INITIAL' })).statusCode, 200);
      const refused = json(await cardPayment(t, merchant, 'DB', '10.00', { recurringType: 'SOMETIMES' }));
      assert.deepEqual([refused.result.code, errorNames(refused)], ['200.300.404', ['recurringType']]);
    });

    it('unknown-parameters: refused naming it by default; ignored and listed under the entity\'s "ignore" setting', async () => {
      const entity = await t.createMerchant('Lenient shop');
      const refused = json(await cardPayment(t, entity, 'DB', '10.00', { 'foo.bar': 'secret-ish value' }));
      assert.deepEqual([refused.result.code, errorNames(refused)], ['200.300.404', ['foo.bar']]);

      const set = await setUnknownParameters(entity.entityId, 'ignore');
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(json(set).unknownParameters, 'ignore');
      const accepted = await cardPayment(t, entity, 'DB', '10.00', { 'foo.bar': 'secret-ish value', zeta: '1' });
      assert.equal(accepted.statusCode, 200, accepted.body);
      assert.deepEqual(json(accepted).ignoredParameters, ['foo.bar', 'zeta']);
      assert.ok(!accepted.body.includes('secret-ish value'), 'no ignored value is echoed');
      const parent = json(accepted).id as string;

      // A parameter of another endpoint, or a name holding a card number, is refused whatever the setting.
      const cardOnCapture = json(await t.app.inject({
        method: 'POST',
        url: `/v1/payments/${parent}`,
        headers: { ...bearer(entity.accessToken), ...FORM_HEADERS },
        payload: form({ entityId: entity.entityId, paymentType: 'CP', amount: '1.00', 'card.number': '4200000000000000' }),
      }));
      assert.equal(cardOnCapture.result.code, '200.100.404');
      const panName = await cardPayment(t, entity, 'DB', '10.00', { 'x4200000000000000': '1' });
      assert.equal(panName.statusCode, 400);
      assert.ok(!panName.body.includes('4200000000000000'));

      // The other entity keeps the default.
      assert.equal(json(await cardPayment(t, merchant, 'DB', '10.00', { 'foo.bar': '1' })).result.code, '200.300.404');
      assert.equal((await setUnknownParameters(entity.entityId, 'reject')).statusCode, 200);
      assert.equal(json(await cardPayment(t, entity, 'DB', '10.00', { 'foo.bar': '1' })).result.code, '200.300.404');
    });

    it('unknown-parameters: the admin API refuses a bad mode and an unknown entity', async () => {
      const badMode = json(await setUnknownParameters(merchant.entityId, 'maybe'));
      assert.deepEqual([badMode.result.code, errorNames(badMode)], ['200.300.404', ['mode']]);
      const missing = await setUnknownParameters('0'.repeat(32), 'ignore');
      assert.equal(missing.statusCode, 404);
      const unauthorised = await t.app.inject({ method: 'PUT', url: `/admin/entities/${merchant.entityId}/unknown-parameters`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ mode: 'ignore' }) });
      assert.ok(unauthorised.statusCode === 401 || unauthorised.statusCode === 403, unauthorised.body);
    });

    it('response fields: a decline carries paymentType and paymentBrand; buildNumber is constant', async () => {
      const decline = await postPayment(t, merchant, { amount: '5.05', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, paymentBrand: '' });
      const body = json(decline);
      assert.match(body.result.code, /^800\./);
      assert.deepEqual([body.paymentType, body.paymentBrand, body.card.last4Digits], ['DB', 'VISA', '0000']);
      const other = json(await cardPayment(t, merchant, 'PA', '10.00'));
      assert.equal(other.buildNumber, body.buildNumber);
    });
  });
}

describe('unknown-parameters: the command line\'s direct port (the database itself)', () => {
  it('sets and reads back the setting; refuses a bad mode', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'unknown-parameters-'));
    const port = await openDirectAdmin(loadConfig({ DATA_DIR: dataDir }));
    try {
      const { entityId } = await port.createEntity({ name: 'Shop' });
      assert.deepEqual(await port.setUnknownParameters(entityId, 'ignore'), { entityId, unknownParameters: 'ignore' });
      await assert.rejects(port.setUnknownParameters(entityId, 'sometimes'), /invalid or missing parameter/);
      await assert.rejects(port.setUnknownParameters('f'.repeat(32), 'ignore'));
    } finally {
      await port.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('legacy-auth: the command line\'s direct port (the database itself)', () => {
  it('switches the entity\'s legacy fields off and on; an unknown entity is refused', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'legacy-auth-'));
    const port = await openDirectAdmin(loadConfig({ DATA_DIR: dataDir }));
    try {
      const { entityId } = await port.createEntity({ name: 'Shop' });
      assert.deepEqual(await port.setLegacyAuth(entityId, false), { entityId, legacyAuth: false });
      const listed = (await port.listEntities()) as unknown as Array<{ entityId: string; legacyAuth: boolean }>;
      assert.equal(listed.find((entity) => entity.entityId === entityId)?.legacyAuth, false);
      assert.deepEqual(await port.setLegacyAuth(entityId, true), { entityId, legacyAuth: true });
      await assert.rejects(port.setLegacyAuth('f'.repeat(32), false), /200\.300\.406|no entity/);
    } finally {
      await port.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
