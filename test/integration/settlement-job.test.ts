import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { randomIds } from '../../src/domain/ids.js';
import { latestDueDay, SETTLE_DAY_JOB, settleDayHandler } from '../../src/jobs/settle-day.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { settlementSources } from '../../src/operations/settlement/settlement-sources.js';
import { testDatabases } from '../support/databases.js';
import { cardPayment } from '../support/payments.js';
import { DAY_MS } from '../support/settlement.js';
import { withAppAndMerchant, type TestApp } from '../support/test-app.js';
import type { Merchant } from '../support/payments.js';

describe('when the daily settlement run is due', () => {
  it('is the day that ended at midnight once its run time has come, else the day before; never a day that has not ended', () => {
    assert.equal(latestDueDay(new Date('2026-11-23T01:59:59Z'), 120), '2026-11-21');
    assert.equal(latestDueDay(new Date('2026-11-23T02:00:00Z'), 120), '2026-11-22');
    assert.equal(latestDueDay(new Date('2026-11-23T23:59:59Z'), 0), '2026-11-22');
  });
});

for (const database of testDatabases()) {
  describe(`the daily settle-day job (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const filesDir = mkdtempSync(join(tmpdir(), 'settle-job-'));
    after(() => rmSync(filesDir, { recursive: true, force: true }));
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });

    it('is queued by the migration, catches up on missed days, writes the files and plans the next day', async () => {
      const { rows } = await t.storage.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1`, [SETTLE_DAY_JOB]);
      assert.equal(rows[0]!.n, 1);
      assert.equal((await cardPayment(t, merchant, 'DB', '10.00')).statusCode, 200);
      t.clock.advance(2 * DAY_MS - 7 * 3_600_000); // 2026-11-24 03:00, after the 02:00 run time of 2026-11-23
      const handler = settleDayHandler({
        operations: { storage: t.storage, clock: t.clock, ids: randomIds },
        sources: () => settlementSources(t.app.gateway.payments.connectors.registry),
        filesDir, runAtMinuteUtc: 120, window: { catchUpDays: 3, settleAgainDays: 0 }, logger: silentLogger,
      });
      const [result] = await Promise.all(handler.start([{} as never]));
      assert.deepEqual(result!.runAgainAt, new Date('2026-11-25T02:00:00Z'));
      const days = await t.storage.query<{ day: string }>(`SELECT to_char(settlement_date, 'YYYY-MM-DD') AS day FROM settlement_days ORDER BY 1`);
      assert.deepEqual(days.rows.map((r) => r.day), ['2026-11-21', '2026-11-22', '2026-11-23']);
      assert.ok(existsSync(join(filesDir, merchant.entityId, 'reconciliation-2026-11-23.csv')));
      // Done days are not done again.
      const [again] = await Promise.all(handler.start([{} as never]));
      assert.deepEqual(again!.runAgainAt, new Date('2026-11-25T02:00:00Z'));
    });
  });
}
