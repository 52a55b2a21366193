import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../../src/connectors/default-connectors.js';
import { ingestSettlement } from '../../../src/operations/settlement/ingest-settlement.js';
import { settlementSources } from '../../../src/operations/settlement/settlement-sources.js';
import { startAcquirerHost, type AcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, postPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { addDays } from '../../../src/domain/settlement/days.js';
import { SETTLEMENT_DELAY_DAYS } from '../../../src/connectors/simulator/settlement/rules.js';
import { form, FORM_HEADERS, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../../support/test-app.js';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...FORM_HEADERS };

for (const database of testDatabases()) {
  describe(`the acquirer host's settlement file on ${database.name}: one feed, read once`, () => {
    let host: AcquirerHost;
    let t: TestApp;
    let external: Merchant;
    let routed: Merchant;
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'iso-feed-'));
      let clock = () => new Date();
      host = await startAcquirerHost({ slowMs: 15_000, clock: () => clock(), settlementDir: dir });
      t = await startTestApp(await database.open(), {
        env: { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`, ACQUIRER_HOST_TIMEOUT_MS: '4000', ACQUIRER_HOST_POOL_SIZE: '2', ACQUIRER_HOST_SETTLEMENT: join(dir, 'settlement-{date}.txt') },
      });
      clock = () => t.clock.now();
      external = await t.createMerchant('Through testMode=EXTERNAL');
      routed = await t.createMerchant('Through a route to the acquirer host');
      const route = await t.app.inject({ method: 'POST', url: '/admin/routes', headers: admin, payload: form({ system: 'test', connector: ACQUIRER_HOST_CONNECTOR_ID, entity: routed.entityId }) });
      assert.equal(route.statusCode, 201, route.body);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      await host.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('stores each record once, under the acquirer host, and matches every one: the test platform\'s card payments and a route\'s alike', async () => {
      const paid: string[] = [];
      for (const merchant of [external, routed]) {
        const db = (await cardPayment(t, merchant, 'DB', '25.00', { testMode: 'EXTERNAL' })).json() as Record<string, any>;
        assert.equal(db.result.code, '000.100.112', JSON.stringify(db));
        const rf = (await referencePayment(t, merchant, db.id, 'RF', '5.00')).json() as Record<string, any>;
        assert.equal(rf.result.code, '000.100.112', JSON.stringify(rf));
        paid.push(db.id, rf.id);
      }
      const connectors = await t.storage.query<{ connector_id: string }>('SELECT DISTINCT connector_id FROM transactions WHERE id = ANY($1::char(32)[]) ORDER BY 1', [paid]);
      assert.deepEqual(connectors.rows.map((r) => r.connector_id), [ACQUIRER_HOST_CONNECTOR_ID, 'external-test-platform'], 'both kinds of payment are in the file');
      const day = t.clock.now().toISOString().slice(0, 10);
      const path = await host.writeSettlementFile(day);
      assert.equal(path, join(dir, `settlement-${day}.txt`));

      const summary = await ingestSettlement(t.app.gateway.payments, settlementSources(t.app.gateway.payments.connectors.registry), day);
      assert.equal(summary.records, 4, 'the file is read once');
      assert.equal(summary.matched, 4);
      const { rows } = await t.storage.query<{ connector_id: string; matching_status: string; record_id: string }>('SELECT connector_id, matching_status, record_id FROM settlement_records ORDER BY record_id');
      assert.equal(rows.length, 4, JSON.stringify(rows));
      assert.deepEqual(new Set(rows.map((r) => r.connector_id)), new Set([ACQUIRER_HOST_CONNECTOR_ID]));
      assert.deepEqual(new Set(rows.map((r) => r.matching_status)), new Set(['MATCHED']));
      assert.deepEqual(rows.map((r) => r.record_id).sort(), paid.map((id) => `${id}-S`).sort());

      const again = await ingestSettlement(t.app.gateway.payments, settlementSources(t.app.gateway.payments.connectors.registry), day);
      assert.equal(again.inserted, 0, 'delivered again, written never');
    });

    it('the test platform\'s own feed settles what its stub answered (a SEPA debit), never the card payments the host\'s file settles', async () => {
      const sepa = (await postPayment(t, external, {
        amount: '30.00', currency: 'EUR', paymentType: 'DB', testMode: 'EXTERNAL', paymentBrand: 'DIRECTDEBIT_SEPA',
        'bankAccount.holder': 'Jane Jones', 'bankAccount.iban': 'DE23100000001234567890', 'bankAccount.bic': 'MARKDEF1100', 'bankAccount.country': 'DE',
      })).json() as Record<string, any>;
      assert.equal(sepa.result.code, '000.100.112', JSON.stringify(sepa));
      assert.match(sepa.resultDetails.ConnectorTxID1, /^ETP-/);
      const card = (await cardPayment(t, external, 'DB', '7.00', { testMode: 'EXTERNAL' })).json() as Record<string, any>;
      assert.equal(card.result.code, '000.100.112');
      const day = t.clock.now().toISOString().slice(0, 10);
      const next = addDays(day, SETTLEMENT_DELAY_DAYS);
      await host.writeSettlementFile(day);
      await host.writeSettlementFile(next);
      const sources = settlementSources(t.app.gateway.payments.connectors.registry);
      await ingestSettlement(t.app.gateway.payments, sources, day);
      await ingestSettlement(t.app.gateway.payments, sources, next);
      const { rows } = await t.storage.query<{ connector_id: string; matching_status: string; matched: string }>(
        `SELECT connector_id, matching_status, matched_ids[1] AS matched FROM settlement_records WHERE record_type = 'SETTLED' AND matched_ids && $1::text[] ORDER BY connector_id`, [[sepa.id, card.id]]);
      assert.deepEqual(rows.map((r) => [r.connector_id, r.matched]), [[ACQUIRER_HOST_CONNECTOR_ID, card.id], ['external-test-platform', sepa.id]]);
    });
  });
}
