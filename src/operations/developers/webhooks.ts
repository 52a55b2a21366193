import type { Visibility } from '../../domain/access/actor.js';
import { listWebhooks as listRows } from '../../storage/repositories/webhooks.js';
import { findSecretRotations, type SecretRotation } from '../../storage/repositories/webhook-rotation.js';
import { withAudit } from '../audit/audited.js';
import { recordChange } from '../audit/record-change.js';
import type { OperationDeps } from '../deps.js';
import { createWebhook, type CreatedWebhook } from '../webhooks/create-webhook.js';
import { deactivateWebhook, deleteWebhook } from '../webhooks/deactivate-webhook.js';
import type { TargetRulesDeps, WebhookDeps } from '../webhooks/ports.js';
import { cancelNextSecret, confirmNextSecret, rotateWebhookSecret, type StartedRotation } from '../webhooks/rotate-webhook-secret.js';
import { toWebhookSummary, type WebhookSummary } from '../webhooks/summaries.js';
import { activateWebhook, testWebhook, type TestOutcome } from '../webhooks/test-webhook.js';
import { entitiesInScope, requireVisibleEntity, type DeveloperActor } from './developer-scope.js';
import { requireVisibleWebhook } from './webhook-scope.js';

export interface DeveloperWebhook extends WebhookSummary {
  readonly entityName: string;
  /** A new secret waiting for the merchant's confirmation or the end of its overlap. */
  readonly rotation: SecretRotation | undefined;
}

export interface WebhooksOverview {
  readonly entities: readonly { readonly id: string; readonly name: string; readonly kind: 'merchant' | 'channel' }[];
  readonly webhooks: readonly DeveloperWebhook[];
}

/** The webhooks of a merchant and its channels (never a secret). */
export async function listDeveloperWebhooks(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, merchantId: string): Promise<WebhooksOverview> {
  const entities = await entitiesInScope(deps.storage, visibility, merchantId);
  const rows = (await Promise.all(entities.map(async (entity) => (await listRows(deps.storage, entity.id)).map((row) => ({ row, entity }))))).flat();
  const rotations = await findSecretRotations(deps.storage, rows.map(({ row }) => row.id));
  const webhooks = rows.map(({ row, entity }) => ({ ...toWebhookSummary(row), entityName: entity.name, rotation: rotations.get(row.id) }));
  return { entities, webhooks };
}

/** One webhook of the person's merchant. */
export async function getDeveloperWebhook(deps: Pick<OperationDeps, 'storage'>, visibility: Visibility, webhookId: string): Promise<DeveloperWebhook> {
  const { merchantId } = await requireVisibleWebhook(deps.storage, visibility, webhookId);
  const found = (await listDeveloperWebhooks(deps, visibility, merchantId)).webhooks.find((webhook) => webhook.webhookId === webhookId);
  return found!;
}

type WebhookOperationDeps = OperationDeps & TargetRulesDeps;

/** Registers a webhook for the merchant or a channel; its secret is in the answer, once. */
export async function createDeveloperWebhook(deps: WebhookOperationDeps, who: DeveloperActor, input: { entityId: string; url: string; types?: string | undefined }): Promise<CreatedWebhook> {
  return withAudit(deps, who.actor, async (scoped) => {
    await requireVisibleEntity(scoped.storage, who.visibility, input.entityId);
    return createWebhook(scoped, input);
  }, {
    action: 'webhooks.create',
    target: (result) => ({ kind: 'webhook', id: result.webhookId }),
    entityId: (result) => result.entityId,
    after: (result) => ({ url: result.url, types: result.types, status: result.status }),
  });
}

/** A change of one webhook the person may see, audited in its transaction (secrets never in the entry). */
function auditedWebhookChange<T>(deps: OperationDeps, who: DeveloperActor, webhookId: string, action: string, run: (scoped: OperationDeps) => Promise<T>, after: (result: T) => unknown): Promise<T> {
  let entityId = '';
  return withAudit(deps, who.actor, async (scoped) => {
    entityId = (await requireVisibleWebhook(scoped.storage, who.visibility, webhookId)).entityId;
    return run(scoped);
  }, { action, target: () => ({ kind: 'webhook', id: webhookId }), entityId: () => entityId, after });
}

export const deactivateDeveloperWebhook = (deps: OperationDeps, who: DeveloperActor, webhookId: string) =>
  auditedWebhookChange(deps, who, webhookId, 'webhooks.deactivate', (scoped) => deactivateWebhook(scoped, webhookId), (result) => ({ status: result.status }));

export const deleteDeveloperWebhook = (deps: OperationDeps, who: DeveloperActor, webhookId: string) =>
  auditedWebhookChange(deps, who, webhookId, 'webhooks.delete', (scoped) => deleteWebhook(scoped, webhookId), () => ({ deleted: true }));

export const rotateDeveloperWebhookSecret = (deps: OperationDeps, who: DeveloperActor, webhookId: string, overlapHours: number): Promise<StartedRotation> =>
  auditedWebhookChange(deps, who, webhookId, 'webhooks.rotate-secret', (scoped) => rotateWebhookSecret(scoped, webhookId, overlapHours), (result) => ({ switchAt: result.switchAt.toISOString() }));

export const confirmDeveloperWebhookSecret = (deps: OperationDeps, who: DeveloperActor, webhookId: string) =>
  auditedWebhookChange(deps, who, webhookId, 'webhooks.confirm-secret', (scoped) => confirmNextSecret(scoped, webhookId), () => ({ secret: 'switched to the new secret' }));

export const cancelDeveloperWebhookRotation = (deps: OperationDeps, who: DeveloperActor, webhookId: string) =>
  auditedWebhookChange(deps, who, webhookId, 'webhooks.cancel-rotation', (scoped) => cancelNextSecret(scoped, webhookId), () => ({ rotation: 'cancelled' }));

/**
 * Sends a test notification now. The call to the receiver is made outside any transaction (it may
 * take the webhook timeout, and the embedded database has one connection), so the audit entry is
 * written right after, with the answer the receiver gave.
 */
export function testDeveloperWebhook(deps: WebhookDeps, who: DeveloperActor, webhookId: string): Promise<TestOutcome> {
  return sendAndRecord(deps, who, webhookId, 'webhooks.test', testWebhook);
}

/**
 * Activates a webhook (also one that was deactivated) by a test notification it must acknowledge;
 * not acknowledged: 502 900.100.100 with the receiver's answer, and nothing is recorded as changed.
 */
export function activateDeveloperWebhook(deps: WebhookDeps, who: DeveloperActor, webhookId: string): Promise<TestOutcome> {
  return sendAndRecord(deps, who, webhookId, 'webhooks.activate', activateWebhook);
}

async function sendAndRecord(deps: WebhookDeps, who: DeveloperActor, webhookId: string, action: string, send: (deps: WebhookDeps, webhookId: string) => Promise<TestOutcome>): Promise<TestOutcome> {
  const { merchantId } = await requireVisibleWebhook(deps.storage, who.visibility, webhookId);
  const outcome = await send(deps, webhookId);
  await deps.storage.transaction((tx) => recordChange(tx, deps.clock, {
    actor: who.actor, action, target: { kind: 'webhook', id: webhookId }, merchantId,
    after: { httpStatus: outcome.attempt.httpStatus, error: outcome.attempt.error, acknowledged: outcome.attempt.acknowledged, status: outcome.webhook.status },
  }));
  return outcome;
}
