/**
 * SIGKILL a real gateway process (on PostgreSQL) in the middle of a load of payments and
 * refunds, start it again, and compare what the clients were told with what the database holds
 * (support/kill-checks.ts defines "half-written").
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { startGatewayProcess } from '../../bench/support/gateway.js';
import { checkAfterKill } from './support/kill-checks.js';
import { createPayment, openStage, SUCCESS_CODE, testDatabaseUrl } from './support/fault-setup.js';
import { answered, startLoad, waitUntil } from './support/payment-load.js';

const url = testDatabaseUrl();
const WORKERS = 32;
const ANSWERS_BEFORE_KILL = 300;
const REFUND_PARENTS = 10;
const GET_SAMPLE = 100;

describe('SIGKILL of a gateway process under load', { skip: url ? false : 'TEST_DATABASE_URL not set: the kill test needs PostgreSQL' }, () => {
  it('keeps every answered payment as answered and leaves nothing half-written', { timeout: 180_000 }, async () => {
    const stage = await openStage(url!, 'fault_kill');
    try {
      const parents = await Promise.all(Array.from({ length: REFUND_PARENTS }, () => createPayment(stage.gateway.url, stage.merchant, '50.00')));
      const load = startLoad({ url: stage.gateway.url, merchant: stage.merchant, workers: WORKERS, refundParents: parents, clientTimeoutMs: 10_000 });
      await waitUntil(() => answered(load.sent).length >= ANSWERS_BEFORE_KILL, 60_000);
      const exited = once(stage.gateway.child, 'exit');
      stage.gateway.child.kill('SIGKILL');
      await exited;
      const requests = await load.stop();
      const inFlightAtKill = requests.filter((r) => r.status === undefined).length;
      assert.ok(inFlightAtKill > 0, 'the kill landed while requests were in flight');

      stage.gateway = await startGatewayProcess({ databaseUrl: stage.schema.url });
      const findings = await checkAfterKill(stage.schema.admin, requests, parents);
      console.log(JSON.stringify({ requests: requests.length, inFlightAtKill, ...findings }));
      assert.deepEqual(findings.successMissingOrDifferent, []);
      assert.deepEqual(findings.pendingAlthoughAnswered, []);
      assert.deepEqual(findings.rowsNobodyAskedFor, []);
      assert.deepEqual(findings.duplicateReferences, []);
      assert.deepEqual(findings.ledger, { duplicateIds: 0, capturedOrRefundedAboveAmount: 0, parentTotalsDifferFromChildren: 0, responseDisagreesWithRow: 0, statusDisagreesWithCode: 0 });
      assert.ok(findings.answeredSuccesses >= ANSWERS_BEFORE_KILL / 2);

      // The restarted process serves what the killed one stored, and takes new payments.
      const sample = requests.filter((r) => r.kind === 'DB' && r.status === 200 && SUCCESS_CODE.test(r.code ?? '')).slice(-GET_SAMPLE);
      for (const r of sample) {
        const response = await fetch(`${stage.gateway.url}/v1/payments/${r.id}?entityId=${stage.merchant.entityId}`, { headers: { authorization: `Bearer ${stage.merchant.accessToken}` } });
        const body = (await response.json()) as { amount?: string; result?: { code?: string } };
        assert.equal(response.status, 200);
        assert.deepEqual([body.amount, body.result?.code], [(r.amountMinor / 100).toFixed(2), r.code]);
      }
      await createPayment(stage.gateway.url, stage.merchant, '12.00');
    } finally {
      await stage.close();
    }
  });
});
