/**
 * A real gateway (on PostgreSQL) pays testMode=EXTERNAL cards through a misbehaving network to
 * the acquirer host emulator: while payments flow, connections get stuck on a partial frame
 * (`ff ff 30`, then a trickle), and one payment in ten is answered in a way the gateway cannot
 * book as it is (a partial approval, a code no table knows, no field 39, an approval for another
 * amount). The stuck connections must be replaced while traffic flows, and once the status
 * checks and the reversal advices have run, the gateway and the host agree on every transaction.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REVERSAL_ADVICE_JOB } from '../../src/jobs/send-reversal-advice.js';
import { startAcquirerHost } from '../../emulators/acquirer-host/server.js';
import { openStage, SUCCESS_CODE, testDatabaseUrl } from './support/fault-setup.js';
import { IsoHostProxy } from './support/iso-host-proxy.js';

const url = testDatabaseUrl();
const WORKERS = 4;
const LOAD_MS = 16_000;
/** When connections get stuck, from the start of the load. */
const STICK_AT_MS = [2_000, 6_000];
/** A stuck connection's requests time out after ACQUIRER_HOST_TIMEOUT_MS; then it must be gone. */
const SETTLE_AFTER_STICK_MS = 4_000;
const MAY_HAVE_MOVED = ['666.06', '666.07', '666.08', '666.09'];

interface Paid {
  readonly startedAt: number;
  readonly amount: string;
  readonly code: string;
}

type Admin = { query: <T>(sql: string, params?: unknown[]) => Promise<{ rows: T[] }> };

async function count(admin: Admin, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(sql, params);
  return Number(rows[0]!.n);
}

describe('ISO 8583 host behind a misbehaving network: partial frames and answers that cannot be booked', { skip: url ? false : 'TEST_DATABASE_URL not set: the fault test needs PostgreSQL' }, () => {
  it('replaces stuck connections while payments flow, and leaves the gateway and the host agreeing on every transaction', { timeout: 300_000 }, async () => {
    const host = await startAcquirerHost({ slowMs: 1_500 });
    const proxy = new IsoHostProxy(host.port);
    const proxyPort = await proxy.listen();
    const env = { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${proxyPort}`, ACQUIRER_HOST_POOL_SIZE: '2', ACQUIRER_HOST_TIMEOUT_MS: '800', CONNECTOR_TIMEOUT_MS: '2500', PENDING_CHECK_DELAYS_MINUTES: '0.05,0.05', PENDING_SWEEP_INTERVAL_MS: '300' };
    const stage = await openStage(url!, 'fault_isohost', (u) => u, env);
    try {
      const paid: Paid[] = [];
      const started = Date.now();
      const worker = async (n: number): Promise<void> => {
        for (let i = 0; Date.now() - started < LOAD_MS; i += 1) {
          const amount = (i + n) % 10 === 0 ? MAY_HAVE_MOVED[(i + n) % MAY_HAVE_MOVED.length]! : `${10 + ((i * WORKERS + n) % 40)}.00`;
          const body = new URLSearchParams({ entityId: stage.merchant.entityId, paymentType: 'DB', amount, currency: 'EUR', testMode: 'EXTERNAL', paymentBrand: 'VISA', 'card.number': '4200000000000000', 'card.holder': 'Jane Jones', 'card.expiryMonth': '05', 'card.expiryYear': '2034', 'card.cvv': '123' });
          const startedAt = Date.now() - started;
          const response = await fetch(`${stage.gateway.url}/v1/payments`, { method: 'POST', headers: { authorization: `Bearer ${stage.merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(20_000) });
          const answer = (await response.json()) as { result?: { code?: string } };
          paid.push({ startedAt, amount, code: answer.result?.code ?? `HTTP ${response.status}` });
        }
      };
      const timers = STICK_AT_MS.map((at) => setTimeout(() => proxy.stickNext(), at));
      await Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
      timers.forEach(clearTimeout);

      const stuckAt = proxy.stuckAt.map((at) => at - started);
      const lastStuck = Math.max(...stuckAt);
      const later = paid.filter((p) => p.startedAt > lastStuck + SETTLE_AFTER_STICK_MS && !MAY_HAVE_MOVED.includes(p.amount));
      const laterSucceeded = later.filter((p) => SUCCESS_CODE.test(p.code)).length;
      const byCode = (rows: readonly Paid[]) => rows.reduce<Record<string, number>>((acc, p) => ({ ...acc, [p.code]: (acc[p.code] ?? 0) + 1 }), {});
      console.log(JSON.stringify({ payments: paid.length, stuckAt, later: later.length, laterSucceeded, codes: byCode(paid) }));
      assert.equal(stuckAt.length, STICK_AT_MS.length, 'the proxy stuck as many connections as told');
      assert.ok(later.length >= 20, `enough payments after the last stuck connection: ${later.length}`);
      assert.ok(laterSucceeded >= later.length * 0.95, `payments after the stuck connections succeed: ${laterSucceeded} of ${later.length}`);
      for (const p of paid.filter((p) => MAY_HAVE_MOVED.includes(p.amount))) assert.ok(!SUCCESS_CODE.test(p.code), `an answer that cannot be booked is never a success (${p.amount}: ${p.code})`);
      assert.match(stage.gateway.output(), /acquirer link condemned/, 'the condemned connections reach the log');

      const admin = stage.schema.admin as Admin;
      const deadline = Date.now() + 150_000;
      const unsettled = async () => (await count(admin, `SELECT count(*) AS n FROM transactions WHERE status = 'pending'`)) + (await count(admin, 'SELECT count(*) AS n FROM jobs WHERE kind = $1', [REVERSAL_ADVICE_JOB]));
      while ((await unsettled()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal(await unsettled(), 0, 'nothing pending, every reversal advice acknowledged');

      const { rows } = await admin.query<{ id: string; result_code: string }>(`SELECT id, result_code FROM transactions WHERE payment_type = 'DB'`);
      const disagreements = rows.filter((row) => SUCCESS_CODE.test(row.result_code) !== host.ledger.charged(row.id)).map((row) => ({ ...row, host: host.ledger.get(row.id) }));
      const unknownToGateway = host.ledger.entries().filter((e) => host.ledger.charged(e.gatewayTransactionId) && !rows.some((r) => r.id === e.gatewayTransactionId));
      const reversedByAdvice = host.ledger.entries().filter((e) => e.reversedBy === 'advice').length;
      console.log(JSON.stringify({ transactions: rows.length, hostEntries: host.ledger.entries().length, reversedByAdvice, disagreements: disagreements.length }));
      assert.ok(reversedByAdvice > 0, 'answers that could not be booked were reversed at the host');
      assert.deepEqual(disagreements, [], 'gateway and host agree on every transaction');
      assert.deepEqual(unknownToGateway, [], 'the host charged nothing the gateway has no row of');
    } finally {
      await stage.close();
      await proxy.close();
      await host.close();
    }
  });
});
