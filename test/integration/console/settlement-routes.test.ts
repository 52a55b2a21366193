/**
 * The console's settlement (issue 32): the batches of the settlement days, a batch with its matched
 * and unmatched records (matched ones linked to their payments, a card as its last four digits
 * only), the chargebacks with their reversals, for every role allowed and refused per the
 * PERMISSIONS table; a merchant's people see only their merchant's (another merchant's batch
 * answers 404); bad filters are answered 400 naming the field.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { SettlementRecord } from '../../../src/connectors/connector.js';
import { mayPerform } from '../../../src/domain/access/permissions.js';
import { isOperatorRole, ROLES, type Role } from '../../../src/domain/access/roles.js';
import { randomIds } from '../../../src/domain/ids.js';
import { ingestSettlement } from '../../../src/operations/settlement/ingest-settlement.js';
import { writeReconciliationFile } from '../../../src/operations/settlement/write-reconciliation-file.js';
import { consoleGet, signInAs, type ConsoleSession } from '../../support/console.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, SAMPLE_CARD, type Merchant } from '../../support/payments.js';
import { fixedSource } from '../../support/settlement.js';
import { json, startTestApp, type TestApp } from '../../support/test-app.js';

const DAY = '2026-11-22';

function recordOf(recordId: string, type: SettlementRecord['type'], reference: string, amountMinor: bigint, extra: Partial<SettlementRecord> = {}): SettlementRecord {
  return {
    recordId, type, status: 'SUCCESS', settlementDate: DAY, transactionDate: new Date(`${DAY}T10:00:00Z`),
    clearingInstitute: 'Hand-made Acquirer', batchId: `HAND-${DAY}`, paymentType: 'DB', amountMinor, currency: 'EUR',
    settlementAmountMinor: amountMinor, settlementCurrency: 'EUR', fxRate: '1', feeMinor: 25n, feeCurrency: 'EUR',
    connectorReferences: { ConnectorTxID1: reference },
    ...(type === 'SETTLED' ? {} : { resultCode: '000.100.220', reasonCode: '10.4' }),
    ...extra,
  };
}

async function paidDebit(t: TestApp, merchant: Merchant, amount: string): Promise<{ id: string; connectorId: string; reference: string }> {
  const response = await cardPayment(t, merchant, 'DB', amount, { testMode: 'EXTERNAL' });
  assert.equal(response.statusCode, 200, response.body);
  const id = json(response)['id'] as string;
  const { rows } = await t.storage.query<{ connector_id: string; reference: string }>(`SELECT connector_id, connector_references ->> 'ConnectorTxID1' AS reference FROM transactions WHERE id = $1`, [id]);
  return { id, connectorId: rows[0]!.connector_id, reference: rows[0]!.reference };
}

async function batchIdsOf(t: TestApp, merchantId: string): Promise<string[]> {
  const { rows } = await t.storage.query<{ id: string }>('SELECT id FROM settlement_aggregations WHERE merchant_id = $1', [merchantId]);
  return rows.map((r) => r.id);
}

for (const database of testDatabases()) {
  describe(`the console's settlement (${database.name})`, () => {
    let t: TestApp;
    let shopA: Merchant;
    let shopB: Merchant;
    let settledA: string;
    let chargedBackA: string;
    let paymentB: string;
    let batchA: string;
    let batchB: string;
    const sessions = new Map<Role, ConsoleSession>();
    const filesDir = mkdtempSync(join(tmpdir(), 'console-settlement-'));

    before(async () => {
      t = await startTestApp(await database.open(), { env: { LOG_LEVEL: 'warn', SETTLEMENT_FILES_DIR: filesDir } });
      shopA = await t.createMerchant('Shop A');
      shopB = await t.createMerchant('Shop B');
      const a1 = await paidDebit(t, shopA, '10.00');
      const a2 = await paidDebit(t, shopA, '40.00');
      const b1 = await paidDebit(t, shopB, '7.00');
      [settledA, chargedBackA, paymentB] = [a1.id, a2.id, b1.id];
      const file = fixedSource(a1.connectorId, [
        recordOf('S-A1', 'SETTLED', a1.reference, 1000n),
        recordOf('S-A2', 'SETTLED', a2.reference, 4000n),
        recordOf('S-UNKNOWN', 'SETTLED', 'NOBODY-KNOWS-THIS', 555n, { merchantEntityId: shopA.entityId }),
        recordOf('CB-A2', 'CHARGEBACK', a2.reference, 4000n, { feeMinor: 1500n }),
        recordOf('CR-A2', 'CHARGEBACK_REVERSAL', a2.reference, 4000n, { feeMinor: 0n }),
        recordOf('S-B1', 'SETTLED', b1.reference, 700n),
      ]);
      await ingestSettlement({ storage: t.storage, clock: t.clock, ids: randomIds }, [file], DAY);
      batchA = (await batchIdsOf(t, shopA.entityId))[0]!;
      batchB = (await batchIdsOf(t, shopB.entityId))[0]!;
      for (const shop of [shopA, shopB]) await writeReconciliationFile(t.storage, filesDir, shop.entityId, DAY);
      for (const role of ROLES) sessions.set(role, await signInAs(t, isOperatorRole(role) ? { role } : { role, merchantId: shopA.entityId }));
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      rmSync(filesDir, { recursive: true, force: true });
    });

    const session = (role: Role) => sessions.get(role)!;

    it('lists the batches to the roles that may see settlement, a merchant\'s people their own only; refuses the others (403)', async () => {
      assert.ok(batchA && batchB, 'each shop has a batch');
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), '/console/settlement');
        assert.equal(page.statusCode, mayPerform(role, 'settlement.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.ok(page.body.includes(`href="/console/settlement/batches/${batchA}"`), `${role} sees its merchant's batch`);
        assert.equal(page.body.includes(batchB), isOperatorRole(role), `${role} and shop B's batch`);
        assert.match(page.body, /HAND-2026-11-22/);
      }
      const byMerchant = await consoleGet(t, session('operator-read-only'), `/console/settlement?merchant=${shopB.entityId}&from=2026-11-01&to=2026-11-30&currency=eur`);
      assert.equal(byMerchant.statusCode, 200);
      assert.ok(byMerchant.body.includes(batchB) && !byMerchant.body.includes(batchA), 'the merchant filter');
      const otherDays = await consoleGet(t, session('operator-admin'), '/console/settlement?from=2026-11-23&to=2026-11-30');
      assert.ok(!otherDays.body.includes(batchA), 'the days filter');
      const otherCurrency = await consoleGet(t, session('operator-admin'), '/console/settlement?from=2026-11-01&to=2026-11-30&currency=USD');
      assert.ok(!otherCurrency.body.includes(batchA), 'the currency filter');
    });

    it('shows the navigation entry to the roles that may see settlement only', async () => {
      for (const role of ROLES) {
        const home = await consoleGet(t, session(role), '/console/account');
        assert.equal(home.body.includes('href="/console/settlement"'), mayPerform(role, 'settlement.view'), role);
      }
    });

    it('answers a bad filter with its field (400)', async () => {
      const cases: ReadonlyArray<[string, RegExp]> = [
        ['from=2026-13-01', /must be a day, yyyy-MM-dd/],
        ['to=yesterday', /must be a day, yyyy-MM-dd/],
        ['from=2026-11-30&to=2026-11-01', /must be on or before the last day/],
        ['from=2020-01-01&to=2026-11-01', /may span at most 366 days/],
        ['currency=EURO', /must be a currency code/],
        ['merchant=%27%3B--', /must be a merchant id/],
      ];
      for (const path of ['/console/settlement', '/console/settlement/chargebacks']) {
        for (const [query, message] of cases) {
          const page = await consoleGet(t, session('operator-admin'), `${path}?${query}`);
          assert.equal(page.statusCode, 400, `${path}?${query}`);
          assert.match(page.body, message);
          assert.match(page.body, /aria-invalid="true"/);
        }
        const merchantPerson = await consoleGet(t, session('finance'), `${path}?merchant=${shopB.entityId}`);
        assert.equal(merchantPerson.statusCode, 400);
        assert.match(merchantPerson.body, /only operators choose a merchant/, `${path} ${merchantPerson.statusCode} ${JSON.stringify(merchantPerson.headers)}`);
        assert.ok(!merchantPerson.body.includes(batchB));
      }
    });

    it('shows a batch with its totals, matched records linked to their payments and the unmatched one; never the card number', async () => {
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), `/console/settlement/batches/${batchA}`);
        assert.equal(page.statusCode, mayPerform(role, 'settlement.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.ok(page.body.includes(`href="/console/payments/${settledA}"`), 'the settled payment is linked');
        assert.ok(page.body.includes(`href="/console/payments/${chargedBackA}"`), 'the charged-back payment is linked');
        assert.match(page.body, /S-UNKNOWN/);
        assert.match(page.body, /not matched/);
        assert.match(page.body, /•••• 0000/);
        assert.ok(!page.body.includes(SAMPLE_CARD['card.number']) && !page.body.includes('420000'), 'no card number, not even its BIN');
        // settled 10.00 + 40.00 + 5.55; less 40.00 charged back, plus 40.00 reversed; fees 0.25 × 3 + 15.00.
        assert.match(page.body, /<dt>Settled<\/dt><dd>55\.55 EUR/);
        assert.match(page.body, /<dt>Fees<\/dt><dd>15\.75 EUR/);
        assert.match(page.body, /<dt>Net<\/dt><dd><strong>39\.80 EUR/);
      }
      const foreign = await consoleGet(t, session('merchant-admin'), `/console/settlement/batches/${batchB}`);
      const malformed = await consoleGet(t, session('merchant-admin'), '/console/settlement/batches/%27%3B--');
      const unknown = await consoleGet(t, session('operator-admin'), `/console/settlement/batches/${'0'.repeat(32)}`);
      assert.deepEqual([foreign.statusCode, malformed.statusCode, unknown.statusCode], [404, 404, 404]);
      assert.ok(!foreign.body.includes(paymentB), 'nothing of the other merchant\'s batch');
      const operator = await consoleGet(t, session('operator-support'), `/console/settlement/batches/${batchB}`);
      assert.equal(operator.statusCode, 200);
      assert.ok(operator.body.includes(`href="/console/payments/${paymentB}"`));
      const badPage = await consoleGet(t, session('operator-admin'), `/console/settlement/batches/${batchA}?page=9`);
      assert.equal(badPage.statusCode, 400);
      assert.match(badPage.body, /must be a page from 1 to 1/);
    });

    it('lists chargebacks and their reversals with the payment, amount, fee, reason and the gateway transaction they made', async () => {
      const { rows } = await t.storage.query<{ id: string; payment_type: string }>(`SELECT id, payment_type FROM transactions WHERE parent_id = $1 AND payment_type IN ('CB', 'CR') ORDER BY payment_type`, [chargedBackA]);
      assert.deepEqual(rows.map((r) => r.payment_type), ['CB', 'CR']);
      for (const role of ROLES) {
        const page = await consoleGet(t, session(role), '/console/settlement/chargebacks');
        assert.equal(page.statusCode, mayPerform(role, 'settlement.view') ? 200 : 403, role);
        if (page.statusCode !== 200) continue;
        assert.match(page.body, /Chargeback reversal/);
        assert.ok(page.body.includes(`href="/console/payments/${chargedBackA}"`), 'the payment charged back');
        for (const row of rows) assert.ok(page.body.includes(`href="/console/payments/${row.id}"`), `the ${row.payment_type} it made`);
        assert.match(page.body, /000\.100\.220/);
        assert.match(page.body, /scheme reason 10\.4/);
        assert.match(page.body, /15\.00/);
        assert.ok(page.body.includes(`href="/console/settlement/batches/${batchA}"`), 'its batch');
        assert.ok(!page.body.includes(settledA), 'a settled payment is no chargeback');
      }
      const otherShop = await consoleGet(t, session('operator-admin'), `/console/settlement/chargebacks?merchant=${shopB.entityId}`);
      assert.match(otherShop.body, /No chargeback in these days/);
    });

    it('streams the reconciliation file (the one SFTP serves) as an attachment to settlement.download; another merchant\'s is 404', async () => {
      const path = (merchantId: string, day = DAY) => `/console/settlement/files/${merchantId}/reconciliation-${day}.csv`;
      const onDisk = readFileSync(join(filesDir, shopA.entityId, `reconciliation-${DAY}.csv`), 'utf8');
      for (const role of ROLES) {
        const file = await consoleGet(t, session(role), path(shopA.entityId));
        assert.equal(file.statusCode, mayPerform(role, 'settlement.download') ? 200 : 403, role);
        if (file.statusCode !== 200) continue;
        assert.equal(file.headers['content-disposition'], `attachment; filename="reconciliation-${DAY}.csv"`);
        assert.match(String(file.headers['content-type']), /^text\/csv/);
        assert.equal(file.body, onDisk, 'byte for byte the file SFTP serves');
        assert.match(file.body, /^ReconciliationType;PaymentType;/);
        const batch = await consoleGet(t, session(role), `/console/settlement/batches/${batchA}`);
        assert.ok(batch.body.includes(`href="${path(shopA.entityId)}"`), 'the batch page links its file');
      }
      const noLink = await consoleGet(t, session('read-only'), `/console/settlement/batches/${batchA}`);
      assert.ok(!noLink.body.includes('/console/settlement/files/'), 'no link without settlement.download');
      const foreign = await consoleGet(t, session('finance'), path(shopB.entityId));
      const noDay = await consoleGet(t, session('operator-admin'), path(shopA.entityId, '2026-11-23'));
      const traversal = await consoleGet(t, session('operator-admin'), `/console/settlement/files/${shopA.entityId}/..%2F..%2Fetc%2Fpasswd`);
      const notHex = await consoleGet(t, session('operator-admin'), path('..'));
      assert.deepEqual([foreign.statusCode, noDay.statusCode, traversal.statusCode, notHex.statusCode], [404, 404, 404, 404]);
      assert.ok(!foreign.body.includes('ReconciliationType'));
      const operator = await consoleGet(t, session('operator-read-only'), path(shopB.entityId));
      assert.equal(operator.statusCode, 200);
      assert.ok(operator.body.includes(paymentB), 'shop B\'s file holds its payment');
    });
  });
}
