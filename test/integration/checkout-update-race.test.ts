import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Storage } from '../../src/storage/port.js';
import { claimAttempt, findCheckout } from '../../src/storage/repositories/checkouts.js';
import { createCheckout, widgetPost } from '../support/checkouts.js';
import { testDatabases } from '../support/databases.js';
import { SAMPLE_CARD, SUCCESS_PATTERN, type Merchant } from '../support/payments.js';
import { bearer, form, FORM_HEADERS, json, withAppAndMerchant, type TestApp } from '../support/test-app.js';

// Issue 29, item 5: a merchant's update (a new amount) and the shopper's widget payment race for
// the same checkout. Exactly one may win: an acknowledged update with a payment of the old amount
// is the defect.

const CARD = { paymentBrand: SAMPLE_CARD.paymentBrand, 'card.number': SAMPLE_CARD['card.number'], 'card.holder': SAMPLE_CARD['card.holder'], 'card.expiryMonth': SAMPLE_CARD['card.expiryMonth'], 'card.expiryYear': SAMPLE_CARD['card.expiryYear'], 'card.cvv': SAMPLE_CARD['card.cvv'] };
const OLD_AMOUNT = '10.00';
const NEW_AMOUNT = '100.00';
const ROUNDS = 40;
const IN_PROGRESS = '800.700.100';

/** The widget's claim of a checkout for an attempt (storage/repositories/checkouts.ts, claimAttempt). */
const CLAIM_SQL = /^\s*UPDATE checkouts c SET state = 'attempting'/;

/** Hooks around the claim's statement, so a test can put the merchant's update exactly before or after it. */
interface ClaimHooks {
  before?: (() => Promise<void>) | undefined;
  after?: (() => Promise<void>) | undefined;
}

function withClaimHooks(inner: Storage, hooks: ClaimHooks): Storage {
  return {
    kind: inner.kind,
    ...(inner.groupWrites ? { groupWrites: inner.groupWrites } : {}),
    async query(sql, params, options) {
      const claim = CLAIM_SQL.test(sql);
      const before = claim ? hooks.before : undefined;
      if (before) {
        hooks.before = undefined;
        await before();
      }
      const result = await inner.query(sql, params, options);
      const after = claim ? hooks.after : undefined;
      if (after) {
        hooks.after = undefined;
        await after();
      }
      return result as never;
    },
    transaction: (fn) => inner.transaction(fn),
    close: () => inner.close(),
  };
}

function updateCheckout(t: TestApp, merchant: Merchant, id: string, fields: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: `/v1/checkouts/${id}`, headers: { ...bearer(merchant.accessToken), ...FORM_HEADERS }, payload: form({ entityId: merchant.entityId, ...fields }) });
}

function updateAmount(t: TestApp, merchant: Merchant, id: string, amount: string) {
  return updateCheckout(t, merchant, id, { amount });
}

async function newCheckout(t: TestApp, merchant: Merchant): Promise<string> {
  const response = await createCheckout(t, merchant, { amount: OLD_AMOUNT });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).id as string;
}

/** The wire amounts of the checkout's successful payments (an attempt's transaction carries the attempt's id). */
async function successfulPaymentsOf(t: TestApp, merchant: Merchant, checkoutId: string): Promise<string[]> {
  const { rows } = await t.storage.query<{ amount: string }>(
    `SELECT to_char(t.amount_minor / 100.0, 'FM999999990.00') AS amount
       FROM transactions t JOIN checkouts c ON c.attempt_id = t.id
      WHERE c.id = $1 AND t.entity_id = $2 AND t.status = 'success'`,
    [checkoutId, merchant.entityId],
  );
  return rows.map((row) => row.amount);
}

/** Runs fn after `turns` turns of the event loop. */
async function afterTurns<T>(turns: number, fn: () => Promise<T>): Promise<T> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  return fn();
}

for (const db of testDatabases()) {
  describe(`a checkout update racing a widget payment (${db.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const hooks: ClaimHooks = {};
    withAppAndMerchant(async () => withClaimHooks(await db.open(), hooks), {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('the update lands after the widget read the checkout, before its claim: the update wins, the payment is refused (800.700.100)', async () => {
      const id = await newCheckout(t, merchant);
      let update: Awaited<ReturnType<typeof updateAmount>> | undefined;
      hooks.before = async () => {
        update = await updateAmount(t, merchant, id, NEW_AMOUNT);
      };
      const payment = await widgetPost(t, id, CARD);
      assert.equal(update?.statusCode, 200, update?.body);
      assert.equal(json(update!).result.code, '000.200.101');
      assert.equal(payment.statusCode, 400, payment.body);
      assert.equal(json(payment).result.code, IN_PROGRESS);
      assert.deepEqual(await successfulPaymentsOf(t, merchant, id), []);
      // The checkout is still payable, for the amount the merchant set last.
      const retry = json(await widgetPost(t, id, CARD));
      assert.match(retry.result.code, SUCCESS_PATTERN);
      assert.equal(retry.amount, NEW_AMOUNT);
    });

    it('the claim comes first: the payment wins for the old amount, the update is refused (800.700.100)', async () => {
      const id = await newCheckout(t, merchant);
      let update: Awaited<ReturnType<typeof updateAmount>> | undefined;
      hooks.after = async () => {
        update = await updateAmount(t, merchant, id, NEW_AMOUNT);
      };
      const payment = json(await widgetPost(t, id, CARD));
      assert.equal(update?.statusCode, 400, update?.body);
      assert.equal(json(update!).result.code, IN_PROGRESS);
      assert.match(payment.result.code, SUCCESS_PATTERN);
      assert.equal(payment.amount, OLD_AMOUNT);
    });

    it(`${ROUNDS} rounds of update and payment at once: never an acknowledged update beside a payment of the old amount`, async () => {
      const outcomes = { updateWon: 0, paymentWon: 0 };
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = await newCheckout(t, merchant);
        // Each round starts one of the two a few event-loop turns later, so the rounds cover the
        // interleavings of the widget's read and claim with the update's read and write.
        const lag = round % 12;
        const [update, payment] = await Promise.all([
          afterTurns(lag < 6 ? lag : 0, () => updateAmount(t, merchant, id, NEW_AMOUNT)),
          afterTurns(lag < 6 ? 0 : lag - 6, () => widgetPost(t, id, CARD)),
        ]);
        const acknowledged = json(update).result.code === '000.200.101';
        const paid = await successfulPaymentsOf(t, merchant, id);
        assert.ok(!(acknowledged && paid.includes(OLD_AMOUNT)), `round ${round}: update ${update.body}\npayment ${payment.body}`);
        // The update came first (the payment read the new amount, or was refused, visibly), or the
        // payment did (and the update was refused, visibly).
        if (acknowledged) assert.ok(json(payment).result.code === IN_PROGRESS || json(payment).amount === NEW_AMOUNT, `round ${round}: ${payment.body}`);
        else assert.equal(json(update).result.code, IN_PROGRESS, `round ${round}: ${update.body}`);
        outcomes[acknowledged ? 'updateWon' : 'paymentWon'] += 1;
      }
      assert.equal(outcomes.updateWon + outcomes.paymentWon, ROUNDS);
    });

    it('claims grouped in one statement: of three claims of one checkout exactly one wins, and its attempt is the one recorded', async () => {
      const one = await newCheckout(t, merchant);
      const two = await newCheckout(t, merchant);
      const [seenOne, seenTwo] = [(await findCheckout(t.storage, one))!, (await findCheckout(t.storage, two))!];
      const now = t.clock.now();
      // The first claim goes out alone; the three asked meanwhile share the next statement.
      const attempts = ['a', 'b', 'c', 'd'].map((c) => c.repeat(32));
      const won = await Promise.all([
        claimAttempt(t.storage, seenOne, { id: attempts[0]!, shopperResultUrl: undefined }, now),
        claimAttempt(t.storage, seenTwo, { id: attempts[1]!, shopperResultUrl: undefined }, now),
        claimAttempt(t.storage, seenTwo, { id: attempts[2]!, shopperResultUrl: undefined }, now),
        claimAttempt(t.storage, seenTwo, { id: attempts[3]!, shopperResultUrl: undefined }, now),
      ]);
      assert.equal(won[0], true);
      assert.equal(won.slice(1).filter(Boolean).length, 1, won.join());
      const after = (await findCheckout(t.storage, two))!;
      assert.equal(after.attemptId, attempts[1 + won.slice(1).indexOf(true)]);
      assert.equal(after.state, 'attempting');
    });

    it('two updates at once: each acknowledged one is kept (the other is refused, 800.700.100), none silently lost', async () => {
      for (let round = 0; round < ROUNDS / 2; round += 1) {
        const id = await newCheckout(t, merchant);
        const [amount, descriptor] = await Promise.all([updateAmount(t, merchant, id, NEW_AMOUNT), updateCheckout(t, merchant, id, { descriptor: `round ${round}` })]);
        const { rows } = await t.storage.query<{ parameters: Record<string, string> }>('SELECT parameters FROM checkouts WHERE id = $1', [id]);
        const kept = rows[0]!.parameters;
        for (const [update, name, value] of [[amount, 'amount', NEW_AMOUNT], [descriptor, 'descriptor', `round ${round}`]] as const) {
          if (json(update).result.code === '000.200.101') assert.equal(kept[name], value, `round ${round}: ${name} acknowledged but lost`);
          else assert.equal(json(update).result.code, IN_PROGRESS, update.body);
        }
      }
    });
  });
}
