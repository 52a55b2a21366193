import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDatabases } from '../support/databases.js';
import { findSecrets } from '../support/secrets.js';
import { postPayment, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import { fullRequest } from '../unit/catalogue/fixtures.js';

// A payment pays with one account: the full request keeps the card and drops the other accounts.
const OTHER_ACCOUNTS = /^(walletA|walletB|walletC|bankAccount|tokenAccount|virtualAccount)\.|^transactionDueDate$/;

function fullPaymentBody(): Record<string, string> {
  const body = fullRequest('payment');
  for (const name of Object.keys(body)) if (OTHER_ACCOUNTS.test(name)) delete body[name];
  delete body['entityId'];
  // Every field at once contradicts the standing-instruction rules: an INITIAL payment names no
  // initial transaction nor an industry practice, and instalments belong to INSTALLMENT.
  delete body['standingInstruction.initialTransactionId'];
  delete body['standingInstruction.industryPractice'];
  body['standingInstruction.type'] = 'INSTALLMENT';
  return body;
}

for (const database of testDatabases()) {
  describe(`a full request through POST /v1/payments on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });

    it('carrying every structure of both documents is accepted and echoed back', async () => {
      const body = fullPaymentBody();
      assert.ok(Object.keys(body).length > 250, `${Object.keys(body).length} parameters`);
      const response = await postPayment(t, merchant, body);
      assert.match(response.json().result.code, SUCCESS_PATTERN, response.body.slice(0, 2000));
      const echo = response.json();
      for (const structure of ['customer', 'billing', 'shipping', 'cart', 'customParameters', 'merchant', 'risk', 'airline', 'marketPlace', 'corporate', 'sender', 'recipient', 'forex', 'card']) {
        assert.ok(echo[structure] !== undefined, `${structure} is echoed`);
      }
      assert.equal(echo.card.number, undefined);
      assert.equal(echo.card.cvv, undefined);
      assert.deepEqual(findSecrets(response.body), []);
      // The answer is the stored view's JSON text with the envelope appended: same type, same order.
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(Object.keys(echo).slice(-4), ['result', 'buildNumber', 'timestamp', 'ndc']);
    });

    it('the same request with any single field made invalid is rejected naming that field', async () => {
      const body = fullPaymentBody();
      for (const [name, broken] of [['customer.email', 'not-an-email'], ['cart.items[0].quantity', 'x'], ['billing.country', 'XX'], ['card.expiryMonth', '13'], ['airline.passengers[0].legs[0].fareAmount', '1.5']] as const) {
        const response = await postPayment(t, merchant, { ...body, [name]: broken });
        assert.equal(response.statusCode, 400, name);
        const names = (response.json().result.parameterErrors as { name: string }[]).map((e) => e.name);
        assert.ok(names.includes(name), `${name} named in ${names.join(', ')}`);
      }
    });
  });
}
