import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { applyResolutionGrouped } from '../../src/operations/pending/apply-resolutions-grouped.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { sweepOnce } from '../../src/jobs/resolve-pending.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment, getPayment, referencePayment, type Merchant } from '../support/payments.js';
import { getRegistration, payWithRegistration } from '../support/registrations.js';
import { resolutionWorker } from '../support/resolution.js';
import { FORM_HEADERS, form, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

for (const database of testDatabases()) {
  describe(`pending transactions are resolved on ${database.name}`, () => {
    let t: TestApp;
    let merchant: Merchant;
    let jobs: ReturnType<typeof resolutionWorker>;

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', PENDING_CHECK_DELAYS_MINUTES: '5,60', PENDING_HORIZON_HOURS: '24' } });
      merchant = await t.createMerchant();
      jobs = resolutionWorker(t);
      // An active webhook, so that every outcome writes its notification (nothing delivers it here).
      await t.storage.query(
        `INSERT INTO webhooks (id, entity_id, url, secret, status, created_at, updated_at) VALUES ($1, $2, 'https://shop.example/hook', $3, 'active', $4, $4)`,
        ['e'.repeat(32), merchant.entityId, '0'.repeat(64), t.clock.now()],
      );
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    /** Moves the clock past the next due job (the sweep and the checks) and runs everything due. */
    async function advance(ms: number): Promise<void> {
      t.clock.advance(ms);
      await jobs.drain();
    }

    async function resultOf(id: string): Promise<string> {
      return (await getPayment(t, merchant, id)).json().result.code as string;
    }

    async function updatedNotifications(id: string): Promise<number> {
      const { rows } = await t.storage.query<{ n: bigint }>(`SELECT count(*)::int8 AS n FROM notifications WHERE transaction_id = $1 AND action = 'UPDATED'`, [id]);
      return Number(rows[0]!.n);
    }

    async function parentTotals(id: string): Promise<{ captured: bigint; refunded: bigint }> {
      const { rows } = await t.storage.query<{ captured_minor: bigint; refunded_minor: bigint }>('SELECT captured_minor, refunded_minor FROM transactions WHERE id = $1', [id]);
      return { captured: BigInt(rows[0]!.captured_minor), refunded: BigInt(rows[0]!.refunded_minor) };
    }

    async function check(id: string) {
      const { rows } = await t.storage.query<{ attempts: number; resolved_by: string | null; resolved_code: string | null; reason: string | null }>(
        'SELECT attempts, resolved_by, resolved_code, reason FROM pending_checks WHERE transaction_id = $1', [id]);
      return rows[0];
    }

    it('a timed-out debit (9.99) stays pending until the first check, then ends as the acquirer says, with one UPDATED notification', async () => {
      const db = (await cardPayment(t, merchant, 'DB', '9.99')).json();
      assert.equal(db.result.code, '000.200.000');
      await advance(4 * MINUTE);
      assert.equal(await resultOf(db.id), '000.200.000', 'not asked before the first delay');
      await advance(2 * MINUTE); // the sweep finds it
      await advance(1);
      assert.equal(await resultOf(db.id), '000.100.110');
      assert.equal(await updatedNotifications(db.id), 1);
      assert.equal((await check(db.id))?.resolved_by, 'status');
      await advance(2 * HOUR);
      assert.equal(await updatedNotifications(db.id), 1, 'never a second outcome');
    });

    it('status checks ending at once share one group: each payment ended once, as alone (a capture\'s reservation back, a pending registration settled), a payment twice in the group ended by the first', async () => {
      const debits = await Promise.all([1, 2, 3].map(async () => (await cardPayment(t, merchant, 'DB', '9.99')).json()));
      const registering = (await cardPayment(t, merchant, 'DB', '9.99', { createRegistration: 'true' })).json();
      const auth = (await cardPayment(t, merchant, 'PA', '20.00')).json();
      const capture = (await referencePayment(t, merchant, auth.id, 'CP', '9.98')).json();
      assert.equal(registering.result.code, '000.200.000');
      assert.equal(capture.result.code, '000.200.000');
      const deps = { storage: t.storage, clock: t.clock, ids: randomIds };
      const success = { kind: 'success' as const, code: '000.100.110', resultDetails: {} };
      const decline = { kind: 'declined' as const, code: '800.100.152', resultDetails: {} };
      // The first goes out alone; the rest, the first's duplicate among them, share the next group.
      const results = await Promise.all([
        applyResolutionGrouped(deps, { transactionId: debits[0].id, outcome: success, by: 'status' }),
        applyResolutionGrouped(deps, { transactionId: debits[1].id, outcome: success, by: 'status' }),
        applyResolutionGrouped(deps, { transactionId: debits[2].id, outcome: decline, by: 'status' }),
        applyResolutionGrouped(deps, { transactionId: debits[2].id, outcome: success, by: 'status' }),
        applyResolutionGrouped(deps, { transactionId: registering.id, outcome: success, by: 'status' }),
        applyResolutionGrouped(deps, { transactionId: capture.id, outcome: decline, by: 'status' }),
      ]);
      assert.deepEqual(results.map((r) => r.applied), [true, true, true, false, true, true]);
      assert.deepEqual(await Promise.all([debits[0].id, debits[1].id, debits[2].id, registering.id, capture.id].map(resultOf)), ['000.100.110', '000.100.110', '800.100.152', '000.100.110', '800.100.152']);
      for (const id of [debits[0].id, debits[1].id, debits[2].id, registering.id, capture.id]) {
        assert.equal(await updatedNotifications(id), 1, id);
        assert.equal((await check(id))?.resolved_by, 'status');
        assert.equal((await check(id))?.attempts, 1);
      }
      assert.equal((await parentTotals(auth.id)).captured, 0n, 'the declined capture gave its reservation back');
      const { rows } = await t.storage.query<{ status: string }>('SELECT status FROM registrations WHERE id = $1', [registering.registrationId]);
      assert.equal(rows[0]?.status, 'active', 'the registration the payment created is usable');
    });

    it('a sweep that filled its batch runs again at once (an outage\'s backlog is handed out in one go); one that did not waits its interval', async () => {
      await advance(HOUR); // nothing of the earlier tests left to sweep
      await Promise.all([1, 2, 3].map(() => cardPayment(t, merchant, 'DB', '9.99')));
      t.clock.advance(6 * MINUTE);
      const deps = { storage: t.storage, clock: t.clock, ids: randomIds, logger: silentLogger, connectors: t.app.gateway.payments.connectors, settings: t.config.resolution, sweepBatch: 2 };
      const now = t.clock.now().getTime();
      const full = await sweepOnce(deps);
      assert.equal(full.runAgainAt?.getTime(), now, 'two handed out, a full batch: again at once');
      assert.equal(full.enqueuedDueJobs, true);
      const rest = await sweepOnce(deps);
      assert.equal(rest.runAgainAt?.getTime(), now + t.config.resolution.sweepIntervalMs, 'the last one: the interval');
      const none = await sweepOnce(deps);
      assert.equal(none.enqueuedDueJobs, false);
      await jobs.drain();
    });

    it('a later decline (9.98) of a capture gives its reservation back, so the authorisation can be captured again', async () => {
      const pa = (await cardPayment(t, merchant, 'PA', '9.98')).json();
      // The authorisation itself times out too: resolve it first (later declined would end it), so use a normal PA.
      const auth = (await cardPayment(t, merchant, 'PA', '20.00')).json();
      const capture = (await referencePayment(t, merchant, auth.id, 'CP', '9.98')).json();
      assert.equal(capture.result.code, '000.200.000');
      assert.equal((await parentTotals(auth.id)).captured, 998n, 'the pending capture holds its amount');
      await advance(6 * MINUTE);
      await advance(1);
      assert.equal(await resultOf(capture.id), '800.100.152');
      assert.equal((await parentTotals(auth.id)).captured, 0n, 'released');
      assert.equal((await referencePayment(t, merchant, auth.id, 'CP', '20.00')).statusCode, 200);
      assert.equal(await resultOf(pa.id), '800.100.152');
    });

    it('an outcome the acquirer never knows (9.97) is asked again on the schedule and ended at the horizon with 100.396.103', async () => {
      const auth = (await cardPayment(t, merchant, 'PA', '30.00')).json();
      const capture = (await referencePayment(t, merchant, auth.id, 'CP', '9.97')).json();
      await advance(6 * MINUTE);
      await advance(1);
      assert.equal(await resultOf(capture.id), '000.200.000');
      assert.equal((await check(capture.id))?.attempts, 1);
      for (let hour = 0; hour < 23; hour += 1) await advance(HOUR);
      assert.equal(await resultOf(capture.id), '000.200.000');
      assert.ok((await check(capture.id))!.attempts >= 20, 'asked every hour');
      await advance(2 * HOUR);
      assert.equal(await resultOf(capture.id), '100.396.103');
      assert.equal((await check(capture.id))?.resolved_by, 'horizon');
      assert.equal((await parentTotals(auth.id)).captured, 0n);
      assert.equal(await updatedNotifications(capture.id), 1);
    });

    it('the sweep marks a payment still pending after the connector\'s timeout as pending long (the search reads those through their own index), and no other', async () => {
      const longPending = async (id: string) =>
        (await t.storage.query<{ long_pending: boolean }>('SELECT long_pending FROM transactions WHERE id = $1', [id])).rows[0]!.long_pending;
      const auth = (await cardPayment(t, merchant, 'PA', '31.00')).json();
      const capture = (await referencePayment(t, merchant, auth.id, 'CP', '9.97')).json();
      await advance(10_000);
      assert.equal(await longPending(capture.id), false, 'not within the connector\'s timeout (30 s): a request may still wait for its acquirer');
      await advance(MINUTE);
      assert.equal(await longPending(capture.id), true);
      await advance(5 * MINUTE);
      assert.equal(await resultOf(capture.id), '000.200.000', 'the status checks leave it pending');
      assert.equal(await longPending(auth.id), false, 'a decided payment is never marked');
      await advance(HOUR);
      assert.equal(await longPending(capture.id), true);
    });

    it('an operator resolves a pending refund by hand, with a reason that is kept; a second resolution is refused', async () => {
      const db = (await cardPayment(t, merchant, 'DB', '40.00')).json();
      const refund = (await referencePayment(t, merchant, db.id, 'RF', '9.97')).json();
      const resolve = (fields: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: `/admin/transactions/${refund.id}/resolve`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS }, payload: form(fields) });
      const missingReason = await resolve({ outcome: 'success' });
      assert.equal(missingReason.statusCode, 400);
      assert.equal(missingReason.json().result.parameterErrors[0].name, 'reason');
      assert.equal((await resolve({ outcome: 'maybe', reason: 'ticket 42' })).statusCode, 400);
      const listed = await t.app.inject({ method: 'GET', url: '/admin/pending', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      assert.ok(listed.json().pending.some((p: { transactionId: string }) => p.transactionId === refund.id));
      const done = await resolve({ outcome: 'success', reason: 'acquirer ticket 42: refund booked' });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().resultCode, '000.600.000');
      assert.equal(await resultOf(refund.id), '000.600.000');
      assert.deepEqual(await check(refund.id), { attempts: 0, resolved_by: 'operator', resolved_code: '000.600.000', reason: 'acquirer ticket 42: refund booked' });
      assert.equal((await parentTotals(db.id)).refunded, 997n, 'a successful refund keeps its amount');
      const again = await resolve({ outcome: 'rejected', reason: 'changed my mind' });
      assert.equal(again.statusCode, 400);
      assert.match(again.json().result.parameterErrors[0].message, /not pending/);
      assert.equal(await updatedNotifications(refund.id), 1);
      const unknown = await t.app.inject({ method: 'POST', url: `/admin/transactions/${'f'.repeat(32)}/resolve`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS }, payload: form({ outcome: 'success', reason: 'x'.repeat(10) }) });
      assert.equal(unknown.statusCode, 404);
    });

    it('a late live outcome does not change a resolved transaction, and an operator racing the job gives one end', async () => {
      const db = (await cardPayment(t, merchant, 'DB', '9.99')).json();
      const { writeSettledPayments, settledPayment } = await import('../../src/operations/payments/payment-writes.js');
      const { serialisedView, viewOfStored } = await import('../../src/operations/payments/payment-response.js');
      t.clock.advance(6 * MINUTE);
      const resolving = Promise.all([
        jobs.drain().then(() => jobs.drain()),
        t.app.inject({ method: 'POST', url: `/admin/transactions/${db.id}/resolve`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS }, payload: form({ outcome: 'rejected', reason: 'acquirer says never received' }) }),
      ]);
      const [, operator] = await resolving;
      const ended = await resultOf(db.id);
      // Either may win the row lock; the loser changes nothing.
      assert.ok(ended === '000.100.110' || ended === '100.397.102', ended);
      assert.equal(operator.statusCode, ended === '100.397.102' ? 200 : 400, operator.body);
      assert.equal(await updatedNotifications(db.id), 1);
      const notificationsOf = async () => Number((await t.storage.query<{ n: bigint }>('SELECT count(*)::int8 AS n FROM notifications WHERE transaction_id = $1', [db.id])).rows[0]!.n);
      const before = await notificationsOf();
      const late = settledPayment({ clock: t.clock, ids: { id: () => 'a'.repeat(32), tokenPassword: () => '' } }, {
        id: db.id, entityId: merchant.entityId, outcome: { kind: 'declined', code: '800.100.152', resultDetails: {} },
        view: serialisedView(viewOfStored({ id: db.id, result: { code: '800.100.152', description: 'late' } })), schemeTransactionId: null,
      });
      await writeSettledPayments(t.storage, [late]);
      assert.equal(await resultOf(db.id), ended, 'the late answer changed nothing');
      assert.equal(await updatedNotifications(db.id), 1);
      assert.equal(await notificationsOf(), before, 'the late answer wrote no notification');
    });

    it('a payment that created a registration and ends by its status answer settles the registration: usable after an approval, gone after a decline', async () => {
      const approved = (await cardPayment(t, merchant, 'DB', '9.99', { createRegistration: 'true' })).json();
      const declined = (await cardPayment(t, merchant, 'DB', '9.98', { createRegistration: 'true' })).json();
      assert.equal(approved.result.code, '000.200.000');
      await advance(6 * MINUTE);
      await advance(1);
      assert.equal(await resultOf(approved.id), '000.100.110');
      assert.equal(await resultOf(declined.id), '800.100.152');
      const paid = await payWithRegistration(t, merchant, approved.registrationId);
      assert.equal(paid.statusCode, 200, paid.body);
      assert.equal((await getRegistration(t, merchant, declined.registrationId)).json().result.code, '100.150.202', 'deregistered');
    });

    it('an operator racing the sweep and the check never meets a deadlock: one end, the other refused (40 rounds)', async () => {
      const { resolveManually } = await import('../../src/operations/pending/resolve-manually.js');
      for (let round = 0; round < 40; round += 1) {
        const db = (await cardPayment(t, merchant, 'DB', '9.99')).json();
        t.clock.advance(6 * MINUTE);
        const [, operator] = await Promise.allSettled([
          jobs.drain().then(() => jobs.drain()),
          resolveManually(t.app.gateway.payments, { transactionId: db.id, outcome: 'rejected', reason: 'acquirer says never received' }),
        ]);
        if (operator.status === 'rejected') assert.equal((operator.reason as { code?: string }).code, '200.300.404', `round ${round}: ${(operator.reason as Error).message}`);
        assert.ok(['000.100.110', '100.397.102'].includes(await resultOf(db.id)));
      }
    });

    it('a first check that runs only after the horizon (the workers were down) still asks: an approval (9.99) is booked, not ended unasked', async () => {
      const db = (await cardPayment(t, merchant, 'DB', '9.99')).json();
      assert.equal(db.result.code, '000.200.000');
      t.clock.advance(25 * HOUR);
      await jobs.drain();
      assert.equal(await resultOf(db.id), '000.100.110');
      assert.equal((await check(db.id))?.resolved_by, 'status');
      assert.equal(await updatedNotifications(db.id), 1);
    });
  });
}
