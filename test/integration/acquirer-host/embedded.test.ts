import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../../src/connectors/default-connectors.js';
import { ingestSettlement } from '../../../src/operations/settlement/ingest-settlement.js';
import { settlementSources } from '../../../src/operations/settlement/settlement-sources.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { ManualClock, startTestApp, type TestApp } from '../../support/test-app.js';

const EXTERNAL = { testMode: 'EXTERNAL' };

/** Listening servers and open TCP sockets of this process. */
function tcpResources(): { servers: number; sockets: number } {
  const resources = process.getActiveResourcesInfo();
  return { servers: resources.filter((r) => r === 'TCPServerWrap').length, sockets: resources.filter((r) => r === 'TCPSocketWrap').length };
}

async function settled(check: () => boolean): Promise<void> {
  for (let waited = 0; !check() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

for (const database of testDatabases()) {
  describe(`testMode=EXTERNAL without ACQUIRER_HOST_URL on ${database.name}: the gateway embeds the acquirer host emulator`, () => {
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      t = await startTestApp(await database.open());
      merchant = await t.createMerchant();
    });
    after(async () => {
      await t.close();
      await t.storage.close();
    });

    it('a card payment goes over ISO 8583 through the real connector, its refund too; INTERNAL stays with the simulator', async () => {
      const db = (await cardPayment(t, merchant, 'DB', '25.00', EXTERNAL)).json() as Record<string, any>;
      assert.equal(db.result.code, '000.100.112', JSON.stringify(db));
      assert.equal(db.resultDetails.clearingInstituteName, 'Acquirer Host Emulator');
      assert.equal(db.resultDetails.AcquirerResponse, '00');
      assert.match(db.resultDetails.ConnectorTxID1, /^\d{12}$/, 'the host\'s RRN, not a stub reference');
      const rf = (await referencePayment(t, merchant, db.id, 'RF', '5.00')).json() as Record<string, any>;
      assert.equal(rf.result.code, '000.100.112', JSON.stringify(rf));
      const declined = (await cardPayment(t, merchant, 'DB', '12.00', { ...EXTERNAL, 'card.number': '4000000000000002' })).json() as Record<string, any>;
      assert.equal(declined.result.code, '800.100.152', 'the host\'s table: do not honour');
      assert.equal(declined.resultDetails.AcquirerResponse, '05');
      const internal = (await cardPayment(t, merchant, 'DB', '25.00')).json() as Record<string, any>;
      assert.equal(internal.result.code, '000.100.110');

      const day = t.clock.now().toISOString().slice(0, 10);
      const summary = await ingestSettlement(t.app.gateway.payments, settlementSources(t.app.gateway.payments.connectors.registry), day);
      const { rows } = await t.storage.query<{ connector_id: string; matching_status: string; record_id: string }>(`SELECT connector_id, matching_status, record_id FROM settlement_records WHERE record_id = ANY($1::text[])`, [[`${db.id}-S`, `${rf.id}-S`]]);
      assert.deepEqual(rows.map((r) => [r.connector_id, r.matching_status]), [[ACQUIRER_HOST_CONNECTOR_ID, 'MATCHED'], [ACQUIRER_HOST_CONNECTOR_ID, 'MATCHED']], 'the embedded host\'s own file settles them');
      assert.ok(summary.records >= 2);
    });
  });
}

describe('the embedded acquirer host lives and dies with its app', () => {
  it('ten apps opened and closed leave no listener and no connection behind', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    try {
      const baseline = tcpResources();
      let vault: TestApp['vault'] | undefined;
      for (let round = 0; round < 10; round++) {
        // One card vault for every app over this database (each would otherwise bring a master key of its own).
        const t = await startTestApp(storage, vault ? { vault } : {});
        vault = t.vault;
        const merchant = await t.createMerchant();
        assert.equal(tcpResources().servers, baseline.servers + 1, 'one listener while the app is open');
        const paid = (await cardPayment(t, merchant, 'DB', '10.00', EXTERNAL)).json() as Record<string, any>;
        assert.equal(paid.result.code, '000.100.112');
        await t.close();
        // A closed handle leaves the list on a later turn of the event loop.
        await settled(() => tcpResources().servers === baseline.servers && tcpResources().sockets === baseline.sockets);
      }
      assert.deepEqual(tcpResources(), baseline);
    } finally {
      await storage.close();
    }
  });

  it('a gateway started again the same day hands out no RRN its previous run gave (settlement matches by it)', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    try {
      const rrns: string[] = [];
      let vault: TestApp['vault'] | undefined;
      for (const at of ['2026-11-22T10:00:00.000Z', '2026-11-22T10:05:00.000Z']) {
        const t = await startTestApp(storage, { overrides: { clock: new ManualClock(new Date(at)) }, ...(vault ? { vault } : {}) });
        vault = t.vault;
        const merchant = await t.createMerchant();
        const paid = (await cardPayment(t, merchant, 'DB', '10.00', EXTERNAL)).json() as Record<string, any>;
        assert.equal(paid.result.code, '000.100.112');
        rrns.push(paid.resultDetails.ConnectorTxID1);
        await t.close();
      }
      assert.notEqual(rrns[0], rrns[1]);
    } finally {
      await storage.close();
    }
  });

  it('where the gateway is not the only process (WORKERS_IN_GATEWAY=false) it embeds nothing and refuses EXTERNAL card payments: 600.200.700', async () => {
    const [database] = testDatabases();
    const storage = await database!.open();
    const before = tcpResources();
    const t = await startTestApp(storage, { env: { WORKERS_IN_GATEWAY: 'false' } });
    try {
      assert.equal(tcpResources().servers, before.servers, 'no emulator started');
      const merchant = await t.createMerchant();
      const refused = await cardPayment(t, merchant, 'DB', '10.00', EXTERNAL);
      assert.equal(refused.json().result.code, '600.200.700', refused.body);
      assert.equal((await cardPayment(t, merchant, 'DB', '10.00')).json().result.code, '000.100.110', 'INTERNAL is unaffected');
    } finally {
      await t.close();
      await storage.close();
    }
  });
});
