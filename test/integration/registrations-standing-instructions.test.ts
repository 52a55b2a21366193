import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { echoRequest } from '../../src/catalogue/index.js';
import { payWithRegistration as payWithRegistrationOperation } from '../../src/operations/registrations/pay-with-registration.js';
import { runPaymentRequest } from '../../src/operations/schedules/run-request.js';
import type { Storage } from '../../src/storage/port.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, postPayment, SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { payWithRegistration, postRegistration, REGISTRATION_CARD } from '../support/registrations.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

const codeOf = (r: { json(): any }) => r.json().result.code as string;
const INITIAL_CIT = { 'standingInstruction.type': 'UNSCHEDULED', 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'CIT' };
const REPEATED_MIT = { 'standingInstruction.type': 'UNSCHEDULED', 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT' };
const THREE_DS_RESULT = { 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=', 'threeDSecure.authenticationStatus': 'Y' };
const { 'card.cvv': _cvv, ...CARD_WITHOUT_CVV } = SAMPLE_CARD;

/** A payment's parameter error, as [code, name]. */
const errorOf = (r: { json(): any }) => [codeOf(r), r.json().result.parameterErrors?.[0]?.name];

for (const database of testDatabases()) {
  describe(`standing instructions on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    it('card data the gateway does not store: INITIAL returns the scheme reference, MITs must name it', async () => {
      const initial = await cardPayment(t, merchant, 'DB', '10.00', INITIAL_CIT);
      assert.equal(initial.statusCode, 200, initial.body);
      const schemeReference = initial.json().standingInstruction.initialTransactionId as string;
      assert.match(schemeReference, /^SIM[0-9]{15}$/);

      const mit = await postPayment(t, merchant, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD_WITHOUT_CVV, ...REPEATED_MIT, 'standingInstruction.initialTransactionId': schemeReference });
      assert.match(codeOf(mit), SUCCESS_PATTERN, mit.body);
      assert.equal(mit.json().standingInstruction.initialTransactionId, schemeReference, 'a MIT shows the series reference, not its own');

      const neverIssued = await postPayment(t, merchant, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD_WITHOUT_CVV, ...REPEATED_MIT, 'standingInstruction.initialTransactionId': 'SIM999999999999999' });
      assert.equal(codeOf(neverIssued), '800.100.167', neverIssued.body);
      const missing = await postPayment(t, merchant, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...CARD_WITHOUT_CVV, ...REPEATED_MIT });
      assert.equal(missing.statusCode, 400);
      assert.deepEqual(errorOf(missing), ['200.300.404', 'standingInstruction.initialTransactionId']);
    });

    it('refuses what the rules forbid, naming the parameter', async () => {
      const rows: Array<[string, Record<string, string>, string, string]> = [
        ['REPEATED with a CVV', { ...SAMPLE_CARD, ...REPEATED_MIT, 'standingInstruction.initialTransactionId': 'SIM000000000000001' }, '600.200.501', 'card.cvv'],
        ['REPEATED with 3D Secure values', { ...CARD_WITHOUT_CVV, ...REPEATED_MIT, ...THREE_DS_RESULT, 'standingInstruction.initialTransactionId': 'SIM000000000000001' }, '600.200.501', 'threeDSecure.verificationId'],
        ['MIT marked INITIAL', { ...SAMPLE_CARD, 'standingInstruction.mode': 'INITIAL', 'standingInstruction.source': 'MIT' }, '600.200.501', 'standingInstruction.mode'],
        ['INITIAL with an initialTransactionId', { ...SAMPLE_CARD, ...INITIAL_CIT, 'standingInstruction.initialTransactionId': 'SIM000000000000001' }, '600.200.501', 'standingInstruction.initialTransactionId'],
        ['industryPractice on a CIT', { ...SAMPLE_CARD, 'standingInstruction.source': 'CIT', 'standingInstruction.industryPractice': 'NO_SHOW' }, '600.200.501', 'standingInstruction.industryPractice'],
        ['numberOfInstallments on a RECURRING series', { ...SAMPLE_CARD, 'standingInstruction.type': 'RECURRING', 'standingInstruction.numberOfInstallments': '3' }, '600.200.501', 'standingInstruction.numberOfInstallments'],
        ['INSTALLMENT with 3D Secure but no count', { ...SAMPLE_CARD, ...THREE_DS_RESULT, 'standingInstruction.type': 'INSTALLMENT' }, '200.300.404', 'standingInstruction.numberOfInstallments'],
      ];
      for (const [name, fields, code, parameter] of rows) {
        const response = await postPayment(t, merchant, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...fields });
        assert.equal(response.statusCode, 400, name);
        assert.deepEqual(errorOf(response), [code, parameter], name);
      }
    });

    it('RECURRING on VISA with 3D Secure data gets expiry 9999-12-31 and frequency 0001', async () => {
      const response = await postPayment(t, merchant, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...SAMPLE_CARD, ...THREE_DS_RESULT, 'standingInstruction.type': 'RECURRING', 'standingInstruction.mode': 'INITIAL' });
      assert.match(codeOf(response), SUCCESS_PATTERN, response.body);
      assert.equal(response.json().standingInstruction.expiry, '9999-12-31');
      assert.equal(response.json().standingInstruction.frequency, '0001');
    });

    it('a registration remembers its initial CIT and later MITs use it automatically', async () => {
      const initial = await cardPayment(t, merchant, 'DB', '10.00', { ...INITIAL_CIT, createRegistration: 'true' });
      const registrationId = initial.json().registrationId as string;
      const schemeReference = initial.json().standingInstruction.initialTransactionId as string;
      assert.ok(registrationId && schemeReference, initial.body);
      for (let n = 0; n < 2; n += 1) {
        const mit = await payWithRegistration(t, merchant, registrationId, REPEATED_MIT);
        assert.match(codeOf(mit), SUCCESS_PATTERN, mit.body);
        assert.equal(mit.json().standingInstruction.initialTransactionId, schemeReference);
      }
      const withCvv = await payWithRegistration(t, merchant, registrationId, { ...REPEATED_MIT, 'card.cvv': '123' });
      assert.deepEqual(errorOf(withCvv), ['600.200.501', 'card.cvv']);
    });

    it('a MIT writes its outcome with the shared settle; only an INITIAL payment needs a transaction to record its reference', async () => {
      const registrationId = (await postRegistration(t, merchant)).json().id as string;
      let transactions = 0;
      const counting: Storage = { ...t.storage, transaction: (fn) => ((transactions += 1), t.storage.transaction(fn)) };
      const deps = { ...t.app.gateway.payments, storage: counting };
      const pay = (fields: Record<string, string>) => {
        const request = runPaymentRequest(merchant.entityId, { amount: '10.00', currency: 'EUR', paymentType: 'DB', ...fields }, t.clock.now());
        return payWithRegistrationOperation(deps, { entityId: merchant.entityId, registrationId, request, echo: echoRequest(request) });
      };
      const initial = await pay({ ...INITIAL_CIT, ...THREE_DS_RESULT });
      assert.match(initial.result.code, SUCCESS_PATTERN);
      assert.equal(transactions, 1, 'the INITIAL payment records its scheme reference with its outcome');
      const schemeReference = (initial.body['standingInstruction'] as Record<string, string>)['initialTransactionId'];
      assert.match(schemeReference!, /^SIM[0-9]{15}$/);
      const mit = await pay(REPEATED_MIT);
      assert.match(mit.result.code, SUCCESS_PATTERN);
      assert.equal(transactions, 1, 'a MIT opens no transaction of its own');
      assert.equal(mit.body['registrationId'], registrationId);
      assert.equal((mit.body['standingInstruction'] as Record<string, string>)['initialTransactionId'], schemeReference);
    });

    it('a stored card starts its series with an INITIAL registration payment, which needs a CVV or 3D Secure', async () => {
      const registrationId = (await postRegistration(t, merchant)).json().id as string;
      assert.deepEqual(errorOf(await payWithRegistration(t, merchant, registrationId, REPEATED_MIT)), ['100.150.300', 'standingInstruction.source']);
      assert.deepEqual(errorOf(await payWithRegistration(t, merchant, registrationId, INITIAL_CIT)), ['600.200.501', 'card.cvv']);
      const initial = await payWithRegistration(t, merchant, registrationId, { ...INITIAL_CIT, ...THREE_DS_RESULT });
      assert.match(codeOf(initial), SUCCESS_PATTERN, initial.body);
      const schemeReference = initial.json().standingInstruction.initialTransactionId as string;
      assert.match(schemeReference, /^SIM[0-9]{15}$/);
      const mit = await payWithRegistration(t, merchant, registrationId, { 'standingInstruction.source': 'MIT', 'standingInstruction.industryPractice': 'NO_SHOW' });
      assert.match(codeOf(mit), SUCCESS_PATTERN, mit.body);
      assert.equal(mit.json().standingInstruction.initialTransactionId, schemeReference);
    });

    it('a recurring migration carries an initial payment made elsewhere; the simulator honours it', async () => {
      const migration = { ...REGISTRATION_CARD, 'recurringMigration.paymentType': 'DB', 'recurringMigration.amount': '19.99', 'recurringMigration.connectorTxId1': 'SIM123456789012345', 'recurringMigration.connectorTxId2': '123456' };
      const registered = await postRegistration(t, merchant, migration);
      assert.equal(registered.statusCode, 200, registered.body);
      assert.deepEqual(registered.json().recurringMigration, { paymentType: 'DB', amount: '19.99', connectorTxId1: 'SIM123456789012345', connectorTxId2: '123456' });
      const mit = await payWithRegistration(t, merchant, registered.json().id, REPEATED_MIT);
      assert.match(codeOf(mit), SUCCESS_PATTERN, mit.body);
      assert.equal(mit.json().standingInstruction.initialTransactionId, 'SIM123456789012345');

      const foreign = await postRegistration(t, merchant, { ...migration, 'recurringMigration.connectorTxId1': 'ACQ-REF-0001' });
      assert.equal(codeOf(await payWithRegistration(t, merchant, foreign.json().id, REPEATED_MIT)), '800.100.167', 'a reference the simulator never issued is declined');
      const { 'recurringMigration.connectorTxId1': _id, ...withoutReference } = migration;
      assert.deepEqual(errorOf(await postRegistration(t, merchant, withoutReference)), ['200.300.404', 'recurringMigration.connectorTxId1']);
      assert.equal(codeOf(await postRegistration(t, merchant, { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com', 'recurringMigration.paymentType': 'DB' })), '100.350.602');
    });
  });
}
