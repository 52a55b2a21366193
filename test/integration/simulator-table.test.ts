import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { PaymentMethodData } from '../../src/connectors/connector.js';
import { SIMULATOR_ROWS } from '../../src/connectors/simulator/index.js';
import type { SimulatorExample } from '../../src/connectors/simulator/row.js';
import { formatAmount } from '../../src/domain/money.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, referencePayment, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, TEST_ADMIN_TOKEN, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/** The form fields a merchant sends for a method of the simulator's examples. */
function methodFields(method: PaymentMethodData | undefined): Record<string, string> {
  const m = method ?? { kind: 'card', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034', cvv: '123', holder: 'Jane Jones' } };
  const card = (c: { number: string; expiryMonth: string; expiryYear: string; cvv?: string; holder?: string }) => ({
    'card.number': c.number,
    'card.expiryMonth': c.expiryMonth,
    'card.expiryYear': c.expiryYear,
    ...(c.cvv ? { 'card.cvv': c.cvv } : {}),
    ...(c.holder ? { 'card.holder': c.holder } : {}),
  });
  switch (m.kind) {
    case 'card':
      return card(m.card);
    case 'bankAccount': {
      const b = m.bankAccount;
      const sepa: Record<string, string> = b.iban ? { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.iban': b.iban, 'bankAccount.bic': b.bic ?? 'MARKDEF1100', 'bankAccount.mandate.id': 'MANDATE-ONE', 'bankAccount.mandate.dateOfSignature': '2026-11-01' } : {};
      const national: Record<string, string> = b.number ? { paymentBrand: 'DIRECTDEBIT_DE', 'bankAccount.number': b.number, 'bankAccount.bankCode': b.bankCode ?? '', 'bankAccount.country': b.country ?? 'DE' } : {};
      return { 'bankAccount.holder': b.holder, ...sepa, ...national };
    }
    case 'virtualAccount':
      return { paymentBrand: 'PAYPAL', 'virtualAccount.accountId': m.accountId };
    case 'tokenAccount':
      return { paymentBrand: 'VISA', 'tokenAccount.number': m.token.number, 'tokenAccount.type': m.token.type, ...(m.token.expiryMonth ? { 'tokenAccount.expiryMonth': m.token.expiryMonth, 'tokenAccount.expiryYear': m.token.expiryYear! } : {}) };
    case 'walletDecrypted':
      // Decrypted wallet data carries the wallet's ECI and cryptogram (docs/api.md, "Decrypted wallet data").
      return { paymentBrand: 'VISA', [`${m.wallet}.source`]: m.source, ...card(m.card), ...(m.eci ? { 'threeDSecure.eci': m.eci } : {}), ...(m.verificationId ? { 'threeDSecure.verificationId': m.verificationId } : {}) };
    case 'walletToken':
      return { paymentBrand: 'VISA', [`${m.wallet}.paymentToken`]: m.paymentToken };
    case 'asynchronous':
      return { paymentBrand: 'PAYPAL', shopperResultUrl: 'https://shop.example.com/result' };
  }
}

function exampleFields(example: SimulatorExample): Record<string, string> {
  const si = example.standingInstruction;
  // A REPEATED payment must not carry shopper authentication data such as a CVV.
  const { 'card.cvv': _cvv, ...withoutCvv } = methodFields(example.method);
  return {
    ...(si?.mode === 'REPEATED' ? withoutCvv : methodFields(example.method)),
    ...(example.postcode ? { 'billing.postcode': example.postcode, 'billing.city': 'Berlin', 'billing.country': 'DE', 'billing.street1': 'Main street 1' } : {}),
    ...(si?.type ? { 'standingInstruction.type': si.type } : {}),
    ...(si?.mode ? { 'standingInstruction.mode': si.mode } : {}),
    ...(si?.source ? { 'standingInstruction.source': si.source } : {}),
    ...(si?.initialTransactionId ? { 'standingInstruction.initialTransactionId': si.initialTransactionId } : {}),
  };
}

// Examples the HTTP API cannot send as the simulator sees them, and why.
function notSendable(rowId: string, example: SimulatorExample): string | undefined {
  if (example.foreignParent) return 'a parent of another connector cannot be made through the API';
  if (rowId === 'card-expired') return 'the catalogue refuses an expired card (100.100.303) before any connector sees it';
  return undefined;
}

const SUCCESS = '000.100.110';

for (const database of testDatabases()) {
  describe(`every row of docs/simulator.md through the API on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), { env: { LOG_LEVEL: 'warn' } }, (app, created) => {
      t = app;
      merchant = created;
    });
    // The connector's table alone: the 3-D Secure test cards are plain approvals to the simulator
    // (their authentication is tested in redirects.test.ts).
    before(async () => {
      const set = await t.app.inject({ method: 'PUT', url: `/admin/entities/${merchant.entityId}/three-d-secure`, headers: { ...bearer(TEST_ADMIN_TOKEN), ...FORM_HEADERS }, payload: form({ requirement: 'never' }) });
      assert.equal(set.statusCode, 200);
    });

    async function send(example: SimulatorExample) {
      const amountMinor = example.amountMinor ?? 9_200n;
      if (['PA', 'DB', 'CD'].includes(example.operation)) {
        return postPayment(t, merchant, { amount: formatAmount(amountMinor), currency: 'EUR', paymentType: example.operation, ...exampleFields(example) });
      }
      // A reversal reverses its parent's amount; captures and refunds take part of a larger parent.
      const parentType = example.operation === 'CP' ? 'PA' : 'DB';
      const parentAmount = example.operation === 'RV' ? amountMinor : amountMinor + 10_000n;
      const parent = await postPayment(t, merchant, { amount: formatAmount(parentAmount), currency: 'EUR', paymentType: parentType, ...methodFields(undefined) });
      assert.equal(parent.json().result.code, SUCCESS, parent.body);
      return referencePayment(t, merchant, parent.json().id, example.operation, example.operation === 'RV' ? undefined : formatAmount(amountMinor));
    }

    for (const row of SIMULATOR_ROWS) {
      row.examples.forEach((example, index) => {
        const skip = notSendable(row.id, example);
        it(`${row.id} #${index + 1} (${example.operation})`, { skip: skip ?? false }, async () => {
          const response = await send(example);
          const expected = row.outcome.kind === 'unknown' ? '000.200.000' : row.outcome.code === 'SUCCESS' ? SUCCESS : row.outcome.code;
          const body = response.json();
          assert.equal(body.result.code, expected, response.body);
          assert.equal(response.statusCode, row.outcome.kind === 'declined' ? 400 : 200);
          if (row.outcome.avsResponse) assert.equal(body.result.avsResponse, row.outcome.avsResponse);
          if (row.outcome.cvvResponse) assert.equal(body.result.cvvResponse, row.outcome.cvvResponse);
        });
      });
    }
  });
}
