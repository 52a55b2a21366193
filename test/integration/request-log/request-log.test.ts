/**
 * The merchants' request log: every API request a merchant's credentials were accepted for is
 * kept (method, masked path, status, result code, time), written in batches after the answer; a
 * merchant's people see only their merchant's and channels' requests; refused credentials leave
 * nothing under anyone's name.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { listVisibleApiRequests } from '../../../src/operations/request-log/list-api-requests.js';
import { insertApiRequests, lastUseOfTokens } from '../../../src/storage/repositories/api-request-log.js';
import { pruneRequestLogHandler } from '../../../src/jobs/prune-request-log.js';
import { silentLogger, type ClaimedJob } from '../../../src/jobs/job-types.js';
import { testDatabases } from '../../support/databases.js';
import { cardPayment } from '../../support/payments.js';
import { bearer, withAppAndMerchant, type TestApp } from '../../support/test-app.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';

for (const database of testDatabases()) {
  describe(`the request log (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    withAppAndMerchant(() => database.open(), {}, (app, created) => {
      t = app;
      merchant = created;
    });

    it('keeps a payment, a refusal and a lookup with their result codes, newest first', async () => {
      const paid = await cardPayment(t, merchant, 'DB', '10.00');
      assert.equal(paid.statusCode, 200);
      const refused = await cardPayment(t, merchant, 'DB', 'ten');
      assert.equal(refused.statusCode, 400);
      await t.app.inject({ method: 'GET', url: `/v1/payments/4111111111111111?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
      await t.app.inject({ method: 'GET', url: `/v1/payments/x?entityId=${merchant.entityId}`, headers: bearer('not-a-token-of-anyone-0123456789') });
      await t.app.gateway.requestLog!.flush();
      const page = await listVisibleApiRequests(t.app.gateway, { kind: 'merchant', merchantId: merchant.entityId }, {}, undefined);
      assert.equal(page.requests.length, 3);
      const [lookup, refusal, payment] = page.requests;
      assert.equal(payment!.method, 'POST');
      assert.equal(payment!.path, '/v1/payments');
      assert.equal(payment!.status, 200);
      assert.match(payment!.resultCode ?? '', /^000\./);
      assert.equal(payment!.transactionId, JSON.parse(paid.body).id);
      assert.equal(refusal!.status, 400);
      assert.equal(refusal!.resultCode, JSON.parse(refused.body).result.code);
      assert.doesNotMatch(lookup!.path, /4111111111111111/);
      assert.ok(!page.requests.some((request) => request.path.includes('?')));
      assert.equal(payment!.tokenId, merchant.tokenId);
      const lastUse = await lastUseOfTokens(t.storage, [merchant.tokenId, 'f'.repeat(32)]);
      assert.deepEqual([...lastUse.keys()], [merchant.tokenId]);
    });

    it("shows another merchant's people nothing of it, and filters by status class", async () => {
      const other = await t.createMerchant('Other shop');
      const theirs = await listVisibleApiRequests(t.app.gateway, { kind: 'merchant', merchantId: other.entityId }, {}, undefined);
      assert.equal(theirs.requests.length, 0);
      const failures = await listVisibleApiRequests(t.app.gateway, { kind: 'all' }, { statusClass: 4 }, undefined);
      assert.ok(failures.requests.length >= 1);
      assert.ok(failures.requests.every((request) => request.status >= 400 && request.status < 500));
    });

    it('forgets requests older than the retention, hourly', async () => {
      const now = t.clock.now();
      const record = (requestId: string, at: Date) => ({ entityId: merchant.entityId, at, method: 'GET', path: '/v1/payments', status: 200, resultCode: null, durationMs: 1, requestId, transactionId: null, tokenId: null });
      await insertApiRequests(t.storage, [record('pruned-old', new Date(now.getTime() - 15 * 86_400_000)), record('pruned-kept', new Date(now.getTime() - 13 * 86_400_000))]);
      const [result] = pruneRequestLogHandler({ storage: t.storage, clock: t.clock, logger: silentLogger, retentionDays: 14 }).start([{} as ClaimedJob]);
      assert.ok((await result!).runAgainAt! > now);
      const { rows } = await t.storage.query<{ request_id: string }>("SELECT request_id FROM api_request_log WHERE request_id LIKE 'pruned-%'");
      assert.deepEqual(rows.map((row) => row.request_id), ['pruned-kept']);
    });
  });
}
