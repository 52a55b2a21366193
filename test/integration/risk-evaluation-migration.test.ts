import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { newTransactionState } from '../../src/domain/transaction.js';
import { createEntity } from '../../src/operations/admin/create-entity.js';
import { migrate } from '../../src/storage/migrate.js';
import type { Storage } from '../../src/storage/port.js';
import { findEvaluation } from '../../src/storage/repositories/risk-evaluations.js';
import { insertTransactions, type StoredTransaction } from '../../src/storage/repositories/transactions.js';
import { testDatabases } from '../support/databases.js';
import { ManualClock } from '../support/test-app.js';

/** The table migration 021 made and 024 folds into the transactions' rows, as it stood between them. */
const RISK_EVALUATIONS_OF_021 = `CREATE TABLE risk_evaluations (
  transaction_id  char(32) PRIMARY KEY,
  entity_id       char(32) NOT NULL REFERENCES entities (id),
  decision        text NOT NULL,
  score           integer NOT NULL,
  fired           jsonb NOT NULL,
  rule_set_version integer,
  created_at      timestamptz NOT NULL)`;

for (const database of testDatabases()) {
  describe(`migration 024 (risk evaluations kept in the transaction's row) on ${database.name}`, () => {
    let storage: Storage;
    const clock = new ManualClock();
    before(async () => { storage = await database.open(); });
    after(() => storage.close());

    function pendingRow(entityId: string): StoredTransaction {
      const id = randomIds.id();
      return {
        ...newTransactionState({ id, entityId, paymentType: 'DB', status: 'pending', amountMinor: 100n, currency: 'EUR', createdAt: clock.now(), connectorId: 'simulator', resultCode: '000.200.000' }),
        parentId: null, routeId: null, idempotencyClaimId: null, isFinal: false, paymentBrand: 'VISA', paymentMethod: 'CC',
        merchantTransactionId: null, shortId: id.slice(0, 12), connectorReferences: {}, schemeTransactionId: null, response: { id }, updatedAt: clock.now(),
      };
    }

    it('moves each evaluation into its transaction\'s row and drops the table, leaving unchecked payments without one', async () => {
      // The schema as it stood before 024: the table back, the column gone, 024 not yet applied.
      await storage.query('ALTER TABLE transactions DROP COLUMN risk_evaluation');
      await storage.query(RISK_EVALUATIONS_OF_021);
      await storage.query('DELETE FROM schema_migrations WHERE version = 24');
      const { entityId } = await createEntity({ storage, clock, ids: randomIds }, { name: 'Shop' });
      const [checked, unchecked] = [pendingRow(entityId), pendingRow(entityId)];
      await insertTransactions(storage, [checked, unchecked]);
      await storage.query(
        "INSERT INTO risk_evaluations VALUES ($1, $2, 'review', 120, '[{\"rule\":\"velocity\",\"points\":120}]', 3, now())",
        [checked.id, entityId],
      );

      assert.deepEqual(await migrate(storage), [24]);

      const moved = await findEvaluation(storage, checked.id);
      assert.deepEqual(
        { entityId: moved?.entityId, decision: moved?.decision, score: moved?.score, fired: moved?.fired, ruleSetVersion: moved?.ruleSetVersion },
        { entityId, decision: 'review', score: 120, fired: [{ rule: 'velocity', points: 120 }], ruleSetVersion: 3 },
      );
      assert.equal(await findEvaluation(storage, unchecked.id), undefined);
      const { rows } = await storage.query<{ name: string | null }>("SELECT to_regclass('risk_evaluations')::text AS name");
      assert.equal(rows[0]?.name, null, 'the table is gone');
    });
  });
}
