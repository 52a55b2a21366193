import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { createWebhook } from '../../src/operations/webhooks/create-webhook.js';
import type { Storage } from '../../src/storage/port.js';
import { activatePendingWebhooks } from '../../src/storage/repositories/webhooks.js';
import { testDatabases } from '../support/databases.js';
import { postPayment, referencePayment, type Merchant } from '../support/payments.js';
import { deleteRegistration, payWithRegistration, postRegistration } from '../support/registrations.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// Every account number and CVV this test sends; none may be found anywhere afterwards.
const CARDS = {
  visa: { number: '4200000000000000', cvv: '739', brand: 'VISA' },
  master: { number: '5454545454545454', cvv: '428', brand: 'MASTER' },
  amex: { number: '377777777777770', cvv: '8264', brand: 'AMEX' },
  declined: { number: '4000000000000002', cvv: '615', brand: 'VISA' },
} as const;
const IBAN = 'DE23100000001234567890';
const BANK_ACCOUNT_NUMBER = '9876543210';
const TOKEN_NUMBER = '4895370012345678';
const NUMBERS = [...Object.values(CARDS).map((card) => card.number), IBAN, BANK_ACCOUNT_NUMBER, TOKEN_NUMBER];
const CVVS = Object.values(CARDS).map((card) => card.cvv);

const cardFields = (card: (typeof CARDS)[keyof typeof CARDS], withCvv = true) => ({
  paymentBrand: card.brand,
  'card.number': card.number,
  'card.holder': 'Jane Jones',
  'card.expiryMonth': '05',
  'card.expiryYear': '2034',
  ...(withCvv ? { 'card.cvv': card.cvv } : {}),
});

/** Each number as sent, and as it would look stored unencrypted in a bytea (hex) or base64. */
function numberForms(number: string): string[] {
  const bytes = Buffer.from(number, 'utf8');
  return [number, bytes.toString('hex'), bytes.toString('base64').replace(/=+$/, '')];
}

/** A CVV as a value of its own: quoted, after = or :, or a field of a row; not digits inside a longer value. */
function cvvPattern(cvv: string): RegExp {
  return new RegExp(`(^|["'=:,(\\[\\s])${cvv}($|["'&,)\\]}\\s])`);
}

function findClearData(text: string): string[] {
  const found = NUMBERS.flatMap((number) => numberForms(number).filter((form) => text.includes(form)).map((form) => `account number ${number.slice(0, 4)}… as ${form === number ? 'text' : form.length > number.length ? 'hex' : 'base64'}`));
  return [...found, ...CVVS.filter((cvv) => cvvPattern(cvv).test(text)).map((cvv) => `CVV ${cvv.length} digits`)];
}

/** Every row of every table in every schema this database session uses, all columns as text. */
async function dumpDatabase(storage: Storage): Promise<{ tables: string[]; text: string }> {
  const { rows: tables } = await storage.query<{ table_schema: string; table_name: string }>(
    `SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema = ANY (current_schemas(false)) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
  );
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await storage.query<{ line: string }>(`SELECT t::text AS line FROM ${quote(table.table_schema)}.${quote(table.table_name)} t`);
    parts.push(`== ${table.table_name}`, ...rows.map((row) => row.line));
  }
  return { tables: tables.map((table) => table.table_name), text: parts.join('\n') };
}

for (const database of testDatabases()) {
  describe(`no clear card data on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const responses: LightMyRequestResponse[] = [];
    const keep = async (response: Promise<LightMyRequestResponse>) => {
      const answered = await response;
      responses.push(answered);
      return answered;
    };
    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'trace' } });
      merchant = await t.createMerchant();
      // An active webhook, so notification bodies are written too and searched with the rest.
      const webhook = await createWebhook({ storage: t.storage, clock: t.clock, ids: randomIds, webhookTargets: t.config.workers.webhookTargets }, { entityId: merchant.entityId, url: 'https://merchant.example/hooks' });
      await t.storage.transaction((tx) => activatePendingWebhooks(tx, [webhook.webhookId], t.clock.now()));
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    async function runPaymentsAndRegistrations(): Promise<void> {
      const pay = (fields: Record<string, string>, headers: Record<string, string> = {}) => keep(postPayment(t, merchant, { amount: '20.00', currency: 'EUR', paymentType: 'DB', ...fields }, headers));
      const initial = await pay({ ...cardFields(CARDS.visa), createRegistration: 'true', 'standingInstruction.type': 'UNSCHEDULED', 'standingInstruction.mode': 'INITIAL' }, { 'idempotency-key': 'initial-with-registration' });
      const visaRegistration = initial.json().registrationId as string;
      await keep(payWithRegistration(t, merchant, visaRegistration, { 'card.cvv': CARDS.visa.cvv }, 'PA'));
      await keep(payWithRegistration(t, merchant, visaRegistration, { 'standingInstruction.mode': 'REPEATED', 'standingInstruction.source': 'MIT' }));
      const pa = await pay({ ...cardFields(CARDS.master), paymentType: 'PA' });
      await keep(referencePayment(t, merchant, pa.json().id, 'CP', '20.00'));
      await keep(referencePayment(t, merchant, pa.json().id, 'RV'));
      const amex = await keep(postRegistration(t, merchant, cardFields(CARDS.amex), { 'idempotency-key': 'amex-registration' }));
      await keep(payWithRegistration(t, merchant, amex.json().id, { 'card.cvv': CARDS.amex.cvv }));
      await keep(deleteRegistration(t, merchant, amex.json().id));
      await pay({ ...cardFields(CARDS.declined), createRegistration: 'true' });
      await pay({ ...cardFields(CARDS.visa), 'card.expiryMonth': '13' });
      await pay({ ...cardFields(CARDS.master), 'card.cvv': '42' });
      await pay({ ...cardFields(CARDS.visa, false), 'standingInstruction.mode': 'REPEATED', 'card.cvv': CARDS.visa.cvv, 'standingInstruction.initialTransactionId': 'SIM000000000000001' });
      const accounts: Record<string, string>[] = [
        { paymentBrand: 'DIRECTDEBIT_SEPA', 'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': IBAN, 'bankAccount.bic': 'MARKDEF1100', 'bankAccount.mandate.id': 'MANDATE-JANE', 'bankAccount.mandate.dateOfSignature': '2026-11-01' },
        { paymentBrand: 'DIRECTDEBIT_DE', 'bankAccount.holder': 'Jane Jones', 'bankAccount.number': BANK_ACCOUNT_NUMBER, 'bankAccount.bankCode': '10000000', 'bankAccount.country': 'DE' },
        { paymentBrand: 'VISA', 'tokenAccount.number': TOKEN_NUMBER, 'tokenAccount.type': 'NETWORK', 'tokenAccount.expiryMonth': '05', 'tokenAccount.expiryYear': '2034' },
      ];
      for (const fields of accounts) {
        const registered = await keep(postRegistration(t, merchant, fields));
        assert.equal(registered.statusCode, 200, registered.body);
        await keep(payWithRegistration(t, merchant, registered.json().id));
      }
    }

    it('after payments and registrations, no table, log line or response holds a card number, account number or CVV', async () => {
      await runPaymentsAndRegistrations();
      const dump = await dumpDatabase(t.storage);
      for (const table of ['registrations', 'vault_keys', 'transactions', 'idempotency_keys', 'notifications']) assert.ok(dump.tables.includes(table), `${table} was dumped`);
      assert.ok(dump.text.includes('REGISTRATION'), 'registration notifications are among the rows');
      const { rows } = await t.storage.query<{ count: bigint | number }>(`SELECT count(*) AS count FROM registrations WHERE sealed_account IS NOT NULL`);
      assert.ok(Number(rows[0]!.count) >= 4, 'the dump holds sealed accounts: the search is not vacuous');
      assert.ok(dump.text.includes('420000') && dump.text.includes('7890'), 'BIN and last four digits are there in clear, as allowed');

      assert.deepEqual(findClearData(dump.text), [], 'database');
      assert.ok(t.logs.lines.length > responses.length, 'every request was logged');
      assert.deepEqual(findClearData(t.logs.text), [], 'logs');
      assert.deepEqual(findClearData(responses.map((response) => response.body).join('\n')), [], 'responses');
    });

    it('the search itself finds each kind of leak', () => {
      assert.deepEqual(findClearData(`{"number":"${CARDS.visa.number}"}`).length, 1);
      assert.deepEqual(findClearData(`\\x${Buffer.from(IBAN).toString('hex')}`).length, 1);
      assert.deepEqual(findClearData(`{"cvv":"${CARDS.amex.cvv}"}`), ['CVV 4 digits']);
      assert.deepEqual(findClearData('(abc,739,def)'), ['CVV 3 digits']);
      assert.deepEqual(findClearData('2026-11-22 10:00:00.739+00 \\x07391234'), []);
    });
  });
}
