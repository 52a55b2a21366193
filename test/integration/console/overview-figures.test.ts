/**
 * The overview's figures against the API's own answers: a month of payments, declines, refunds,
 * a pending payment and chargebacks made through the real operations (the payment API, the
 * settlement ingest), rolled up halfway through the month by the job's operation (two pending
 * payments counted then are declined later) and again up to two days before the end; then every
 * figure of the overview (rollup and live rows together) equals what GET /v1/query returns for the
 * same period, number for number, and again once the job has caught up.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettlementRecord } from '../../../src/connectors/connector.js';
import { outcomeGroupOf } from '../../../src/domain/outcome-group.js';
import { parseAmount } from '../../../src/domain/money.js';
import { parseOverviewForm } from '../../../src/domain/overview/overview-period.js';
import { randomIds } from '../../../src/domain/ids.js';
import { loadOverview, type Overview } from '../../../src/operations/overview/load-overview.js';
import { rollUpOverview } from '../../../src/operations/overview/roll-up-overview.js';
import { ingestSettlement } from '../../../src/operations/settlement/ingest-settlement.js';
import { consoleGet, signInAs } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { resolutionWorker } from '../../support/resolution.js';
import { fixedSource } from '../../support/settlement.js';
import { bearer, json, withAppAndMerchant, type TestApp } from '../../support/test-app.js';

const DAY_MS = 86_400_000;
const DECLINING = ['4000000000000002', '4000000000009995', '4000000000000010'];

function chargebackRecord(recordId: string, reference: string, amountMinor: bigint, currency: string): SettlementRecord {
  return {
    recordId, type: 'CHARGEBACK', status: 'SUCCESS', settlementDate: '2026-12-10', transactionDate: new Date('2026-12-10T10:00:00Z'),
    clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-2026-12-10', paymentType: 'DB', amountMinor, currency,
    settlementAmountMinor: amountMinor, settlementCurrency: currency, fxRate: '1', feeMinor: 0n, feeCurrency: currency,
    connectorReferences: { ConnectorTxID1: reference }, resultCode: '000.100.220', reasonCode: '20',
  };
}

/** A month of mixed traffic, one day at a time on the test clock; the rollup job runs mid-month. */
async function seedMonth(t: TestApp, merchant: Merchant): Promise<void> {
  const debits: string[] = [];
  for (let d = 0; d < 30; d += 1) {
    const debit = json(await cardPayment(t, merchant, 'DB', `${10 + d}.25`));
    debits.push(debit['id']);
    await cardPayment(t, merchant, 'PA', `${5 + d}.00`, { currency: 'USD' });
    await cardPayment(t, merchant, 'DB', '12.00', { 'card.number': DECLINING[d % DECLINING.length]! });
    if (d % 4 === 0) await cardPayment(t, merchant, 'DB', '30.00', { paymentBrand: 'MASTER', 'card.number': '5555555555554444', currency: 'GBP' });
    if (d % 3 === 0) await referencePayment(t, merchant, debit['id'], 'RF', '5.00');
    if (d === 7 || d === 25) await cardPayment(t, merchant, 'DB', '9.97'); // no answer in time: pending (the first one decided on day 17)
    if (d === 3) await cardPayment(t, merchant, 'DB', '9.98'); // pending; declined when the status query asks (day 17)
    if (d === 17) {
      const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM overview_open o JOIN transactions t USING (id) WHERE t.amount_minor = 998 AND t.status = 'pending'`);
      assert.equal(rows[0]!.n, 1, 'the rollup counted the 9.98 payment while pending');
      const resolution = resolutionWorker(t);
      await resolution.drain();
    }
    if (d === 15) while (!(await rollUpOverview({ storage: t.storage, clock: t.clock })).caughtUp);
    if (d === 18) {
      const { rows } = await t.storage.query<{ id: string; connector_id: string; reference: string; amount_minor: bigint }>(
        `SELECT id, connector_id, connector_references ->> 'ConnectorTxID1' AS reference, amount_minor FROM transactions WHERE id = ANY($1::char(32)[]) ORDER BY created_at LIMIT 2`, [debits]);
      const records = rows.map((row, i) => chargebackRecord(`CB-${i}`, row.reference, BigInt(row.amount_minor), 'EUR'));
      const summary = await ingestSettlement({ storage: t.storage, clock: t.clock, ids: randomIds }, [fixedSource(rows[0]!.connector_id, records)], '2026-12-10');
      assert.equal(summary.chargebacks, 2);
    }
    t.clock.advance(DAY_MS);
  }
}

/** What GET /v1/query answers for the period and these payment types. */
async function queried(t: TestApp, merchant: Merchant, paymentTypes: string): Promise<Record<string, any>[]> {
  const query = new URLSearchParams({ entityId: merchant.entityId, 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-12-22 00:00:00', paymentTypes, limit: '500' });
  const answer = await t.app.inject({ method: 'GET', url: `/v1/query?${query}`, headers: bearer(merchant.accessToken) });
  assert.equal(answer.statusCode, 200, answer.body);
  const payments = json(answer)['payments'] as Record<string, any>[];
  assert.ok(payments.length < 500, 'the whole period in one answer');
  return payments;
}

const tally = <T,>(items: readonly T[], key: (item: T) => string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};
const statusOf = (p: Record<string, any>): string => {
  const group = outcomeGroupOf(p['result']['code']);
  return group === 'success' ? 'success' : group === 'pending' ? 'pending' : 'rejected';
};
const minor = (p: Record<string, any>): bigint => parseAmount(p['amount']);

function assertEqualToQuery(overview: Overview, payments: Record<string, any>[], refunds: Record<string, any>[], chargebacks: Record<string, any>[]): void {
  const f = overview.figures;
  const approved = payments.filter((p) => statusOf(p) === 'success');
  const declined = payments.filter((p) => statusOf(p) === 'rejected');
  assert.equal(f.approved, approved.length, 'approved');
  assert.equal(f.declined, declined.length, 'declined');
  assert.equal(f.approvalRate, approved.length / (approved.length + declined.length));
  const currencies = new Set([...payments, ...refunds, ...chargebacks].map((p) => p['currency'] as string));
  assert.deepEqual(new Set(f.byCurrency.map((row) => row.currency)), currencies);
  for (const row of f.byCurrency) {
    const of = (list: Record<string, any>[]) => list.filter((p) => p['currency'] === row.currency);
    assert.equal(row.payments, of(payments).length, `${row.currency} payments`);
    assert.equal(row.approved, of(approved).length, `${row.currency} approved`);
    assert.equal(row.approvedMinor, of(approved).reduce((sum, p) => sum + minor(p), 0n), `${row.currency} volume`);
    const refunded = of(refunds).filter((p) => statusOf(p) === 'success');
    assert.equal(row.refunds, refunded.length, `${row.currency} refunds`);
    assert.equal(row.refundedMinor, refunded.reduce((sum, p) => sum + minor(p), 0n), `${row.currency} refunded`);
    assert.equal(row.chargebacks, of(chargebacks).length, `${row.currency} chargebacks`);
    assert.equal(row.chargebackMinor, of(chargebacks).reduce((sum, p) => sum + minor(p), 0n), `${row.currency} charged back`);
  }
  assert.equal(f.chargebacks, chargebacks.length);
  assert.equal(f.chargebackRatio, chargebacks.length / approved.length);
  const groups = tally(declined, (p) => outcomeGroupOf(p['result']['code']));
  assert.deepEqual(new Map(f.declinesByGroup.map((row) => [row.group, row.count])), groups, 'declines by reason group');
  const decided = payments.filter((p) => statusOf(p) !== 'pending');
  assert.deepEqual(new Map(f.byBrand.map((row) => [row.key, row.decided])), tally(decided, (p) => p['paymentBrand']), 'decided by brand');
  assert.deepEqual(new Map(f.byBrand.map((row) => [row.key, row.declined])), new Map(f.byBrand.map((row) => [row.key, tally(declined, (p) => p['paymentBrand']).get(row.key) ?? 0])), 'declined by brand');
}

for (const database of testDatabases()) {
  describe(`console overview figures equal /v1/query's (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('counts a month of payments, declines, refunds, a pending payment and chargebacks as the query API does', async () => {
      await seedMonth(t, merchant);
      const parsed = parseOverviewForm({ period: 'custom', from: '2026-11-22', to: '2026-12-21' }, t.clock.now());
      assert.ok(parsed.ok);
      const [payments, refunds, chargebacks] = [await queried(t, merchant, 'DB,PA'), await queried(t, merchant, 'RF'), await queried(t, merchant, 'CB')];
      assert.equal(chargebacks.length, 2);
      assert.equal(payments.filter((p) => statusOf(p) === 'pending').length, 1, 'the payment of day 25 is still pending');
      // The job as it would have run two days ago: it recounts the pending payments decided since
      // its mid-month run; the last two days are read live from transactions.
      const twoDaysAgo = { now: () => new Date(t.clock.now().getTime() - 2 * DAY_MS) };
      while (!(await rollUpOverview({ storage: t.storage, clock: twoDaysAgo })).caughtUp);
      const asMerchant = await loadOverview({ storage: t.storage }, { kind: 'merchant', merchantId: merchant.entityId }, parsed.request);
      assertEqualToQuery(asMerchant, payments, refunds, chargebacks);
      // The month is mixed as meant: three currencies, two brands, declines, refunds.
      assert.deepEqual(asMerchant.figures.byCurrency.map((row) => row.currency).sort(), ['EUR', 'GBP', 'USD']);
      assert.deepEqual(asMerchant.figures.byBrand.map((row) => row.key).sort(), ['MASTER', 'VISA']);
      assert.equal(asMerchant.figures.declined, 32, 'thirty declined cards, and the two pending payments the status query declined');
      assert.equal(asMerchant.figures.byCurrency.find((row) => row.currency === 'EUR')!.refunds, 10);
      const pending = payments.filter((p) => statusOf(p) === 'pending').length;
      assert.equal(asMerchant.backlog.count, pending, 'the pending payments wait');
      assert.ok(payments.some((p) => p['amount'] === '9.98' && statusOf(p) === 'rejected'), 'the 9.98 payment was declined after the rollup counted it pending');

      // After the job caught up with the rest of the month (and a second run changes nothing).
      while (!(await rollUpOverview({ storage: t.storage, clock: t.clock })).caughtUp);
      await rollUpOverview({ storage: t.storage, clock: t.clock });
      const rolled = await loadOverview({ storage: t.storage }, { kind: 'merchant', merchantId: merchant.entityId }, parsed.request);
      assert.deepEqual(rolled.figures, asMerchant.figures, 'the rollup counts what the live read counted');
      const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM overview_open');
      assert.equal(rows[0]!.n, pending, 'the pending payments stay open, the decided one left');

      // The page shows the same figures.
      const session = await signInAs(t, { role: 'finance', merchantId: merchant.entityId });
      const page = await consoleGet(t, session, '/console/overview?period=custom&from=2026-11-22&to=2026-12-21');
      assert.equal(page.statusCode, 200, page.body);
      const approvedEur = asMerchant.figures.byCurrency.find((row) => row.currency === 'EUR')!;
      assert.ok(page.body.includes(`${(Number(approvedEur.approvedMinor) / 100).toFixed(2)}`), 'the EUR volume');
      assert.ok(page.body.includes(`${((asMerchant.figures.approvalRate ?? 0) * 100).toFixed(1)} %`), 'the approval rate');
    });
  });
}
