import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { migrate } from '../../../src/storage/migrate.js';
import { createPgStorage } from '../../../src/storage/pg-storage.js';
import type { Storage } from '../../../src/storage/port.js';
import { ReplicaReads } from '../../../src/storage/replica/replica-reads.js';
import { cardPayment, type Merchant } from '../../support/payments.js';
import { replicaClusterUnavailable, startReplicaCluster, type ReplicaCluster } from '../../support/pg-replica-cluster.js';
import { bearer, startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * DATABASE_READ_URL on a real streaming replica (pg_basebackup -R): which reads the replica
 * serves, and when the leader answers instead (docs/operations.md, "Read replicas").
 */
describe('read replica', { skip: replicaClusterUnavailable() }, () => {
  let cluster: ReplicaCluster;
  let leader: Storage;
  // Gateway A reads from the replica (a generous bound, so that staleness shows); B is another
  // gateway process on the same leader, whose writes A does not know of; C has a tight bound.
  let relaxed: ReplicaReads;
  let strict: ReplicaReads;
  let a: TestApp;
  let b: TestApp;
  let c: TestApp;
  let merchant: Merchant;
  const written: Record<string, string> = {};

  before(async () => {
    cluster = await startReplicaCluster();
    leader = createPgStorage({ connectionString: cluster.primaryUrl, poolSize: 4 });
    await migrate(leader);
    relaxed = new ReplicaReads(leader, createPgStorage({ connectionString: cluster.replicaUrl, poolSize: 2 }), { maxLagMs: 60_000, lagCheckMs: 50 });
    strict = new ReplicaReads(leader, createPgStorage({ connectionString: cluster.replicaUrl, poolSize: 2 }), { maxLagMs: 300, lagCheckMs: 50 });
    b = await startTestApp(leader, { env: { LOG_LEVEL: 'warn' } });
    // One card vault, as gateway processes configured alike share one master key.
    a = await startTestApp(leader, { env: { LOG_LEVEL: 'warn' }, overrides: { reads: relaxed }, vault: b.vault });
    c = await startTestApp(leader, { env: { LOG_LEVEL: 'warn' }, overrides: { reads: strict }, vault: b.vault });
    merchant = await a.createMerchant('Replicated shop');
  });
  after(async () => {
    for (const t of [a, b, c]) await t?.close();
    await relaxed?.close();
    await strict?.close();
    await leader?.close();
    await cluster?.stop();
  });

  const pay = async (t: TestApp, reference: string) => {
    const response = await cardPayment(t, merchant, 'DB', '4.00', { merchantTransactionId: reference });
    assert.equal(response.statusCode, 200, `${response.body}\n${t.logs.text.slice(-3000)}`);
    return response.json().id as string;
  };
  const dayOfPayments = async (t: TestApp) => {
    const params = new URLSearchParams({ entityId: merchant.entityId, 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-23 00:00:00' });
    const response = await t.app.inject({ method: 'GET', url: `/v1/query?${params}`, headers: bearer(merchant.accessToken) });
    assert.equal(response.statusCode, 200, response.body);
    return new Set((response.json().payments as { id: string }[]).map((p) => p.id));
  };

  it('serves a time-frame query from the replica, up to the bound behind', async () => {
    written['first'] = await pay(b, 'replica-1');
    await cluster.waitForReplay();
    assert.equal(await relaxed.wouldUseReplica(merchant.entityId), true);
    await cluster.pauseReplay();
    written['unreplayed'] = await pay(b, 'replica-2');
    assert.equal(await relaxed.wouldUseReplica(merchant.entityId), true, 'B wrote, A does not know: within the bound, A reads the replica');
    const seen = await dayOfPayments(a);
    assert.ok(seen.has(written['first']!), 'the replayed payment is there');
    assert.ok(!seen.has(written['unreplayed']!), 'the payment the replica has not replayed is not: the read was the replica\'s');
  });

  it('asks the leader for a payment named by id or reference that the replica lacks', async () => {
    const byId = await a.app.inject({ method: 'GET', url: `/v1/query/${written['unreplayed']}?entityId=${merchant.entityId}`, headers: bearer(merchant.accessToken) });
    assert.equal(byId.statusCode, 200, byId.body);
    assert.equal(byId.json().payments[0].id, written['unreplayed']);
    const byReference = await a.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=replica-2`, headers: bearer(merchant.accessToken) });
    assert.equal(byReference.statusCode, 200, byReference.body);
    assert.deepEqual(byReference.json().payments.map((p: { id: string }) => p.id), [written['unreplayed']]);
  });

  it('shows a merchant its own just-written payment: the leader answers until the replica has it', async () => {
    const own = await pay(a, 'replica-3');
    assert.equal(await relaxed.wouldUseReplica(merchant.entityId), false);
    const seen = await dayOfPayments(a);
    assert.ok(seen.has(own), 'the merchant\'s own payment');
    assert.ok(seen.has(written['unreplayed']!), 'read on the leader, so B\'s payment too');
    // Another entity has written nothing: its reads may still go to the replica.
    assert.equal(await relaxed.wouldUseReplica('an-entity-that-never-wrote'), true);
  });

  it('reads from the leader once the replica is further behind than the bound', async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(await strict.wouldUseReplica(), false);
    const seen = await dayOfPayments(c);
    assert.ok(seen.has(written['unreplayed']!), 'the stale replica was not read');
    await cluster.resumeReplay();
    await cluster.waitForReplay();
    assert.equal(await strict.wouldUseReplica(), true, 'caught up again: back to the replica');
    assert.equal(await relaxed.wouldUseReplica(merchant.entityId), true, 'the merchant\'s write is replayed now');
  });

  it('reads from the leader when the replica is down', async () => {
    await cluster.stopReplica();
    const own = await pay(b, 'replica-4');
    // The first read may still pick the replica (the last check found it fine): its failed
    // connection sends the read to the leader, and the replica is left alone after that.
    const seen = await dayOfPayments(a);
    assert.ok(seen.has(own));
    assert.equal(await relaxed.wouldUseReplica(), false);
    assert.equal((await dayOfPayments(c)).size, 4);
  });
});
