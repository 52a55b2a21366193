/**
 * SIGKILL a real gateway (on PostgreSQL) in the middle of a load of payments and refunds sent
 * with Idempotency-Keys, start it again, and let the pending resolution run: every pending row
 * ends, every key whose request died answers (never "still running"), a retry never pays twice,
 * and no acknowledged payment is lost or changed.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import { checkAfterKill } from './support/kill-checks.js';
import { createPayment, openStage, SUCCESS_CODE, testDatabaseUrl } from './support/fault-setup.js';
import { answered, startLoad, waitUntil, type SentRequest } from './support/payment-load.js';

const url = testDatabaseUrl();
const WORKERS = 32;
const ANSWERS_BEFORE_KILL = 300;
const REFUND_PARENTS = 10;
/** Payments the simulator leaves without an answer (9.99): the status query later approves them. */
const TIMED_OUT = 5;
// Resolution in seconds instead of minutes; keys of dead requests free after a second.
const FAST_RESOLUTION = { CONNECTOR_TIMEOUT_MS: '500', PENDING_CHECK_DELAYS_MINUTES: '0.02,0.02', PENDING_SWEEP_INTERVAL_MS: '300', IDEMPOTENCY_LEASE_MS: '1000' };

async function pendingCount(stage: Awaited<ReturnType<typeof openStage>>): Promise<number> {
  const { rows } = await stage.schema.admin.query<{ n: string }>(`SELECT count(*) AS n FROM transactions WHERE status = 'pending'`);
  return Number(rows[0]!.n);
}

async function retry(gatewayUrl: string, request: SentRequest): Promise<{ status: number; code?: string; id?: string }> {
  const response = await fetch(`${gatewayUrl}${request.replay!.path}`, request.replay!.init);
  const body = (await response.json()) as { id?: string; result?: { code?: string } };
  return { status: response.status, code: body.result?.code, id: body.id };
}

describe('SIGKILL under load, then the pending resolution', { skip: url ? false : 'TEST_DATABASE_URL not set: the kill test needs PostgreSQL' }, () => {
  it('resolves every pending row, answers every in-flight key once, loses no acknowledged payment', { timeout: 240_000 }, async () => {
    const stage = await openStage(url!, 'fault_resolve', (u) => u, FAST_RESOLUTION);
    try {
      const parents = await Promise.all(Array.from({ length: REFUND_PARENTS }, () => createPayment(stage.gateway.url, stage.merchant, '50.00')));
      const timedOut = await Promise.all(Array.from({ length: TIMED_OUT }, () => createPayment(stage.gateway.url, stage.merchant, '9.99')));
      const load = startLoad({ url: stage.gateway.url, merchant: stage.merchant, workers: WORKERS, refundParents: parents, clientTimeoutMs: 10_000, idempotencyKeys: true });
      await waitUntil(() => answered(load.sent).length >= ANSWERS_BEFORE_KILL, 60_000);
      const exited = once(stage.gateway.child, 'exit');
      stage.gateway.child.kill('SIGKILL');
      await exited;
      const requests = await load.stop();
      const inFlight = requests.filter((r) => r.status === undefined && r.replay);
      assert.ok(inFlight.length > 0, 'the kill landed while requests were in flight');
      const pendingAtKill = await pendingCount(stage);

      stage.gateway = await startGatewayProcess({ databaseUrl: stage.schema.url, env: FAST_RESOLUTION });
      const deadline = Date.now() + 60_000;
      while ((await pendingCount(stage)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
      assert.equal(await pendingCount(stage), 0, 'every pending row resolved');

      // The simulator's later outcome of 9.99 is an approval: those payments are successes now.
      for (const id of timedOut) {
        const response = await fetch(`${stage.gateway.url}/v1/payments/${id}?entityId=${stage.merchant.entityId}`, { headers: { authorization: `Bearer ${stage.merchant.accessToken}` } });
        assert.equal(((await response.json()) as { result: { code: string } }).result.code, '000.100.110');
      }

      // Every request that died answers now, with the row its reference has, and once.
      const retried = await Promise.all(inFlight.map(async (request) => ({ request, answer: await retry(stage.gateway.url, request) })));
      for (const { request, answer } of retried) {
        assert.notEqual(answer.status, 409, `${request.reference} is not still running`);
        assert.ok(answer.status === 200 || answer.status === 400, `${request.reference}: ${answer.status} ${answer.code}`);
        const { rows } = await stage.schema.admin.query<{ id: string; result_code: string }>('SELECT id, result_code FROM transactions WHERE merchant_transaction_id = $1', [request.reference]);
        assert.equal(rows.length, 1, `${request.reference}: one row`);
        assert.deepEqual([answer.id, answer.code], [rows[0]!.id, rows[0]!.result_code]);
        Object.assign(request, { status: answer.status, code: answer.code, id: answer.id });
      }

      const findings = await checkAfterKill(stage.schema.admin, requests, [...parents, ...timedOut]);
      console.log(JSON.stringify({ requests: requests.length, inFlight: inFlight.length, pendingAtKill, ...findings }));
      assert.deepEqual(findings.successMissingOrDifferent, []);
      assert.deepEqual(findings.rowsNobodyAskedFor, []);
      assert.deepEqual(findings.duplicateReferences, []);
      assert.deepEqual(findings.ledger, { duplicateIds: 0, capturedOrRefundedAboveAmount: 0, parentTotalsDifferFromChildren: 0, responseDisagreesWithRow: 0, statusDisagreesWithCode: 0 });
      assert.ok(requests.filter((r) => r.status === 200 && SUCCESS_CODE.test(r.code ?? '')).length >= ANSWERS_BEFORE_KILL / 2);
    } finally {
      await stage.close();
    }
  });
});
