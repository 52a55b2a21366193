/**
 * The console's payment search and export on both databases: every filter finds what it should,
 * a merchant's person never sees another merchant's payment (results or export), keyset pages
 * cover every row exactly once with ties, the CSV holds what the search finds with formulas
 * neutralised.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Visibility } from '../../../src/domain/access/actor.js';
import { parsePaymentSearch, type PaymentSearch } from '../../../src/domain/payment-search/search-filter.js';
import { exportPayments } from '../../../src/operations/console/export-payments.js';
import { searchPaymentsPage, type SearchPage } from '../../../src/operations/console/search-payments.js';
import { outcomeGroupOf } from '../../../src/domain/outcome-group.js';
import { resultCodes } from '../../../src/results/catalogue.js';
import type { Storage } from '../../../src/storage/port.js';
import { searchPayments } from '../../../src/storage/repositories/payment-search.js';
import { markLongPending } from '../../../src/storage/repositories/pending-checks.js';
import { testDatabases } from '../../support/databases.js';
import { hexId, insertEntity, insertPayments, type SeedPayment } from '../../support/payment-search.js';
import { leaderReads } from '../../../src/storage/replica/replica-reads.js';

const merchantA = hexId('merchant A');
const a1 = hexId('channel a1');
const a2 = hexId('channel a2');
const merchantB = hexId('merchant B');
const b1 = hexId('channel b1');
const merchantC = hexId('merchant C');
const c1 = hexId('channel c1');
const t0 = new Date('2026-11-01T10:00:00.000Z');
const day = (n: number) => new Date(t0.getTime() + n * 86_400_000);

const PAYMENTS: SeedPayment[] = [
  { name: 'a-visa', entityId: a1, createdAt: t0, bin: '411111', last4: '1111', holder: 'Anna Müller', email: 'anna@example.com', ip: '10.0.0.1', merchantTransactionId: 'order-1', shortId: '1234.5678.0001', amountMinor: 1250n },
  { name: 'a-master', entityId: a2, createdAt: day(1), bin: '522222', last4: '2222', holder: '=HYPERLINK("http://evil.test")', email: 'ben@example.com', ip: '2001:db8::2', amountMinor: 99n, currency: 'USD', brand: 'MASTER', paymentType: 'PA', status: 'rejected', resultCode: '800.100.151', connectorId: 'iso8583' },
  { name: 'a-pending', entityId: a1, createdAt: day(2), status: 'pending', resultCode: '000.200.000', currency: 'CHF', brand: null, amountMinor: 500000n, merchantTransactionId: null },
  { name: 'b-visa', entityId: b1, createdAt: t0, bin: '411111', last4: '1111', holder: 'ANNA   Müller ', email: 'ANNA@example.com', ip: '10.0.0.1', merchantTransactionId: 'order-1', shortId: '1234.5678.0001', amountMinor: 1250n },
  { name: 'b-refund', entityId: b1, createdAt: day(3), paymentType: 'RF', amountMinor: 1250n, currency: 'JPY', resultCode: '000.000.000', connectorId: 'iso8583' },
];
const OF_A = new Set(['a-visa', 'a-master', 'a-pending']);

// [form, what an operator finds]; a person of merchant A finds the same without B's.
const CASES: [Record<string, string>, string[]][] = [
  [{}, ['a-visa', 'a-master', 'a-pending', 'b-visa', 'b-refund']],
  [{ id: hexId('a-visa') }, ['a-visa']],
  [{ merchantTransactionId: 'order-1' }, ['a-visa', 'b-visa']],
  [{ shortId: '1234.5678.0001' }, ['a-visa', 'b-visa']],
  [{ bin: '411111' }, ['a-visa', 'b-visa']],
  [{ last4: '2222' }, ['a-master']],
  [{ holder: 'anna MÜLLER' }, ['a-visa', 'b-visa']],
  [{ holder: 'Anna' }, []],
  [{ email: 'Anna@Example.com' }, ['a-visa', 'b-visa']],
  [{ ip: '10.0.0.1' }, ['a-visa', 'b-visa']],
  [{ ip: '2001:DB8::2' }, ['a-master']],
  [{ amountFrom: '12.5', amountTo: '12,50' }, ['a-visa', 'b-visa', 'b-refund']],
  [{ amountTo: '1' }, ['a-master']],
  [{ amountFrom: '5000' }, ['a-pending']],
  [{ currency: 'usd' }, ['a-master']],
  [{ currency: 'JPY' }, ['b-refund']],
  [{ brand: 'MASTER' }, ['a-master']],
  [{ paymentType: 'RF' }, ['b-refund']],
  [{ result: '800.100.151' }, ['a-master']],
  [{ result: 'declined' }, ['a-master']],
  [{ result: 'pending' }, ['a-pending']],
  [{ status: 'pending' }, ['a-pending']],
  [{ channel: a2 }, ['a-master']],
  [{ channel: b1 }, ['b-visa', 'b-refund']],
  [{ connector: 'iso8583' }, ['a-master', 'b-refund']],
  [{ from: '2026-11-02', to: '2026-11-03' }, ['a-master', 'a-pending']],
  [{ bin: '411111', holder: 'anna müller', channel: a1 }, ['a-visa']],
  // Migration 062's indexes leave pending rows out: a search by what they hold reads those apart.
  [{ currency: 'CHF' }, ['a-pending']],
  [{ currency: 'CHF', status: 'pending' }, ['a-pending']],
  [{ currency: 'CHF', status: 'success' }, []],
  [{ currency: 'usd', status: 'rejected' }, ['a-master']],
  [{ amountFrom: '1', sort: 'amount' }, ['a-visa', 'a-pending', 'b-visa', 'b-refund']],
  [{ result: '000.200.000', status: 'pending' }, ['a-pending']],
];

function searchOf(form: Record<string, string>): PaymentSearch {
  const parsed = parsePaymentSearch(form);
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
  return parsed.search;
}

const names = (page: SearchPage) => page.rows.map((row) => PAYMENTS.find((p) => hexId(p.name) === row.id)?.name ?? row.id).sort();
const ALL: Visibility = { kind: 'all' };
const OF_MERCHANT_A: Visibility = { kind: 'merchant', merchantId: merchantA };

for (const database of testDatabases()) {
  describe(`payment search (${database.name})`, () => {
    let storage: Storage;
    before(async () => {
      storage = await database.open();
      for (const [merchant, channels] of [[merchantA, [a1, a2]], [merchantB, [b1]], [merchantC, [c1]]] as const) {
        await insertEntity(storage, merchant, 'merchant', null);
        for (const channel of channels) await insertEntity(storage, channel, 'channel', merchant);
      }
      await insertPayments(storage, PAYMENTS);
    });
    after(() => storage.close());

    for (const [form, expected] of CASES) {
      it(`${JSON.stringify(form)} finds ${expected.join(', ') || 'nothing'}; merchant A's person only A's`, async () => {
        const search = searchOf(form);
        assert.deepEqual(names(await searchPaymentsPage({ reads: leaderReads(storage) }, ALL, search, undefined)), [...expected].sort());
        assert.deepEqual(names(await searchPaymentsPage({ reads: leaderReads(storage) }, OF_MERCHANT_A, search, undefined)), expected.filter((n) => OF_A.has(n)).sort());
      });
    }

    it('finds a pending row the same once the sweep has marked it pending long (migration 064: it is then read through another index)', async () => {
      const before = await Promise.all(CASES.map(([form]) => searchPaymentsPage({ reads: leaderReads(storage) }, ALL, searchOf(form), undefined).then(names)));
      assert.equal(await markLongPending(storage, { createdBefore: day(2), limit: 10 }), 1);
      try {
        for (const [i, [form, expected]] of CASES.entries()) {
          const search = searchOf(form);
          assert.deepEqual(names(await searchPaymentsPage({ reads: leaderReads(storage) }, ALL, search, undefined)), before[i], JSON.stringify(form));
          assert.deepEqual(names(await searchPaymentsPage({ reads: leaderReads(storage) }, OF_MERCHANT_A, search, undefined)), expected.filter((n) => OF_A.has(n)).sort());
        }
      } finally {
        await storage.query('UPDATE transactions SET long_pending = false');
      }
    });

    it('finds the same rows whichever way the visible entities enter the query', async () => {
      const entityIds = [merchantA, a1, a2];
      for (const [form] of CASES) {
        for (const sort of [{}, { sort: 'amount' }, { order: 'asc' }] as Record<string, string>[]) {
          const search = searchOf({ ...form, ...sort });
          const groupCodes = search.filter.resultGroup ? [...resultCodes.keys()].filter((code) => outcomeGroupOf(code) === search.filter.resultGroup) : null;
          const [any, perEntity] = await Promise.all((['any', 'per-entity'] as const).map((strategy) =>
            searchPayments(storage, { search, entityIds, groupCodes, cursor: undefined, limit: 2, strategy })));
          assert.deepEqual(perEntity!.map((r) => r.id), any!.map((r) => r.id), JSON.stringify({ ...form, ...sort }));
        }
      }
    });

    it('backfills the terms of rows written before migration 048 as the gateway makes them', async () => {
      const before = await storage.query<{ id: string; search_terms: string[] }>('SELECT id, search_terms FROM transactions ORDER BY id');
      await storage.query('UPDATE transactions SET search_terms = NULL');
      const backfill = readFileSync(new URL('../../../src/storage/migrations/048_payment_search.sql', import.meta.url), 'utf8').match(/^UPDATE transactions[^;]*;/m)![0];
      await storage.query(backfill.slice(0, -1));
      const after = await storage.query<{ id: string; search_terms: string[] }>('SELECT id, search_terms FROM transactions ORDER BY id');
      assert.deepEqual(after.rows, before.rows);
    });

    it('never shows a person of merchant A a payment of B, even asked for by id', async () => {
      const page = await searchPaymentsPage({ reads: leaderReads(storage) }, OF_MERCHANT_A, searchOf({ id: hexId('b-visa') }), undefined);
      assert.deepEqual(page.rows, []);
    });

    it('shows card data as BIN and last four only, with the channel name', async () => {
      const [row] = (await searchPaymentsPage({ reads: leaderReads(storage) }, ALL, searchOf({ id: hexId('a-visa') }), undefined)).rows;
      assert.equal(row?.bin, '411111');
      assert.equal(row?.last4, '1111');
      assert.equal(row?.holder, 'Anna Müller');
      assert.equal(row?.entityName, `channel ${a1.slice(0, 6)}`);
      assert.equal(row?.amountMinor, 1250n);
      assert.match(row?.createdAt ?? '', /^2026-11-01T10:00:00\.000000Z$/);
    });

    it('writes the terms of the search on every insert, as migration 048 computes them', async () => {
      const { rows } = await storage.query<{ same: boolean }>(
        `SELECT search_terms = payment_search_terms(response, merchant_transaction_id, currency, payment_brand, payment_type) AS same FROM transactions`);
      assert.ok(rows.length >= PAYMENTS.length && rows.every((r) => r.same));
    });

    it('exports merchant A\'s search as CSV: their rows only, formulas neutralised', async () => {
      const csv = await text(exportPayments({ reads: leaderReads(storage) }, OF_MERCHANT_A, searchOf({})));
      const records = parse(csv, { columns: true }) as Record<string, string>[];
      assert.deepEqual(records.map((r) => r['id']).sort(), [...OF_A].map(hexId).sort());
      const master = records.find((r) => r['id'] === hexId('a-master'))!;
      assert.equal(master['holder'], `'=HYPERLINK("http://evil.test")`);
      assert.equal(master['amount'], '0.99');
      assert.equal(master['bin'], '522222');
      assert.equal(master['last4'], '2222');
      assert.equal(csv.split('\n')[0], 'id,created_at,entity_id,entity_name,payment_type,status,result_code,amount,currency,payment_brand,bin,last4,holder,customer_email,customer_ip,merchant_transaction_id,short_id,connector');
    });

    describe('keyset pages (merchant C: 23 payments, many sharing a time or an amount)', () => {
      const tied: SeedPayment[] = Array.from({ length: 23 }, (_, i) => ({
        name: `tie-${i}`, entityId: c1, createdAt: new Date(t0.getTime() + Math.floor(i / 7) * 1000), amountMinor: BigInt(100 * Math.floor(i / 4)),
        // Some pending among them: a page by amount or by a term merges decided and pending rows.
        ...(i % 5 === 2 ? { status: 'pending', resultCode: '000.200.000' } : {}),
      }));
      const OF_C: Visibility = { kind: 'merchant', merchantId: merchantC };
      before(async () => {
        await insertPayments(storage, tied);
        // Three of the five pending rows marked pending long: a page merges both parts of the pending rows too.
        assert.equal(await markLongPending(storage, { createdBefore: new Date(t0.getTime() + 1000), limit: 100 }), 3);
      });

      for (const form of [{}, { order: 'asc' }, { sort: 'amount' }, { sort: 'amount', order: 'asc' }, { currency: 'EUR' }, { currency: 'EUR', sort: 'amount', order: 'asc' }] as Record<string, string>[]) {
        it(`${JSON.stringify(form)}: forward and back, every row exactly once`, async () => {
          const search = searchOf(form);
          const forward: SearchPage[] = [];
          let cursor: string | undefined;
          do {
            const page = await searchPaymentsPage({ reads: leaderReads(storage) }, OF_C, search, cursor, 5);
            forward.push(page);
            cursor = page.next;
          } while (cursor !== undefined);
          const ids = forward.flatMap((p) => p.rows.map((r) => r.id));
          assert.equal(ids.length, 23);
          assert.equal(new Set(ids).size, 23);
          assert.equal(forward[0]!.previous, undefined);
          const backward: string[][] = [];
          cursor = forward[forward.length - 1]!.previous;
          while (cursor !== undefined) {
            const page = await searchPaymentsPage({ reads: leaderReads(storage) }, OF_C, search, cursor, 5);
            backward.unshift(page.rows.map((r) => r.id));
            cursor = page.previous;
          }
          assert.deepEqual(backward, forward.slice(0, -1).map((p) => p.rows.map((r) => r.id)));
        });
      }
    });
  });
}
