import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Iso8583Connector } from '../../../src/connectors/iso8583/connector.js';
import { ACQUIRER_HOST_CONNECTOR_ID } from '../../../src/connectors/default-connectors.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { REVERSAL_ADVICE_JOB, reversalAdviceHandler } from '../../../src/jobs/send-reversal-advice.js';
import { startAcquirerHost, type AcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment, getPayment, referencePayment, SAMPLE_CARD, type Merchant } from '../../support/payments.js';
import { resolutionWorker } from '../../support/resolution.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

const EXTERNAL = { testMode: 'EXTERNAL' };

/** The app's own ISO 8583 connector: its pool is closed after the suite. */
function isoConnector(t: TestApp): Iso8583Connector {
  return t.app.gateway.payments.connectors.registry.connectorById(ACQUIRER_HOST_CONNECTOR_ID) as Iso8583Connector;
}

function adviceWorker(t: TestApp): JobWorker {
  return new JobWorker({
    storage: t.storage,
    clock: t.clock,
    handlers: [reversalAdviceHandler({ registry: t.app.gateway.payments.connectors.registry, clock: t.clock, logger: silentLogger })],
    logger: silentLogger,
    concurrency: 8,
    batchSize: 16,
    pollIntervalMs: 5,
    leaseMs: 60_000,
    sweepIntervalMs: 30_000,
  });
}

async function advicesWaiting(t: TestApp, transactionId: string): Promise<number> {
  const { rows } = await t.storage.query<{ n: bigint }>(`SELECT count(*) AS n FROM jobs WHERE kind = $1 AND payload->'original'->>'transactionId' = $2`, [REVERSAL_ADVICE_JOB, transactionId]);
  return Number(rows[0]!.n);
}

for (const database of testDatabases()) {
  describe(`testMode=EXTERNAL through the acquirer host emulator on ${database.name}`, () => {
    let host: AcquirerHost;
    let t: TestApp;
    let merchant: Merchant;
    before(async () => {
      host = await startAcquirerHost({ slowMs: 15_000 });
      t = await startTestApp(await database.open(), { env: { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`, ACQUIRER_HOST_TIMEOUT_MS: '4000', ACQUIRER_HOST_POOL_SIZE: '2' } });
      merchant = await t.createMerchant();
    });
    after(async () => {
      isoConnector(t).close();
      await t.close();
      await t.storage.close();
      await host.close();
    });

    const pay = async (paymentType: string, amount: string, extra: Record<string, string> = {}) => {
      const response = await cardPayment(t, merchant, paymentType, amount, { ...EXTERNAL, ...extra });
      return { status: response.statusCode, body: response.json() as Record<string, any> };
    };
    const follow = async (id: string, paymentType: string, amount?: string) => {
      const response = await referencePayment(t, merchant, id, paymentType, amount);
      return { status: response.statusCode, body: response.json() as Record<string, any> };
    };

    it('PA, CP and RF: 000.100.112, the acquirer\'s references in resultDetails, the host\'s ledger agrees', async () => {
      const pa = await pay('PA', '30.00', { 'billing.postcode': '10115', 'billing.country': 'DE', 'billing.city': 'Berlin', 'billing.street1': 'Hauptstrasse 1' });
      assert.equal(pa.body.result.code, '000.100.112');
      assert.equal(pa.body.resultDetails.AcquirerResponse, '00');
      assert.match(pa.body.resultDetails.ConnectorTxID1, /^\d{12}$/);
      assert.equal(pa.body.resultDetails.clearingInstituteName, 'Acquirer Host Emulator');
      assert.equal(host.ledger.get(pa.body.id)?.kind, 'authorization');
      const cp = await follow(pa.body.id, 'CP', '30.00');
      assert.equal(cp.body.result.code, '000.100.112');
      const rf = await follow(cp.body.id, 'RF', '10.00');
      assert.equal(rf.body.result.code, '000.100.112');
      assert.equal(host.ledger.get(cp.body.id)?.originalTransactionId, pa.body.id);
      assert.equal(host.ledger.childrenTotal(cp.body.id, 'refund'), 1000n);
      assert.ok(!JSON.stringify(host.ledger.toJSON()).includes(SAMPLE_CARD['card.number']), 'the host keeps only the last four digits');
    });

    it('DB then RV: the host reverses it; CD is a credit', async () => {
      const db = await pay('DB', '12.00');
      assert.equal(db.body.result.code, '000.100.112');
      const rv = await follow(db.body.id, 'RV');
      assert.equal(rv.body.result.code, '000.100.112');
      assert.equal(host.ledger.charged(db.body.id), false);
      const cd = await pay('CD', '5.00');
      assert.equal(cd.body.result.code, '000.100.112');
      assert.equal(host.ledger.get(cd.body.id)?.kind, 'credit');
    });

    it('a declining card: 400 with the catalogue code of field 39', async () => {
      const declined = await pay('DB', '12.00', { 'card.number': '4000000000000002' });
      assert.equal(declined.status, 400);
      assert.equal(declined.body.result.code, '800.100.152');
      assert.equal(declined.body.resultDetails.AcquirerResponse, '05');
      assert.equal(host.ledger.charged(declined.body.id), false);
    });

    for (const row of [{ name: 'a timeout', amount: '666.01' }, { name: 'a dropped connection', amount: '666.02' }]) {
      it(`${row.name}: pending, a reversal advice until acknowledged, then the host holds no charge and the status check ends it`, async () => {
        const db = await pay('DB', row.amount);
        assert.equal(db.body.result.code, '000.200.000', 'pending, never success');
        assert.equal(host.ledger.charged(db.body.id), true, 'the host booked it without the gateway knowing');
        assert.equal(await advicesWaiting(t, db.body.id), 1);
        const worker = adviceWorker(t);
        while ((await worker.runOnce()) > 0);
        assert.equal(await advicesWaiting(t, db.body.id), 0, 'acknowledged: the job is done');
        assert.equal(host.ledger.charged(db.body.id), false);
        assert.equal(host.ledger.get(db.body.id)?.reversedBy, 'advice');
        t.clock.advance(6 * 60_000);
        await resolutionWorker(t).drain();
        const stored = (await getPayment(t, merchant, db.body.id)).json() as Record<string, any>;
        assert.equal(stored.result.code, '900.100.301');
      });
    }

    for (const row of [{ name: 'a partial approval (10)', amount: '666.06' }, { name: 'a code no table knows', amount: '666.07' }, { name: 'no field 39', amount: '666.08' }, { name: 'an approval for another amount', amount: '666.09' }]) {
      it(`${row.name}: declined 900.100.200 with a reversal advice; afterwards the host holds no charge either`, async () => {
        const db = await pay('DB', row.amount);
        assert.equal(db.status, 400);
        assert.equal(db.body.result.code, '900.100.200', 'a rejection, never a success nor a plain decline');
        assert.equal(host.ledger.charged(db.body.id), true, 'the host booked it');
        assert.equal(await advicesWaiting(t, db.body.id), 1);
        const worker = adviceWorker(t);
        while ((await worker.runOnce()) > 0);
        assert.equal(await advicesWaiting(t, db.body.id), 0);
        assert.equal(host.ledger.charged(db.body.id), false, 'the gateway and the host agree: nothing charged');
        assert.equal(host.ledger.get(db.body.id)?.reversedBy, 'advice');
      });
    }

    it('50 concurrent refunds of one payment: exactly as many approved by the gateway and by the host', async () => {
      const db = await pay('DB', '10.00');
      const refunds = await Promise.all(Array.from({ length: 50 }, () => follow(db.body.id, 'RF', '1.00')));
      const approved = refunds.filter((r) => r.body.result.code === '000.100.112');

      assert.equal(approved.length, 10);
      assert.equal(host.ledger.childrenTotal(db.body.id, 'refund'), 1000n);
      const hostApproved = host.ledger.entries().filter((e) => e.originalTransactionId === db.body.id && e.approved).map((e) => e.gatewayTransactionId).sort();
      assert.deepEqual(hostApproved, approved.map((r) => r.body.id).sort());
    });

    it('the pool\'s events reach the log: connect and sign-on, a close by the host with its reason', async () => {
      assert.equal((await pay('DB', '3.00')).body.result.code, '000.100.112');
      const lines = () => t.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(lines().some((line) => line['msg'] === 'acquirer link connected and signed on' && line['connector'] === 'acquirer-host' && typeof line['link'] === 'number'));
      host.dropConnections();
      const deadline = Date.now() + 10_000;
      while (!lines().some((line) => line['msg'] === 'acquirer link closed' && line['reason'] === 'closed-by-host') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.ok(lines().some((line) => line['msg'] === 'acquirer link closed' && line['reason'] === 'closed-by-host'));
      assert.ok(!t.logs.text.includes(SAMPLE_CARD['card.number']), 'nothing from inside a message');
    });
  });
}
