import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { randomIds } from '../../../src/domain/ids.js';
import { deliverWebhookHandler } from '../../../src/jobs/deliver-webhook.js';
import { httpNotificationSender } from '../../../src/jobs/http-sender.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import { JobWorker } from '../../../src/jobs/job-worker.js';
import { createWebhook } from '../../../src/operations/webhooks/create-webhook.js';
import { activateWebhook } from '../../../src/operations/webhooks/test-webhook.js';
import { migrate } from '../../../src/storage/migrate.js';
import { createPgStorage } from '../../../src/storage/pg-storage.js';
import { consoleGet, signInAs } from '../../support/console.js';
import { withAdminClient } from '../../support/databases.js';
import { cardPayment, referencePayment, type Merchant } from '../../support/payments.js';
import { pgbouncerUnavailable, startPgbouncer, type Pgbouncer } from '../../support/pgbouncer.js';
import { bearer, startTestApp, type TestApp } from '../../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../../support/webhook-receiver.js';

const serverUrl = process.env['TEST_DATABASE_URL'];
const SERVER_CONNECTIONS = 4;

/**
 * The gateway behind PgBouncer in transaction pooling mode (DATABASE_POOL_MODE=transaction,
 * docs/operations.md "Behind PgBouncer"): ten gateway connections share four server connections,
 * so any statement that relied on its session (a named prepared statement, a session SET, a
 * session advisory lock) would fail or leak here.
 */
describe('behind PgBouncer in transaction mode', { skip: serverUrl ? pgbouncerUnavailable() : 'needs TEST_DATABASE_URL' }, () => {
  const database = `gateway_pgbouncer_${randomBytes(4).toString('hex')}`;
  const databaseUrl = () => { const url = new URL(serverUrl!); url.pathname = `/${database}`; return url.toString(); };
  const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 8, targets: RECEIVER_TARGETS });
  let bouncer: Pgbouncer;
  let t: TestApp;
  let merchant: Merchant;
  let receiver: WebhookReceiver;
  let worker: JobWorker;
  const paid: string[] = [];

  before(async () => {
    await withAdminClient(serverUrl!, (client) => client.query(`CREATE DATABASE ${database}`));
    bouncer = await startPgbouncer({ serverUrl: databaseUrl(), poolSize: SERVER_CONNECTIONS });
    const storage = createPgStorage({ connectionString: bouncer.url, poolSize: 10, transactionPooling: true });
    // Several processes migrating at once meet at a transaction-scoped advisory lock: fine here.
    await migrate(storage);
    t = await startTestApp(storage, { env: { LOG_LEVEL: 'warn', ...RECEIVER_ENV } });
    merchant = await t.createMerchant('Pooled shop');
    receiver = await WebhookReceiver.start();
    const handler = deliverWebhookHandler({ storage, clock: t.clock, sender, logger: silentLogger });
    worker = new JobWorker({ storage, clock: t.clock, handlers: [handler], logger: silentLogger, concurrency: 8, batchSize: 32, pollIntervalMs: 5, leaseMs: 60_000, sweepIntervalMs: 30_000 });
    const created = await createWebhook({ storage, clock: t.clock, ids: randomIds, webhookTargets: RECEIVER_TARGETS }, { entityId: merchant.entityId, url: receiver.url('/pooled') });
    receiver.setSecret('/pooled', created.secret);
    await activateWebhook({ storage, clock: t.clock, ids: randomIds, sender }, created.webhookId);
  });
  after(async () => {
    sender.close();
    await receiver?.stop();
    await t?.close();
    await t?.storage.close();
    await bouncer?.stop();
    await withAdminClient(serverUrl!, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  });

  it('takes payments, concurrent ones grouped, and a capture and a refund', async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => cardPayment(t, merchant, n % 2 ? 'DB' : 'PA', `${n + 1}.00`, { merchantTransactionId: `pooled-${n}` })));
    assert.deepEqual(answers.map((a) => a.statusCode), answers.map(() => 200), answers.map((a) => a.body).join('\n'));
    paid.push(...answers.map((a) => a.json().id as string));
    const capture = await referencePayment(t, merchant, paid[0]!, 'CP', '1.00');
    assert.equal(capture.statusCode, 200, capture.body);
    const refund = await referencePayment(t, merchant, paid[1]!, 'RF', '1.00');
    assert.equal(refund.statusCode, 200, refund.body);
    paid.push(capture.json().id, refund.json().id);
    const servers = await withAdminClient(serverUrl!, async (client) =>
      Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1', [database])).rows[0]!.n));
    assert.ok(servers <= SERVER_CONNECTIONS, `${servers} server connections: PgBouncer pooled them`);
  });

  it('claims and runs the webhook jobs the payments queued (the outbox)', async () => {
    while ((await worker.runOnce()) > 0);
    const delivered = receiver.on('/pooled').filter((r) => r.body.type === 'PAYMENT' && r.status === 200).map((r) => r.body.payload['id']);
    assert.deepEqual(new Set(delivered), new Set(paid));
  });

  it('answers queries by reference and by time frame', async () => {
    const byReference = await t.app.inject({ method: 'GET', url: `/v1/query?entityId=${merchant.entityId}&merchantTransactionId=pooled-3`, headers: bearer(merchant.accessToken) });
    assert.equal(byReference.statusCode, 200, byReference.body);
    assert.deepEqual(byReference.json().payments.map((p: { id: string }) => p.id), [paid[3]]);
    const params = new URLSearchParams({ entityId: merchant.entityId, 'date.from': '2026-11-22 00:00:00', 'date.to': '2026-11-23 00:00:00' });
    const byDay = await t.app.inject({ method: 'GET', url: `/v1/query?${params}`, headers: bearer(merchant.accessToken) });
    assert.equal(byDay.statusCode, 200, byDay.body);
    assert.equal(byDay.json().payments.length, paid.length);
  });

  it('exports the console search as CSV, page after page', async () => {
    const session = await signInAs(t, { role: 'merchant-admin', merchantId: merchant.entityId });
    const csv = await consoleGet(t, session, '/console/payments/export.csv');
    assert.equal(csv.statusCode, 200, csv.body.slice(0, 500));
    const lines = csv.body.trim().split('\n');
    assert.equal(lines.length, paid.length + 1, 'a header and one line a payment');
    for (const id of paid) assert.ok(csv.body.includes(id), id);
  });
});
