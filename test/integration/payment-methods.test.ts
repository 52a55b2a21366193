import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encryptWalletTokenForTests } from '../../src/connectors/simulator/index.js';
import { testDatabases } from '../support/databases.js';
import { findSecrets } from '../support/secrets.js';
import { postPayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';

const basics = { amount: '92.00', currency: 'EUR', paymentType: 'DB' };
const walletToken = encryptWalletTokenForTests('walletA', { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034' });

// One row per payment method: the fields sent, the result expected, and what the response shows.
const methods: { name: string; fields: Record<string, string>; code: RegExp; shows?: (body: any) => void }[] = [
  {
    name: 'card with brand detection (no paymentBrand)',
    fields: { 'card.number': '5454545454545454', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123', 'card.holder': 'Jane Jones' },
    code: SUCCESS_PATTERN,
    shows: (body) => {
      assert.equal(body.paymentBrand, 'MASTER');
      assert.deepEqual([body.card.bin, body.card.last4Digits], ['545454', '5454']);
    },
  },
  {
    name: 'SEPA direct debit with mandate',
    fields: {
      paymentBrand: 'DIRECTDEBIT_SEPA',
      'bankAccount.holder': 'Jane Jones',
      'bankAccount.iban': 'DE23100000001234567890',
      'bankAccount.bic': 'MARKDEF1100',
      'bankAccount.country': 'DE',
      'bankAccount.mandate.id': 'MANDATE-ONE',
      'bankAccount.mandate.dateOfSignature': '2026-11-01',
      transactionDueDate: '2026-11-30',
    },
    code: SUCCESS_PATTERN,
    shows: (body) => assert.ok(!JSON.stringify(body).includes('DE23100000001234567890'), 'the IBAN is not echoed in full'),
  },
  { name: 'declining IBAN', fields: { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE93100000000000000003', 'bankAccount.bic': 'MARKDEF1100', 'bankAccount.mandate.id': 'MANDATE-ONE', 'bankAccount.mandate.dateOfSignature': '2026-11-01' }, code: /^800\.100\.202$/ },
  { name: 'virtual account', fields: { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': 'jane@example.com' }, code: SUCCESS_PATTERN },
  {
    name: 'network token account with cryptogram',
    fields: { paymentBrand: 'VISA', 'tokenAccount.number': '4200000000000000', 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryMonth': '05', 'tokenAccount.expiryYear': '2034', 'tokenAccount.cryptogram': 'AgAAAAAABk4DWZ4C28yUQAAAAAA=' },
    code: SUCCESS_PATTERN,
  },
  { name: 'wallet A, encrypted token', fields: { paymentBrand: 'VISA', 'walletA.paymentToken': walletToken }, code: SUCCESS_PATTERN },
  { name: 'wallet B, token that does not decrypt', fields: { paymentBrand: 'VISA', 'walletB.paymentToken': walletToken }, code: /^800\.100\.156$/ },
  {
    name: 'wallet C, decrypted data',
    fields: { paymentBrand: 'VISA', 'walletC.source': 'web', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'threeDSecure.eci': '05', 'threeDSecure.verificationId': 'AAACAgSRBklmQCFgMpEGAAAAAAA=' },
    code: SUCCESS_PATTERN,
  },
  {
    name: 'forex fields are stored and echoed',
    fields: { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123', 'forex.amount': '100.00', 'forex.currency': 'USD' },
    code: SUCCESS_PATTERN,
    shows: (body) => assert.deepEqual(body.forex, { amount: '100.00', currency: 'USD' }),
  },
  {
    name: 'merchant.name overrides the descriptor',
    fields: { paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123', descriptor: 'Own text', 'merchant.name': 'Marketplace seller' },
    code: SUCCESS_PATTERN,
    shows: (body) => assert.equal(body.descriptor, `${body.shortId} Marketplace seller`),
  },
];

for (const database of testDatabases()) {
  describe(`payment methods on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    for (const method of methods) {
      it(method.name, async () => {
        const response = await postPayment(t, merchant, { ...basics, ...method.fields });
        const body = response.json();
        assert.match(body.result.code, method.code, response.body);
        method.shows?.(body);
        assert.deepEqual(findSecrets(response.body), []);
      });
    }

    it('a request without any account data is refused with 100.100.100', async () => {
      const response = await postPayment(t, merchant, { ...basics, paymentBrand: 'VISA' });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().result.code, /^(100\.100\.100|200\.300\.404)$/, response.body);
    });

    it('decrypted wallet data without its ECI and cryptogram is refused: 400 naming each missing field, nothing stored', async () => {
      const card = { 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034' };
      const response = await postPayment(t, merchant, { ...basics, paymentBrand: 'VISA', 'walletA.source': 'web', ...card, merchantTransactionId: 'wallet-no-cavv-1' });
      assert.equal(response.statusCode, 400, response.body);
      const { result } = response.json();
      assert.equal(result.code, '100.370.121');
      assert.deepEqual(result.parameterErrors.map((e: { name: string }) => e.name), ['threeDSecure.eci', 'threeDSecure.verificationId']);
      for (const entry of result.parameterErrors) assert.match(entry.message, /walletA\.source.*docs\/api\.md#decrypted-wallet-data/);
      const query = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=wallet-no-cavv-1`, headers: { authorization: `Bearer ${merchant.accessToken}` } });
      assert.equal(query.json().result.code, '700.400.580', 'no payment was made');
      const bare = await postPayment(t, merchant, { ...basics, paymentBrand: 'VISA', 'walletB.source': 'app' });
      assert.deepEqual(bare.json().result.parameterErrors.map((e: { name: string }) => e.name), ['card.number', 'card.expiryMonth', 'card.expiryYear', 'threeDSecure.eci', 'threeDSecure.verificationId']);
    });

    it('testMode=EXTERNAL goes to the processor test platform: 000.100.112', async () => {
      const response = await postPayment(t, merchant, { ...basics, testMode: 'EXTERNAL', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' });
      assert.equal(response.json().result.code, '000.100.112');
    });
  });
}
