import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SettlementRecord } from '../../src/connectors/connector.js';
import { dayOf } from '../../src/domain/settlement/days.js';
import { randomIds } from '../../src/domain/ids.js';
import { silentLogger } from '../../src/jobs/job-types.js';
import { settleDayHandler } from '../../src/jobs/settle-day.js';
import { ingestSettlement } from '../../src/operations/settlement/ingest-settlement.js';
import { runSettlementDay, SettlementDayNotEnded } from '../../src/operations/settlement/run-settlement-day.js';
import { settlementSources } from '../../src/operations/settlement/settlement-sources.js';
import { testDatabases } from '../support/databases.js';
import { runCli } from '../support/gateway-process.js';
import { cardPayment, type Merchant } from '../support/payments.js';
import { DAY_MS, fixedSource } from '../support/settlement.js';
import { json, ManualClock, withAppAndMerchant, type TestApp } from '../support/test-app.js';

const HOUR_MS = 3_600_000;

function handRecord(recordId: string, type: SettlementRecord['type'], reference: string): SettlementRecord {
  return {
    recordId, type, status: 'SUCCESS', settlementDate: '2026-11-21', transactionDate: new Date('2026-11-21T10:00:00Z'),
    clearingInstitute: 'Hand-made Acquirer', batchId: 'HAND-2026-11-21', paymentType: 'DB', amountMinor: 2500n, currency: 'EUR',
    settlementAmountMinor: 2500n, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 0n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: reference }, resultCode: '000.100.220',
  };
}

/** How many SETTLED records of the day name each of these payments. */
async function timesSettled(t: TestApp, day: string, ids: readonly string[]): Promise<number[]> {
  const { rows } = await t.storage.query<{ id: string }>(
    `SELECT unnest(matched_ids) AS id FROM settlement_records WHERE settlement_date = $1::date AND record_type = 'SETTLED'`,
    [day],
  );
  return ids.map((id) => rows.filter((r) => r.id === id).length);
}

async function paid(t: TestApp, merchant: Merchant, amount: string): Promise<string> {
  const response = await cardPayment(t, merchant, 'DB', amount);
  assert.equal(response.statusCode, 200, response.body);
  return json(response)['id'] as string;
}

describe('settlement run --date on the command line', () => {
  const today = dayOf(new Date());
  const tomorrow = dayOf(new Date(Date.now() + DAY_MS));
  const databases = [{ name: 'embedded', env: {} as Record<string, string> }];
  if (process.env['TEST_DATABASE_URL']) databases.push({ name: 'postgres', env: { DATABASE_URL: process.env['TEST_DATABASE_URL'] } });
  for (const database of databases) {
    it(`refuses a day that has not ended, today or later, with a clear error and exit code 2 (${database.name})`, async () => {
      for (const day of [today, tomorrow]) {
        const run = await runCli(['settlement', 'run', '--date', day], database.env);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.match(run.stderr, new RegExp(`settlement day ${day} has not ended yet`));
      }
    });
  }
});

for (const database of testDatabases()) {
  describe(`settlement days that have not ended, and days settled again (${database.name})`, () => {
    let t: TestApp;
    let merchant: Merchant;
    const filesDir = mkdtempSync(join(tmpdir(), 'settle-days-'));
    after(() => rmSync(filesDir, { recursive: true, force: true }));
    withAppAndMerchant(() => database.open(), {}, (app, m) => {
      t = app;
      merchant = m;
    });
    const deps = () => ({ storage: t.storage, clock: t.clock, ids: randomIds });

    it('refuses to run a day before it has ended, and notes nothing', async () => {
      // The clock says 2026-11-22 10:00.
      for (const day of ['2026-11-22', '2026-11-23']) {
        await assert.rejects(runSettlementDay(deps(), [], filesDir, day), SettlementDayNotEnded);
      }
      const { rows } = await t.storage.query<{ n: number }>('SELECT count(*)::int AS n FROM settlement_days');
      assert.equal(rows[0]!.n, 0);
    });

    it('settles a day again: what was applied stays applied once, what is new is added, only changed files are written', async () => {
      const paymentId = await paid(t, merchant, '25.00');
      const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(
        `SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [paymentId],
      );
      const { connector_id: connectorId, reference } = rows[0]!;
      const chargeback = handRecord('HAND-CB', 'CHARGEBACK', reference);
      const first = await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback])], filesDir, '2026-11-21');
      assert.deepEqual([first.ingest.inserted, first.ingest.chargebacks, first.files.length], [1, 1, 1]);
      const reversal = handRecord('HAND-CR', 'CHARGEBACK_REVERSAL', reference);
      const second = await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback, reversal, reversal])], filesDir, '2026-11-21');
      assert.deepEqual([second.ingest.inserted, second.ingest.chargebacks, second.files.length], [1, 1, 1]);
      assert.equal(second.files[0]!.lines, 2);
      const third = await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback, reversal])], filesDir, '2026-11-21');
      assert.deepEqual([third.ingest.inserted, third.ingest.chargebacks, third.files.length], [0, 0, 0], 'nothing new: no file written or pushed again');
      const pushedAgain: string[] = [];
      const rewrite = await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback, reversal])], filesDir, '2026-11-21', async (merchantId) => {
        pushedAgain.push(merchantId);
        return true;
      }, { rewriteFiles: true });
      assert.deepEqual([rewrite.ingest.inserted, rewrite.files.length, rewrite.files[0]!.lines, rewrite.files[0]!.pushed], [0, 1, 2, 'yes'], 'asked to: the file written and pushed again, nothing applied again');
      assert.deepEqual(pushedAgain, [merchant.entityId]);
      const children = await t.storage.query<{ payment_type: string; n: number }>(
        `SELECT payment_type, count(*)::int AS n FROM transactions WHERE parent_id = $1 GROUP BY 1 ORDER BY 1`, [paymentId],
      );
      assert.deepEqual(children.rows.map((r) => [r.payment_type, r.n]), [['CB', 1], ['CR', 1]]);
      const refunded = await t.storage.query<{ refunded_minor: bigint }>('SELECT refunded_minor FROM transactions WHERE id = $1', [paymentId]);
      assert.equal(BigInt(refunded.rows[0]!.refunded_minor), 0n);
    });

    it('a run settling a day again that dies after ingesting new records still writes them into the file next time', async () => {
      const paymentId = await paid(t, merchant, '25.00');
      const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(
        `SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [paymentId],
      );
      const { connector_id: connectorId, reference } = rows[0]!;
      const day = '2026-11-20';
      const ofDay = (record: SettlementRecord): SettlementRecord => ({ ...record, settlementDate: day, batchId: `HAND-${day}` });
      const chargeback = ofDay(handRecord('CRASH-CB', 'CHARGEBACK', reference));
      const reversal = ofDay(handRecord('CRASH-CR', 'CHARGEBACK_REVERSAL', reference));
      await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback])], filesDir, day);
      // The run of the next day settles this one again: it stores the reversal, then dies before writing the file.
      await ingestSettlement(deps(), [fixedSource(connectorId, [chargeback, reversal])], day);
      await runSettlementDay(deps(), [fixedSource(connectorId, [chargeback, reversal])], filesDir, day);
      const file = readFileSync(join(filesDir, merchant.entityId, `reconciliation-${day}.csv`), 'utf8');
      assert.equal(file.trim().split('\n').length, 3, 'the header, the chargeback and its reversal');
    });

    it('a day run early by a clock ahead is completed by the next daily run: the payments made later that day are settled', async () => {
      // The gateway's clock: 2026-11-22 10:00. A worker whose clock is 41 hours ahead runs the
      // daily job at what it takes for 2026-11-24 03:00: it settles 2026-11-23, whose file holds
      // the payments of 2026-11-22, while that day still goes on.
      const early = await paid(t, merchant, '10.00');
      const ahead = new ManualClock(new Date(t.clock.now().getTime() + 41 * HOUR_MS));
      const sources = () => settlementSources(t.app.gateway.payments.connectors.registry);
      const job = (clock: ManualClock) => settleDayHandler({
        operations: { storage: t.storage, clock, ids: randomIds }, sources, filesDir, runAtMinuteUtc: 120,
        window: { catchUpDays: 3, settleAgainDays: 2 }, logger: silentLogger,
      });
      await Promise.all(job(ahead).start([{} as never]));
      assert.deepEqual(await timesSettled(t, '2026-11-23', [early]), [1]);

      t.clock.advance(10 * HOUR_MS); // 2026-11-22 20:00: a payment later that day
      const later = await paid(t, merchant, '12.00');
      t.clock.advance(7 * HOUR_MS); // 2026-11-23 03:00: the run of 2026-11-22, nothing due for 2026-11-23 yet
      await Promise.all(job(t.clock).start([{} as never]));
      assert.deepEqual(await timesSettled(t, '2026-11-23', [early, later]), [1, 0]);

      t.clock.advance(DAY_MS); // 2026-11-24 03:00: the run of 2026-11-23 settles it again
      const [result] = await Promise.all(job(t.clock).start([{} as never]));
      assert.deepEqual(result!.runAgainAt, new Date('2026-11-25T02:00:00Z'));
      assert.deepEqual(await timesSettled(t, '2026-11-23', [early, later]), [1, 1], 'each payment settled once');
      const file = readFileSync(join(filesDir, merchant.entityId, 'reconciliation-2026-11-23.csv'), 'utf8');
      assert.ok(file.includes(early) && file.includes(later), "the day's file has both");
      await Promise.all(job(t.clock).start([{} as never]));
      assert.deepEqual(await timesSettled(t, '2026-11-23', [early, later]), [1, 1], 'and still once after another run');
    });
  });
}
