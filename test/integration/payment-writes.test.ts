import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { newTransactionState } from '../../src/domain/transaction.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { createPaymentWrites, writeSettledPayments, type RiskCheck, type SettledPayment } from '../../src/operations/payments/payment-writes.js';
import { reservationResults, reservationsCommitted, reserveChildren, type ChildReservation } from '../../src/operations/payments/reserve-children.js';
import { GatewayError } from '../../src/results/gateway-error.js';
import { prepareNotification } from '../../src/operations/webhooks/enqueue-notification.js';
import type { Storage } from '../../src/storage/port.js';
import type { FactsRequest } from '../../src/storage/repositories/risk-attempts.js';
import { findEvaluation } from '../../src/storage/repositories/risk-evaluations.js';
import { findTransaction, insertTransactions, lockTransaction, lockTransactions, type StoredTransaction } from '../../src/storage/repositories/transactions.js';
import { countingStorage } from '../support/counting-storage.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';

for (const database of testDatabases()) {
  describe(`payment writes by group commit on ${database.name}`, () => {
    let storage: Storage;
    let entityId: string;
    const clock = new ManualClock();
    const deps = () => ({ storage, clock, ids: randomIds });

    before(async () => {
      storage = await database.open();
      entityId = (await createEntity(deps(), { name: 'Shop' })).entityId;
    });
    after(() => storage.close());

    function pendingRow(amountMinor: bigint, owner = entityId): StoredTransaction {
      const id = randomIds.id();
      return {
        ...newTransactionState({ id, entityId: owner, paymentType: 'DB', status: 'pending', amountMinor, currency: 'EUR', createdAt: clock.now(), connectorId: 'simulator', resultCode: '000.200.000' }),
        parentId: null,
        routeId: null,
        idempotencyClaimId: null,
        isFinal: false,
        paymentBrand: 'VISA',
        paymentMethod: 'CC',
        merchantTransactionId: null,
        shortId: id.slice(0, 12),
        connectorReferences: {},
        schemeTransactionId: null,
        // Keys deliberately out of alphabetical order: the stored response must keep the order.
        response: { id, paymentType: 'DB', amount: '1.00', result: { code: '000.200.000', description: 'pending' } },
        updatedAt: clock.now(),
      };
    }

    function settled(row: StoredTransaction, code: string): SettledPayment {
      const response = { id: row.id, paymentType: 'DB', amount: '1.00', result: { code, description: 'done' }, card: { last4Digits: '0000', bin: '420000' } };
      return {
        outcome: { id: row.id, outcome: { status: 'success', resultCode: code, connectorReferences: { retrieval: 'r1' }, schemeTransactionId: `scheme-${row.id}`, responseJson: JSON.stringify(response) }, at: clock.now() },
        notification: prepareNotification({ entityId: row.entityId, type: 'PAYMENT', payload: response }, deps()),
      };
    }

    it('stores concurrent pending rows and outcomes in fewer statements than payments, exactly', async () => {
      const counted = countingStorage(storage);
      const writes = createPaymentWrites(counted.storage);
      const rows = Array.from({ length: 30 }, (_, n) => pendingRow(n === 0 ? 9_007_199_254_740_993n : BigInt(n * 100)));
      await Promise.all(rows.map((row) => writes.insertPending(row)));
      await Promise.all(rows.map((row) => writes.settle(settled(row, '000.100.110'))));
      assert.ok(counted.statements() < 2 * rows.length, `${counted.statements()} statements for ${rows.length} payments`);

      for (const row of rows) {
        const stored = (await findTransaction(storage, entityId, row.id))!;
        assert.equal(stored.amountMinor, row.amountMinor);
        assert.equal(stored.status, 'success');
        assert.equal(stored.resultCode, '000.100.110');
        assert.equal(stored.schemeTransactionId, `scheme-${row.id}`);
        assert.deepEqual(stored.connectorReferences, { retrieval: 'r1' });
        assert.deepEqual(Object.keys(stored.response), ['id', 'paymentType', 'amount', 'result', 'card']);
        assert.equal(stored.createdAt.getTime(), row.createdAt.getTime());
      }
      const { rows: notifications } = await storage.query('SELECT count(*)::int AS n FROM notifications');
      assert.equal(notifications[0]!['n'], 0, 'nobody listens, so no notification is written');
    });

    it('parses the group statements once per connection and plans them at every run', { skip: database.name !== 'postgres' && 'PGlite keeps no named statements' }, async () => {
      // A generic plan would be made from the table as it was after five runs (nearly empty):
      // a sequential scan kept for good. Eight runs on one connection must all be custom plans.
      const plans = await storage.transaction(async (tx) => {
        for (let n = 0; n < 8; n += 1) await insertTransactions(tx, [pendingRow(100n)]);
        const { rows } = await tx.query<{ generic_plans: string; custom_plans: string }>(
          "SELECT generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE name = 'insert_transactions'",
        );
        return rows;
      });
      assert.equal(plans.length, 1, 'the statement is kept under its name');
      assert.equal(plans[0]!.generic_plans, '0');
      assert.ok(Number(plans[0]!.custom_plans) >= 8, `${plans[0]!.custom_plans} custom plans`);
    });

    /** A capture of amountMinor from parentId, as entityId asks for it; refused (700.400.200) beyond the parent's amount. */
    function capture(parentId: string, amountMinor: bigint, asker = entityId): ChildReservation<string> {
      return {
        entityId: asker,
        parentId,
        plan(parent) {
          if (!parent) throw new GatewayError('700.400.580');
          if (parent.capturedMinor + amountMinor > parent.amountMinor) throw new GatewayError('700.400.200');
          const child = { ...pendingRow(amountMinor, parent.entityId), paymentType: 'CP' as const, parentId: parent.id };
          return { parent: { ...parent, capturedMinor: parent.capturedMinor + amountMinor, captureCount: parent.captureCount + 1, updatedAt: clock.now() }, child, result: child.id };
        },
      };
    }

    async function storedParent(amountMinor: bigint, owner = entityId): Promise<StoredTransaction> {
      const parent = { ...pendingRow(amountMinor, owner), paymentType: 'PA' as const, status: 'success' as const };
      await insertTransactions(storage, [parent]);
      return parent;
    }

    it('reserves concurrent captures in shared transactions, each decided against what the ones before it took', async () => {
      const counted = countingStorage(storage);
      const writes = createPaymentWrites(counted.storage);
      const [first, second] = [await storedParent(1000n), await storedParent(500n)];
      // 12 captures of 1.00 on 10.00 and 7 of 1.00 on 5.00, interleaved: 10 and 5 fit.
      const asks = [...Array.from({ length: 12 }, () => capture(first.id, 100n)), ...Array.from({ length: 7 }, () => capture(second.id, 100n))].sort(() => Math.random() - 0.5);
      const results = await Promise.allSettled(asks.map((ask) => writes.reserve(ask)));

      const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      assert.equal(refused.length, 4);
      for (const r of refused) assert.equal((r.reason as GatewayError).code, '700.400.200');
      assert.ok(counted.statements() < results.length, `${counted.statements()} statements for ${results.length} reservations`);
      for (const [parent, captured, children] of [[first, 1000n, 10], [second, 500n, 5]] as const) {
        const stored = (await findTransaction(storage, entityId, parent.id))!;
        assert.equal(stored.capturedMinor, captured);
        assert.equal(stored.captureCount, children);
        const { rows } = await storage.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE parent_id = $1', [parent.id]);
        assert.equal(rows[0]!.n, children);
      }
      for (const r of results) if (r.status === 'fulfilled') assert.equal((await findTransaction(storage, entityId, r.value))?.status, 'pending');
    });

    it('finds, after a reservation group\'s commit went unseen, which reservations the database holds (by the child each planned), and answers those with their planned result', async () => {
      const parent = await storedParent(1000n);
      const [committed, rolledBack, neverWritten] = [capture(parent.id, 100n), capture(parent.id, 200n), capture(parent.id, 300n)];
      const [written] = await storage.transaction((tx) => reserveChildren(tx, [committed]));
      await assert.rejects(storage.transaction(async (tx) => {
        await reserveChildren(tx, [rolledBack]);
        throw new Error('the connection is lost before COMMIT');
      }), /before COMMIT/);
      assert.deepEqual(await reservationsCommitted(storage, [committed, rolledBack, neverWritten]), [true, false, false]);
      assert.ok(written!.ok);
      assert.deepEqual(await reservationResults(storage, [committed]), [written!.value], 'the result its write planned: the child it made');
      assert.equal((await findTransaction(storage, entityId, parent.id))?.capturedMinor, 100n, 'only the committed share taken');
    });

    it('gives a reservation its parent only where the asking entity may see it: its own, or a channel\'s to its merchant', async () => {
      const writes = createPaymentWrites(storage);
      const channel = (await createEntity(deps(), { name: 'Shop channel', merchantId: entityId })).entityId;
      const stranger = (await createEntity(deps(), { name: 'Other shop' })).entityId;
      const channelParent = await storedParent(1000n, channel);
      const results = await Promise.allSettled([
        writes.reserve(capture(channelParent.id, 100n, stranger)),
        writes.reserve(capture(channelParent.id, 100n, entityId)),
        writes.reserve(capture(channelParent.id, 100n, channel)),
      ]);
      assert.equal(results[0]!.status, 'rejected');
      assert.equal(((results[0] as PromiseRejectedResult).reason as GatewayError).code, '700.400.580');
      assert.deepEqual(results.slice(1).map((r) => r.status), ['fulfilled', 'fulfilled']);
      assert.equal((await findTransaction(storage, channel, channelParent.id))?.capturedMinor, 200n);
    });

    it('locks the parents of a group in id order, so that groups sharing parents wait instead of deadlocking', { skip: database.name !== 'postgres' && 'PGlite runs one transaction at a time' }, async () => {
      const [low, high] = [await storedParent(100n), await storedParent(100n)].sort((a, b) => (a.id < b.id ? -1 : 1));
      let release!: () => void;
      let holding!: () => void;
      const held = new Promise<void>((resolve) => { holding = resolve; });
      const holder = storage.transaction(async (tx) => {
        await lockTransaction(tx, entityId, high!.id);
        holding();
        await new Promise<void>((resolve) => { release = resolve; });
      });
      await held;
      // Asked for the higher id first, the group still takes the lower one first, then waits.
      const group = storage.transaction((tx) => lockTransactions(tx, [{ id: high!.id, entityId }, { id: low!.id, entityId }]));
      for (let waited = 0; ; waited += 1) {
        const { rows } = await storage.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%AS asked_by%' AND query NOT LIKE '%pg_stat_activity%'",
        );
        if (rows[0]!.n > 0) break;
        assert.ok(waited < 200, 'the group never waited for the held parent');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await assert.rejects(storage.query('SELECT 1 FROM transactions WHERE id = $1 FOR UPDATE NOWAIT', [low!.id]), /could not obtain lock/);
      release();
      await holder;
      assert.equal((await group).size, 2);
    });

    it('plans the group writes once per connection, as index lookups, even when the plans were made on empty tables', { skip: database.name !== 'postgres' && 'PGlite keeps no plans' }, async () => {
      const fresh = await database.open();
      try {
        const shop = (await createEntity({ storage: fresh, clock, ids: randomIds }, { name: 'Fresh shop' })).entityId;
        const plan = await fresh.groupWrites!.transaction(async (tx) => {
          // The first runs make the plans while transactions holds one row …
          const first = pendingRow(100n, shop);
          await insertTransactions(tx, [first]);
          await writeSettledPayments(tx, [settled(first, '000.100.110')]);
          // … and they are kept while it grows: no ANALYZE comes (autovacuum is off in CI).
          for (let n = 0; n < 20; n += 1) await insertTransactions(tx, Array.from({ length: 200 }, () => pendingRow(100n, shop)));
          const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE settle_payments('[]', '[]')`);
          const { rows: statements } = await tx.query<{ name: string; generic_plans: string; custom_plans: string }>(
            "SELECT name, generic_plans::text, custom_plans::text FROM pg_prepared_statements WHERE name IN ('insert_transactions', 'settle_payments') ORDER BY name",
          );
          return { text: rows.map((r) => r['QUERY PLAN']).join('\n'), statements };
        });
        assert.deepEqual(plan.statements.map((s) => [s.name, s.custom_plans]), [['insert_transactions', '0'], ['settle_payments', '0']]);
        assert.match(plan.text, /Index Scan using transactions_pkey on transactions t[\s\S]*Index Cond: \(id = v\.id\)/);
        assert.doesNotMatch(plan.text, /Seq Scan|Hash Join|Merge Join/);
        assert.match(plan.text, /Index Scan using webhooks_entity_idx[\s\S]*Index Cond: \(entity_id = ANY/, 'webhooks are looked up per notification');
      } finally {
        await fresh.close();
      }
    });

    it('fails only the row that breaks a constraint when it shares a group with good ones', async () => {
      const writes = createPaymentWrites(storage);
      const good = Array.from({ length: 10 }, () => pendingRow(100n));
      const orphan = pendingRow(100n, randomIds.id());
      const results = await Promise.allSettled([...good.slice(0, 5), orphan, ...good.slice(5)].map((row) => writes.insertPending(row)));
      assert.deepEqual(results.map((r) => r.status), [...Array(5).fill('fulfilled'), 'rejected', ...Array(5).fill('fulfilled')]);
      assert.match(String((results[5] as PromiseRejectedResult).reason), /foreign key/);
      for (const row of good) assert.equal((await findTransaction(storage, entityId, row.id))?.status, 'pending');
      assert.equal(await findTransaction(storage, orphan.entityId, orphan.id), undefined);
    });

    it('writes a checked payment\'s attempt with its pending row and answers its read from the same statement, and nothing when the row fails', async () => {
      const counted = countingStorage(storage);
      const writes = createPaymentWrites(counted.storage);
      const nothingToRead = { counts: [], currency: 'EUR', probes: [], listEntityIds: [entityId] };
      const checkOf = (row: StoredTransaction, read: FactsRequest = nothingToRead): RiskCheck => ({
        attempt: { keys: [`card-${row.id}`, `ip-${row.id}`], at: clock.now(), amountMinor: row.amountMinor, currency: 'EUR', transactionId: row.id },
        read,
      });
      const good = Array.from({ length: 6 }, () => pendingRow(100n));
      const orphan = pendingRow(100n, randomIds.id());
      const unchecked = pendingRow(100n);
      const items: [StoredTransaction, RiskCheck | undefined][] = [...good.map((row) => [row, checkOf(row)] as [StoredTransaction, RiskCheck]), [orphan, checkOf(orphan)], [unchecked, undefined]];
      const results = await Promise.allSettled(items.map(([row, risk]) => writes.insertPending(row, risk)));
      assert.deepEqual(results.map((r) => r.status), [...Array(6).fill('fulfilled'), 'rejected', 'fulfilled']);
      assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : 'refused')), [...Array(6).fill({ counts: [], hits: [] }), 'refused', undefined]);

      const attemptsOf = async (id: string) => (await storage.query<{ key_hash: string; amount_minor: string }>('SELECT key_hash, amount_minor::text FROM risk_attempts WHERE transaction_id = $1 ORDER BY key_hash', [id])).rows;
      for (const row of good) assert.deepEqual(await attemptsOf(row.id), [{ key_hash: `card-${row.id}`, amount_minor: '100' }, { key_hash: `ip-${row.id}`, amount_minor: '100' }]);
      // The refused row's attempt is not counted: it never became a payment.
      assert.deepEqual(await attemptsOf(orphan.id), []);
      assert.deepEqual(await attemptsOf(unchecked.id), []);
      assert.equal((await findTransaction(storage, entityId, unchecked.id))?.status, 'pending');

      // Reads ride in the statements of pending rows: the earlier attempts counted (not the
      // statement's own), list entries found.
      await storage.query(
        "INSERT INTO risk_list_entries (entity_id, list, kind, value, shown, added_by, added_at) VALUES ($1, 'black', 'email', 'listed@example.com', 'listed@example.com', 'test', now())",
        [entityId],
      );
      const before = counted.statements();
      const since = new Date(clock.now().getTime() - 60_000);
      const more = Array.from({ length: 5 }, () => pendingRow(100n));
      const [read, listed, ...rest] = await Promise.all([
        writes.insertPending(more[0]!, checkOf(more[0]!, { counts: [{ i: 0, key: `card-${good[0]!.id}`, since, cap: 10, declines: true }, { i: 1, key: `card-${more[1]!.id}`, since, cap: 10, declines: false }], currency: 'EUR', probes: [{ kind: 'email', value: 'other@example.com' }], listEntityIds: [entityId] })),
        writes.insertPending(more[1]!, checkOf(more[1]!, { counts: [], currency: 'EUR', probes: [{ kind: 'email', value: 'listed@example.com', source: undefined }], listEntityIds: [entityId] })),
        ...more.slice(2).map((row, n) => writes.insertPending(row, n === 0 ? undefined : checkOf(row))),
      ]);
      assert.deepEqual(read!.counts, [{ i: 0, attempts: 1, declines: 0, amount: '100' }, { i: 1, attempts: 0, declines: 0, amount: '0' }]);
      assert.deepEqual(read!.hits, []);
      assert.deepEqual(listed!.hits, [{ list: 'black', kind: 'email', source: null }]);
      assert.deepEqual(rest, [undefined, { counts: [], hits: [] }, { counts: [], hits: [] }]);
      assert.ok(counted.statements() - before < 5, `${counted.statements() - before} statements for 5 rows`);
    });

    it('keeps the rules that fired with the outcome, and a later outcome without them keeps them', async () => {
      const writes = createPaymentWrites(storage);
      const [fired, quiet] = [pendingRow(100n), pendingRow(100n)];
      await Promise.all([writes.insertPending(fired), writes.insertPending(quiet)]);
      const evaluation = { decision: 'review', score: 500, fired: [{ rule: 'parameter', points: 500 }], ruleSetVersion: 3 };
      const pendingOutcome = (row: StoredTransaction, riskEvaluation?: object): SettledPayment => {
        const done = settled(row, '000.200.000');
        return { ...done, outcome: { ...done.outcome, outcome: { ...done.outcome.outcome, status: 'pending' }, riskEvaluation } };
      };
      await Promise.all([writes.settle(pendingOutcome(fired, evaluation)), writes.settle(pendingOutcome(quiet))]);
      assert.deepEqual(await findEvaluation(storage, quiet.id), undefined, 'no rule fired, no evaluation');
      const kept = await findEvaluation(storage, fired.id);
      assert.deepEqual({ decision: kept?.decision, score: kept?.score, fired: kept?.fired, ruleSetVersion: kept?.ruleSetVersion }, evaluation);
      // The shopper's return settles the payment later, without an evaluation of its own.
      await writes.settle(settled(fired, '000.100.110'));
      assert.equal((await findTransaction(storage, entityId, fired.id))?.status, 'success');
      assert.equal((await findEvaluation(storage, fired.id))?.score, 500);
    });
  });
}
