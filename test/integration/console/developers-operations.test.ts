/**
 * The developers' self-service operations (issue 31): credentials, webhooks with secret rotation,
 * the delivery log and resend, each scoped to what the person may see (another merchant's ids are
 * "not found") and audited in the change's transaction.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Actor } from '../../../src/domain/access/actor.js';
import { decryptNotification } from '../../../src/domain/webhook-crypto.js';
import { switchWebhookSecretHandler } from '../../../src/jobs/switch-webhook-secret.js';
import { silentLogger } from '../../../src/jobs/job-types.js';
import type { CreatedEntity } from '../../../src/operations/admin/create-entity.js';
import { createCredential, listCredentials, revokeCredential, setCredentialLegacyAuth } from '../../../src/operations/developers/credentials.js';
import type { DeveloperActor } from '../../../src/operations/developers/developer-scope.js';
import { readDeliveryLog, resendDeveloperDelivery, viewDeliveryRequest } from '../../../src/operations/developers/delivery-log.js';
import {
  activateDeveloperWebhook, cancelDeveloperWebhookRotation, confirmDeveloperWebhookSecret, deactivateDeveloperWebhook, createDeveloperWebhook, deleteDeveloperWebhook, listDeveloperWebhooks,
  rotateDeveloperWebhookSecret, testDeveloperWebhook,
} from '../../../src/operations/developers/webhooks.js';
import type { NotificationRequest, NotificationSender } from '../../../src/operations/webhooks/ports.js';
import { GatewayError } from '../../../src/results/gateway-error.js';
import { insertApiRequests } from '../../../src/storage/repositories/api-request-log.js';
import { listAuditEntries } from '../../../src/storage/repositories/audit-log.js';
import { verifyAuditChain } from '../../../src/operations/audit/verify-audit-chain.js';
import { testDatabases } from '../../support/databases.js';
import { withAppAndMerchant, type TestApp } from '../../support/test-app.js';

function person(merchantId: string | null, role: 'merchant-admin' | 'developer' | 'operator-admin' = 'developer'): DeveloperActor {
  const actor: Actor = { kind: 'user', userId: `u-${role}`, email: `${role}@example.com`, role, merchantId, address: '203.0.113.9' };
  return { actor, visibility: merchantId === null ? { kind: 'all' } : { kind: 'merchant', merchantId } };
}

/** A receiver that keeps what it was sent and answers as told. */
function recordingSender(status = 200): NotificationSender & { sent: NotificationRequest[] } {
  const sent: NotificationRequest[] = [];
  return { sent, send: async (request) => (sent.push(request), { httpStatus: status, error: null, latencyMs: 3 }) };
}

function encryptedOf(request: NotificationRequest) {
  return { bodyHex: request.body, ivHex: request.headers['X-Initialization-Vector']!, tagHex: request.headers['X-Authentication-Tag']! };
}

async function refusedAsNotFound(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof GatewayError && error.httpStatus === 404);
}

for (const database of testDatabases()) {
  describe(`developers' self-service operations (${database.name})`, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    let channel: CreatedEntity;
    let other: CreatedEntity;
    withAppAndMerchant(() => database.open(), {}, (app, created) => {
      t = app;
      merchant = created;
    });
    const deps = () => t.app.gateway;
    const webhookDeps = (sender: NotificationSender) => ({ ...t.app.gateway, sender, webhookTargets: t.config.workers.webhookTargets });

    it('lists the merchant\'s and its channels\' tokens with their last use from the request log', async () => {
      channel = await t.createChannel(merchant.entityId, 'Web shop');
      other = await t.createMerchant('Other shop');
      const usedAt = new Date(t.clock.now().getTime() - 60_000);
      await insertApiRequests(t.storage, [{ entityId: channel.entityId, at: usedAt, method: 'GET', path: '/v1/payments/x', status: 200, resultCode: '000.000.000', durationMs: 4, requestId: 'r1', transactionId: null, tokenId: channel.tokenId }]);
      const overview = await listCredentials(deps(), person(merchant.entityId).visibility, merchant.entityId);
      assert.deepEqual(overview.entities.map((e) => e.id), [merchant.entityId, channel.entityId]);
      const byId = new Map(overview.credentials.map((c) => [c.tokenId, c]));
      assert.equal(byId.get(channel.tokenId)?.lastUsedAt?.getTime(), usedAt.getTime());
      assert.equal(byId.get(merchant.tokenId)?.lastUsedAt, null);
      assert.equal(byId.has(other.tokenId), false);
      await refusedAsNotFound(listCredentials(deps(), person(other.entityId).visibility, merchant.entityId));
    });

    it('creates a token for a channel, with its OPPWA userId/password pair, audited in the same transaction', async () => {
      const created = await createCredential(deps(), person(merchant.entityId), channel.entityId);
      assert.equal(created.legacy?.userId, created.tokenId);
      assert.equal(Buffer.from(created.accessToken, 'base64').toString('utf8'), `${created.legacy!.userId}|${created.legacy!.password}`);
      assert.equal(created.legacyAuthEnabled, true);
      const [entry] = await listAuditEntries(t.storage, { action: 'credentials.create', targetId: created.tokenId }, undefined, 5);
      assert.equal(entry?.actorKind, 'user');
      assert.equal(entry?.merchantId, merchant.entityId);
      assert.equal(entry?.address, '203.0.113.9');
      assert.doesNotMatch(JSON.stringify({ before: entry?.before, after: entry?.after }), new RegExp(created.legacy!.password));
      const answer = await t.app.inject({ method: 'GET', url: `/v1/payments/nope?entityId=${channel.entityId}`, headers: { authorization: `Bearer ${created.accessToken}` } });
      assert.notEqual(answer.statusCode, 401);
      assert.notEqual(answer.statusCode, 403);
    });

    it("refuses another merchant's person: create, revoke and legacy switch answer 404 and change nothing", async () => {
      const before = (await listAuditEntries(t.storage, {}, undefined, 1))[0]?.seq;
      await refusedAsNotFound(createCredential(deps(), person(other.entityId), channel.entityId));
      await refusedAsNotFound(revokeCredential(deps(), person(other.entityId), merchant.tokenId));
      await refusedAsNotFound(setCredentialLegacyAuth(deps(), person(other.entityId, 'merchant-admin'), merchant.entityId, false));
      await refusedAsNotFound(revokeCredential(deps(), person(other.entityId), 'not-an-id'));
      assert.equal((await listAuditEntries(t.storage, {}, undefined, 1))[0]?.seq, before);
      const tokens = await listCredentials(deps(), person(null, 'operator-admin').visibility, merchant.entityId);
      assert.equal(tokens.credentials.find((c) => c.tokenId === merchant.tokenId)?.revokedAt, null);
    });

    it('revokes a token and says when the fields are off for the entity', async () => {
      const created = await createCredential(deps(), person(merchant.entityId), merchant.entityId);
      await revokeCredential(deps(), person(merchant.entityId), created.tokenId);
      const listed = (await listCredentials(deps(), person(merchant.entityId).visibility, merchant.entityId)).credentials.find((c) => c.tokenId === created.tokenId);
      assert.ok(listed?.revokedAt);
      await setCredentialLegacyAuth(deps(), person(merchant.entityId, 'merchant-admin'), channel.entityId, false);
      const fieldsOff = await createCredential(deps(), person(merchant.entityId), channel.entityId);
      assert.equal(fieldsOff.legacyAuthEnabled, false);
      await setCredentialLegacyAuth(deps(), person(null, 'operator-admin'), channel.entityId, true);
      const actions = (await listAuditEntries(t.storage, { merchantId: merchant.entityId }, undefined, 10)).map((e) => e.action);
      assert.ok(actions.includes('credentials.revoke') && actions.includes('entities.legacy-auth'));
      assert.equal((await verifyAuditChain(t.storage)).ok, true);
    });

    it('registers a webhook for the merchant only, tests it once the secret was shown, and keeps the delivery log', async () => {
      const sender = recordingSender();
      await refusedAsNotFound(createDeveloperWebhook(webhookDeps(sender), person(other.entityId), { entityId: merchant.entityId, url: 'https://shop.example/hooks' }));
      const created = await createDeveloperWebhook(webhookDeps(sender), person(merchant.entityId), { entityId: channel.entityId, url: 'https://shop.example/hooks' });
      assert.match(created.secret, /^[0-9a-f]{64}$/);
      const listed = await listDeveloperWebhooks(deps(), person(merchant.entityId).visibility, merchant.entityId);
      assert.equal(listed.webhooks.find((w) => w.webhookId === created.webhookId)?.entityName, 'Web shop');
      await refusedAsNotFound(testDeveloperWebhook(webhookDeps(sender), person(other.entityId), created.webhookId));
      const outcome = await testDeveloperWebhook(webhookDeps(sender), person(merchant.entityId), created.webhookId);
      assert.equal(outcome.webhook.status, 'active');
      const last = sender.sent.at(-1)!;
      const body = decryptNotification(encryptedOf(last), created.secret);
      assert.equal(JSON.parse(body).type, 'TEST');
      const log = await readDeliveryLog(deps(), person(merchant.entityId).visibility, created.webhookId, undefined);
      const attempt = log.entries.find((e) => e.trigger === 'test')!;
      assert.equal(attempt.httpStatus, 200);
      const view = await viewDeliveryRequest(deps(), person(merchant.entityId).visibility, attempt.deliveryId);
      assert.equal(JSON.parse(view.body).type, 'TEST');
      assert.ok(view.headers.some(([name]) => name === 'X-Notification-Id'));
      await refusedAsNotFound(readDeliveryLog(deps(), person(other.entityId).visibility, created.webhookId, undefined));
      await refusedAsNotFound(viewDeliveryRequest(deps(), person(other.entityId).visibility, attempt.deliveryId));
      await refusedAsNotFound(resendDeveloperDelivery(webhookDeps(sender), person(other.entityId), attempt.deliveryId));
      const resent = await resendDeveloperDelivery(webhookDeps(sender), person(merchant.entityId), attempt.deliveryId);
      assert.equal(resent.attempt.acknowledged, true);
      const actions = (await listAuditEntries(t.storage, { targetId: created.webhookId }, undefined, 10)).map((e) => e.action);
      assert.deepEqual(actions.sort(), ['webhooks.create', 'webhooks.test']);
      await deactivateDeveloperWebhook(deps(), person(merchant.entityId), created.webhookId);
      await assert.rejects(activateDeveloperWebhook(webhookDeps(recordingSender(503)), person(merchant.entityId), created.webhookId),
        (error: unknown) => error instanceof GatewayError && error.code === '900.100.100' && error.httpStatus === 502);
      await refusedAsNotFound(activateDeveloperWebhook(webhookDeps(sender), person(other.entityId), created.webhookId));
      assert.equal((await activateDeveloperWebhook(webhookDeps(sender), person(merchant.entityId), created.webhookId)).webhook.status, 'active');
      assert.equal((await listAuditEntries(t.storage, { action: 'notifications.resend', targetId: attempt.deliveryId }, undefined, 5)).length, 1);
    });

    it('rotates a secret: the old one until confirmed, the new one after; the overlap\'s end switches by itself', async () => {
      const sender = recordingSender();
      const created = await createDeveloperWebhook(webhookDeps(sender), person(merchant.entityId), { entityId: merchant.entityId, url: 'https://shop.example/rotate' });
      const rotation = await rotateDeveloperWebhookSecret(deps(), person(merchant.entityId), created.webhookId, 24);
      assert.equal(rotation.switchAt.getTime() - rotation.createdAt.getTime(), 24 * 3_600_000);
      assert.notEqual(rotation.secret, created.secret);
      const sendsUnder = async (secret: string) => {
        await testDeveloperWebhook(webhookDeps(sender), person(merchant.entityId), created.webhookId);
        const last = sender.sent.at(-1)!;
        assert.doesNotThrow(() => decryptNotification(encryptedOf(last), secret));
      };
      await sendsUnder(created.secret);
      assert.ok((await listDeveloperWebhooks(deps(), person(merchant.entityId).visibility, merchant.entityId)).webhooks.find((w) => w.webhookId === created.webhookId)?.rotation);
      await refusedAsNotFound(confirmDeveloperWebhookSecret(deps(), person(other.entityId), created.webhookId));
      await confirmDeveloperWebhookSecret(deps(), person(merchant.entityId), created.webhookId);
      await sendsUnder(rotation.secret);

      const second = await rotateDeveloperWebhookSecret(deps(), person(merchant.entityId), created.webhookId, 1);
      t.clock.advance(1000);
      const third = await rotateDeveloperWebhookSecret(deps(), person(merchant.entityId), created.webhookId, 2);
      const handler = switchWebhookSecretHandler({ storage: t.storage, clock: t.clock, logger: silentLogger });
      const job = (at: Date) => ({ id: '1', kind: handler.kind, payload: { webhookId: created.webhookId, createdAt: at.toISOString() }, runAt: at, failureCount: 0, createdAt: at, traceParent: null });
      await Promise.all(handler.start([job(second.createdAt) as never]));
      await sendsUnder(rotation.secret); // the replaced rotation's job leaves the newer one waiting
      await Promise.all(handler.start([job(third.createdAt) as never]));
      await sendsUnder(third.secret);
      await assert.rejects(cancelDeveloperWebhookRotation(deps(), person(merchant.entityId), created.webhookId), (error: unknown) => error instanceof GatewayError && error.httpStatus === 400);
      await deleteDeveloperWebhook(deps(), person(merchant.entityId), created.webhookId);
      await refusedAsNotFound(rotateDeveloperWebhookSecret(deps(), person(merchant.entityId), created.webhookId, 1));
    });
  });
}
