import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encryptWalletTokenForTests } from '../../src/connectors/simulator/index.js';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import { lookUpRegistration } from '../../src/storage/repositories/registrations.js';
import { activatePendingWebhooks } from '../../src/storage/repositories/webhooks.js';
import { countingStorage } from '../support/counting-storage.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import {
  deleteRegistration,
  getRegistration,
  payWithRegistration,
  postRegistration,
  REGISTRATION_CARD,
  SEPA_ACCOUNT,
} from '../support/registrations.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

const codeOf = (r: { json(): any }) => r.json().result.code as string;

for (const database of testDatabases()) {
  describe(`registrations on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    it('register → pay → pay again with a CVV → deregister → paying again is refused', async () => {
      const registered = await postRegistration(t, merchant, { ...REGISTRATION_CARD, 'card.cvv': '123' });
      assert.equal(registered.statusCode, 200, registered.body);
      assert.equal(codeOf(registered), '000.100.110');
      const id = registered.json().id as string;
      assert.match(id, /^[0-9a-f]{32}$/);
      assert.equal(registered.json().paymentBrand, 'VISA');
      assert.deepEqual(registered.json().card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
      assert.ok(!registered.body.includes('4200000000000000') && !registered.body.includes('"cvv"'));

      const fetched = await getRegistration(t, merchant, id);
      assert.equal(fetched.statusCode, 200);
      assert.deepEqual(fetched.json().card, registered.json().card);
      assert.equal(fetched.json().id, id);

      const first = await payWithRegistration(t, merchant, id);
      assert.equal(first.statusCode, 200, first.body);
      assert.match(codeOf(first), SUCCESS_PATTERN);
      assert.equal(first.json().registrationId, id);
      assert.deepEqual([first.json().card.bin, first.json().card.last4Digits, first.json().card.holder], ['420000', '0000', 'Jane Jones']);
      assert.equal(first.json().result.cvvResponse, undefined, 'no CVV was stored, none was sent');

      const withCvv = await payWithRegistration(t, merchant, id, { 'card.cvv': '123' }, 'PA', '30.00');
      assert.match(codeOf(withCvv), SUCCESS_PATTERN, withCvv.body);
      assert.equal(withCvv.json().result.cvvResponse, 'M', 'the CVV reached the connector for this payment');
      assert.equal(withCvv.json().paymentType, 'PA');

      const deleted = await deleteRegistration(t, merchant, id);
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(codeOf(deleted), '000.100.110');
      assert.equal(deleted.json().referencedId, id);
      assert.match(deleted.json().id, /^[0-9a-f]{32}$/);
      assert.notEqual(deleted.json().id, id);

      for (const response of [await payWithRegistration(t, merchant, id), await getRegistration(t, merchant, id), await deleteRegistration(t, merchant, id)]) {
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(codeOf(response), '100.150.202');
        assert.equal(response.json().result.description, 'registration is already deregistered');
      }
      const { rows } = await t.storage.query<{ sealed_account: unknown; fingerprint: unknown; account: Record<string, string> }>(
        'SELECT sealed_account, fingerprint, account FROM registrations WHERE id = $1', [id]);
      assert.deepEqual([rows[0]?.sealed_account, rows[0]?.fingerprint, rows[0]?.account['holder']], [null, null, undefined], 'deregistration erased the card');
    });

    it('a payment with createRegistration=true answers registrationId, and paying with it works', async () => {
      const payment = await cardPayment(t, merchant, 'DB', '25.00', { createRegistration: 'true' });
      assert.equal(payment.statusCode, 200, payment.body);
      const registrationId = payment.json().registrationId as string;
      assert.match(registrationId, /^[0-9a-f]{32}$/);
      assert.notEqual(registrationId, payment.json().id);
      const registration = await getRegistration(t, merchant, registrationId);
      assert.equal(registration.statusCode, 200, registration.body);
      assert.deepEqual(registration.json().card, { bin: '420000', last4Digits: '0000', holder: 'Jane Jones', expiryMonth: '05', expiryYear: '2034' });
      const paid = await payWithRegistration(t, merchant, registrationId);
      assert.match(codeOf(paid), SUCCESS_PATTERN, paid.body);
      assert.equal(paid.json().registrationId, registrationId);
      const stored = await t.app.inject({ method: 'GET', url: `/v1/payments/${payment.json().id}?entityId=${merchant.entityId}`, headers: { authorization: `Bearer ${merchant.accessToken}` } });
      assert.equal(stored.json().registrationId, registrationId, 'GET of the payment shows it too');
    });

    it('a declined payment registers nothing; one whose outcome is unknown leaves a registration payments refuse', async () => {
      const declined = await cardPayment(t, merchant, 'DB', '10.00', { createRegistration: 'true', 'card.number': '4000000000000002' });
      assert.equal(declined.statusCode, 400);
      assert.equal(declined.json().registrationId, undefined);
      const unknown = await cardPayment(t, merchant, 'DB', '9.99', { createRegistration: 'true' });
      assert.equal(codeOf(unknown), '000.200.000', unknown.body);
      const pendingId = unknown.json().registrationId as string;
      assert.ok(pendingId);
      assert.equal(codeOf(await getRegistration(t, merchant, pendingId)), '000.200.000');
      const refused = await payWithRegistration(t, merchant, pendingId);
      assert.equal(codeOf(refused), '100.150.201', refused.body);
    });

    it('answers unknown and foreign registrations alike (404 100.150.200), malformed ids with 100.150.101', async () => {
      const other = await t.createMerchant('Other');
      const foreign = (await postRegistration(t, other)).json().id as string;
      for (const id of [foreign, 'b'.repeat(32)]) {
        for (const response of [await getRegistration(t, merchant, id), await payWithRegistration(t, merchant, id), await deleteRegistration(t, merchant, id)]) {
          assert.equal(response.statusCode, 404, response.body);
          assert.equal(codeOf(response), '100.150.200');
        }
      }
      const malformed = await payWithRegistration(t, merchant, 'not-a-registration-id');
      assert.equal(malformed.statusCode, 400);
      assert.equal(codeOf(malformed), '100.150.101');
      assert.equal(codeOf(await getRegistration(t, other, foreign)), '000.100.110', 'its owner still sees it');
    });

    it('a merchant uses the registrations of its channels', async () => {
      const channel = await t.createChannel(merchant.entityId);
      const registered = await postRegistration(t, { entityId: channel.entityId, accessToken: merchant.accessToken });
      assert.equal(registered.statusCode, 200, registered.body);
      assert.match(codeOf(await payWithRegistration(t, merchant, registered.json().id)), SUCCESS_PATTERN);
    });

    it('concurrent look-ups of registrations share statements and still find only what the entity may see', async () => {
      const channel = await t.createChannel(merchant.entityId);
      const other = await t.createMerchant('Other');
      const own = (await postRegistration(t, merchant)).json().id as string;
      const channels = (await postRegistration(t, { entityId: channel.entityId, accessToken: merchant.accessToken })).json().id as string;
      const foreign = (await postRegistration(t, other)).json().id as string;
      // A storage of its own: the batched look-up keeps its batches per storage object.
      const { storage: counting, statements } = countingStorage(t.storage);
      const asked: Array<[string, string]> = [
        [merchant.entityId, own], [merchant.entityId, channels], [channel.entityId, channels], [channel.entityId, own],
        [merchant.entityId, foreign], [other.entityId, foreign], [merchant.entityId, 'b'.repeat(32)], [merchant.entityId, own],
      ];
      const found = await Promise.all(asked.map(([entityId, id]) => lookUpRegistration(counting, entityId, id)));
      assert.deepEqual(found.map((r) => r?.id ?? null), [own, channels, channels, null, null, foreign, null, own], 'a channel sees only its own; a merchant its own and its channels\'');
      assert.ok(statements() < asked.length, `${statements()} statements for ${asked.length} look-ups`);
    });

    it('refuses a registration without account data (100.150.100) and wallet tokens (600.200.200)', async () => {
      const empty = await postRegistration(t, merchant, { paymentBrand: 'VISA' });
      assert.equal(codeOf(empty), '100.150.100', empty.body);
      const token = encryptWalletTokenForTests('walletA', { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' });
      assert.equal(codeOf(await postRegistration(t, merchant, { paymentBrand: 'VISA', 'walletA.paymentToken': token })), '600.200.200');
      assert.equal(codeOf(await cardPayment(t, merchant, 'DB', '1.00', { 'card.number': '', createRegistration: 'true' })), '100.100.100');
    });

    it('stores SEPA accounts, token accounts and virtual accounts, and pays with each', async () => {
      const accounts: Record<string, string>[] = [
        SEPA_ACCOUNT,
        { paymentBrand: 'VISA', 'tokenAccount.number': '4895370012345678', 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryMonth': '05', 'tokenAccount.expiryYear': '2034' },
        { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' },
      ];
      for (const fields of accounts) {
        const registered = await postRegistration(t, merchant, fields);
        assert.equal(registered.statusCode, 200, registered.body);
        const paid = await payWithRegistration(t, merchant, registered.json().id);
        assert.match(codeOf(paid), SUCCESS_PATTERN, paid.body);
      }
      const sepa = await postRegistration(t, merchant, SEPA_ACCOUNT);
      assert.deepEqual(sepa.json().bankAccount, { holder: 'Jane Jones', bic: 'MARKDEF1100', country: 'DE', last4Digits: '7890', mandate: { id: 'MANDATE-JANE', dateOfSignature: '2026-11-01' } });
      const paid = await payWithRegistration(t, merchant, sepa.json().id);
      assert.equal(paid.json().bankAccount.last4Digits, '7890');
      assert.ok(!paid.body.includes('DE23100000001234567890') && !sepa.body.includes('DE23100000001234567890'));
    });

    it('overrideHolder fills an empty stored holder for that payment only; a stored holder wins', async () => {
      const { 'card.holder': _holder, ...withoutHolder } = REGISTRATION_CARD;
      const id = (await postRegistration(t, merchant, withoutHolder)).json().id as string;
      const overridden = await payWithRegistration(t, merchant, id, { 'card.holder': 'Joe Bloggs', overrideHolder: 'true' });
      assert.equal(overridden.json().card.holder, 'Joe Bloggs', overridden.body);
      const notAsked = await payWithRegistration(t, merchant, id, { 'card.holder': 'Joe Bloggs' });
      assert.equal(notAsked.json().card.holder, undefined, 'without overrideHolder the request holder is not used');
      assert.equal((await getRegistration(t, merchant, id)).json().card.holder, undefined, 'nothing was written back');
      const withHolder = (await postRegistration(t, merchant)).json().id as string;
      const kept = await payWithRegistration(t, merchant, withHolder, { 'card.holder': 'Joe Bloggs', overrideHolder: 'true' });
      assert.equal(kept.json().card.holder, 'Jane Jones');
    });

    it('answers 000.100.112 with testMode EXTERNAL, and replays with an Idempotency-Key', async () => {
      assert.equal(codeOf(await postRegistration(t, merchant, { ...REGISTRATION_CARD, testMode: 'EXTERNAL' })), '000.100.112');
      const first = await postRegistration(t, merchant, REGISTRATION_CARD, { 'idempotency-key': 'register-once' });
      const again = await postRegistration(t, merchant, REGISTRATION_CARD, { 'idempotency-key': 'register-once' });
      assert.equal(again.json().id, first.json().id);
      assert.equal(again.headers['idempotent-replayed'], 'true');
    });

    it('validates registration payments with the catalogue (bankAccount.holder is not accepted there)', async () => {
      const id = (await postRegistration(t, merchant)).json().id as string;
      const response = await payWithRegistration(t, merchant, id, { 'bankAccount.holder': 'Jane Jones' });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().result.parameterErrors[0].name, 'bankAccount.holder');
      assert.equal(codeOf(await payWithRegistration(t, merchant, id, {}, 'RF')), '100.500.201');
      assert.match(codeOf(await postPayment(t, merchant, { amount: '1.00', currency: 'EUR', paymentType: 'DB', ...REGISTRATION_CARD, 'card.cvv': '123', createRegistration: 'true' })), SUCCESS_PATTERN);
    });

    it('queues REGISTRATION notifications: CREATED (also for createRegistration=true) and DELETED, never with the card number', async () => {
      const listener = await t.createMerchant('Listener');
      const webhook = await createWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, webhookTargets: t.config.workers.webhookTargets }, { entityId: listener.entityId, url: 'https://merchant.example/hooks' });
      await t.storage.transaction((tx) => activatePendingWebhooks(tx, [webhook.webhookId], t.clock.now()));
      const id = (await postRegistration(t, listener)).json().id as string;
      const fromPayment = (await cardPayment(t, listener, 'DB', '3.00', { createRegistration: 'true' })).json().registrationId as string;
      await deleteRegistration(t, listener, id);
      const { rows } = await t.storage.query<{ action: string; body: string }>(
        `SELECT action, body FROM notifications WHERE entity_id = $1 AND type = 'REGISTRATION' ORDER BY created_at, action`, [listener.entityId]);
      const seen = rows.map((row) => [row.action, (JSON.parse(row.body) as { payload: { id: string } }).payload.id]);
      assert.deepEqual(seen.sort(), [['CREATED', fromPayment], ['CREATED', id], ['DELETED', id]].sort());
      assert.ok(rows.every((row) => !row.body.includes('4200000000000000')));
      const deleted = JSON.parse(rows.find((row) => row.action === 'DELETED')!.body) as { payload: { card: Record<string, string> } };
      assert.equal(deleted.payload.card.holder, undefined, 'the holder is erased with the registration');
    });
  });
}
