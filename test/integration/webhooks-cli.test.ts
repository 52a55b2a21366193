import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDirectAdmin } from '../../src/cli/direct-admin.js';
import { openDirectWebhooks } from '../../src/cli/direct-webhooks.js';
import { AdminApiError } from '../../src/cli/http-admin.js';
import { httpWebhooks } from '../../src/cli/http-webhooks.js';
import { isWebhookCommand, runWebhookCommandOn, WebhookUsageError } from '../../src/cli/webhook-commands.js';
import type { WebhookPort } from '../../src/cli/webhook-port.js';
import { loadConfig } from '../../src/config/load-config.js';
import { httpNotificationSender } from '../../src/jobs/http-sender.js';
import { createPgliteStorage } from '../../src/storage/pglite-storage.js';
import { migrate } from '../../src/storage/migrate.js';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../support/test-app.js';
import { RECEIVER_ENV, RECEIVER_TARGETS, WebhookReceiver } from '../support/webhook-receiver.js';

type Run = (command: string, options?: Record<string, string>) => Promise<any>;

/** The same script of commands on either port: what an operator does with a new webhook. */
async function operatorSession(run: Run, entityId: string, receiver: WebhookReceiver, path: string): Promise<void> {
  const created = await run('webhook create', { entity: entityId, url: receiver.url(path) });
  assert.match(created.webhookId, /^[0-9a-f]{32}$/);
  assert.match(created.secret, /^[0-9a-f]{64}$/);
  receiver.setSecret(path, created.secret);
  const webhook = created.webhookId as string;

  const listed = await run('webhook list', { entity: entityId });
  assert.deepEqual(listed.map((w: { webhookId: string }) => w.webhookId), [webhook]);
  assert.ok(!JSON.stringify(listed).includes(created.secret));

  const tested = await run('webhook test', { webhook });
  assert.deepEqual([tested.attempt.acknowledged, tested.webhook.status], [true, 'active']);
  assert.equal((await run('webhook deactivate', { webhook })).status, 'inactive');
  assert.equal((await run('webhook activate', { webhook })).webhook.status, 'active');

  const attempts = await run('webhook attempts', { webhook, limit: '5' });
  assert.equal(attempts.length, 2);
  const resent = await run('webhook resend', { delivery: attempts[0].deliveryId });
  assert.equal(resent.attempt.acknowledged, true);
  assert.equal(receiver.on(path).length, 3);

  assert.deepEqual(await run('webhook delete', { webhook }), { webhookId: webhook, deleted: true });
  assert.deepEqual(await run('webhook list', { entity: entityId }), []);
}

async function usageErrors(run: Run): Promise<void> {
  await assert.rejects(run('webhook test'), (error: Error) => error instanceof WebhookUsageError && /--webhook is required/.test(error.message));
  await assert.rejects(run('webhook create', { entity: 'e'.repeat(32) }), WebhookUsageError);
  await assert.rejects(run('webhook attempts', { webhook: 'f'.repeat(32), limit: 'ten' }), WebhookUsageError);
  await assert.rejects(run('webhook frobnicate'), WebhookUsageError);
}

describe('webhook commands', () => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => receiver.stop());

  it('recognises webhook commands', () => {
    assert.ok(isWebhookCommand('webhook create'));
    assert.ok(!isWebhookCommand('entity create'));
  });

  describe('on the database directly (an embedded folder no gateway holds)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-webhook-cli-'));
    const config = loadConfig({ DATA_DIR: dir, WEBHOOK_TIMEOUT_MS: '2000', ...RECEIVER_ENV });
    let port: WebhookPort;
    let entityId: string;
    before(async () => {
      const admin = await openDirectAdmin(config);
      entityId = (await admin.createEntity({ name: 'CLI shop' })).entityId;
      await admin.close();
      port = await openDirectWebhooks(config);
    });
    after(async () => {
      await port.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const run: Run = (command, options = {}) => runWebhookCommandOn(port, command, options);

    it('runs an operator session', () => operatorSession(run, entityId, receiver, '/cli-direct'));
    it('reports usage errors', () => usageErrors(run));
  });

  describe('through a running gateway’s administration API', () => {
    let t: TestApp;
    let port: WebhookPort;
    const sender = httpNotificationSender({ timeoutMs: 2_000, maxSocketsPerHost: 4, targets: RECEIVER_TARGETS });
    before(async () => {
      const storage = await createPgliteStorage(undefined);
      await migrate(storage);
      t = await startTestApp(storage, { env: RECEIVER_ENV, overrides: { notificationSender: sender } });
      const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = httpWebhooks(url, TEST_ADMIN_TOKEN);
    });
    after(async () => {
      await t.close();
      await t.storage.close();
      sender.close();
    });
    const run: Run = (command, options = {}) => runWebhookCommandOn(port, command, options);

    it('runs an operator session', async () => operatorSession(run, (await t.createMerchant('HTTP shop')).entityId, receiver, '/cli-http'));
    it('reports usage errors', () => usageErrors(run));
    it('reports the gateway’s refusals', async () => {
      await assert.rejects(run('webhook test', { webhook: 'f'.repeat(32) }), (error: Error) => error instanceof AdminApiError && /200\.300\.404/.test(error.message));
    });
  });
});
