/**
 * SIGKILL a real gateway (on PostgreSQL) while it sends testMode=EXTERNAL card payments to the
 * acquirer host emulator, some of which the host answers too late; start it again and let the
 * pending resolution and the reversal advices run. Then the gateway and the host agree on every
 * transaction: a success is charged at the host, anything else is not (reversed, declined or
 * never seen), and nothing stays pending.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import { startAcquirerHost } from '../../emulators/acquirer-host/server.js';
import { openStage, SUCCESS_CODE, testDatabaseUrl } from './support/fault-setup.js';

const url = testDatabaseUrl();
const WORKERS = 16;
const ANSWERS_BEFORE_KILL = 150;

function env(port: number): Record<string, string> {
  // Status checks and advices in seconds instead of minutes.
  return { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${port}`, ACQUIRER_HOST_TIMEOUT_MS: '800', CONNECTOR_TIMEOUT_MS: '2000', PENDING_CHECK_DELAYS_MINUTES: '0.05,0.05', PENDING_SWEEP_INTERVAL_MS: '300' };
}

async function pendingCount(admin: { query: <T>(sql: string) => Promise<{ rows: T[] }> }): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'pending'`);
  return Number(rows[0]!.n);
}

describe('SIGKILL of a gateway talking ISO 8583, then the pending resolution', { skip: url ? false : 'TEST_DATABASE_URL not set: the kill test needs PostgreSQL' }, () => {
  it('leaves the gateway and the acquirer host agreeing on every transaction', { timeout: 240_000 }, async () => {
    const host = await startAcquirerHost({ slowMs: 1_500 });
    const stage = await openStage(url!, 'fault_acquirer', (u) => u, env(host.port));
    try {
      let answers = 0;
      let stopping = false;
      const worker = async (n: number): Promise<void> => {
        for (let i = 0; !stopping; i += 1) {
          // One payment in ten is answered too late by the host: it becomes pending and is reversed.
          const amount = (i + n) % 10 === 0 ? '666.01' : `${10 + ((i + n) % 40)}.00`;
          const body = new URLSearchParams({ entityId: stage.merchant.entityId, paymentType: 'DB', amount, currency: 'EUR', testMode: 'EXTERNAL', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' });
          try {
            await fetch(`${stage.gateway.url}/v1/payments`, { method: 'POST', headers: { authorization: `Bearer ${stage.merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(10_000) });
            answers += 1;
          } catch {
            return;
          }
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
      while (answers < ANSWERS_BEFORE_KILL) await new Promise((resolve) => setTimeout(resolve, 20));
      const exited = once(stage.gateway.child, 'exit');
      stage.gateway.child.kill('SIGKILL');
      await exited;
      stopping = true;
      await load;
      const pendingAtKill = await pendingCount(stage.schema.admin);

      stage.gateway = await startGatewayProcess({ databaseUrl: stage.schema.url, env: env(host.port) });
      const deadline = Date.now() + 90_000;
      while ((await pendingCount(stage.schema.admin)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal(await pendingCount(stage.schema.admin), 0, 'every pending row resolved');

      const { rows } = await stage.schema.admin.query<{ id: string; status: string; result_code: string }>(`SELECT id, status, result_code FROM transactions WHERE payment_type = 'DB'`);
      const disagreements = rows.filter((row) => SUCCESS_CODE.test(row.result_code) !== host.ledger.charged(row.id));
      const reversedByAdvice = host.ledger.entries().filter((e) => e.reversedBy === 'advice').length;
      const unknownToGateway = host.ledger.entries().filter((e) => e.kind === 'purchase' && host.ledger.charged(e.gatewayTransactionId) && !rows.some((r) => r.id === e.gatewayTransactionId));
      console.log(JSON.stringify({ transactions: rows.length, pendingAtKill, reversedByAdvice, hostEntries: host.ledger.entries().length, disagreements: disagreements.length }));
      assert.ok(pendingAtKill > 0, 'the kill left pending payments');
      assert.deepEqual(disagreements, [], 'gateway and host agree on every transaction');
      assert.deepEqual(unknownToGateway, [], 'the host charged nothing the gateway has no row of');
    } finally {
      await stage.close();
      await host.close();
    }
  });
});
