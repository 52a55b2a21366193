import { generateWebhookSecret } from '../../domain/webhook-crypto.js';
import { enqueueJob } from '../../storage/repositories/jobs.js';
import { beginSecretRotation, cancelSecretRotation, switchToNextSecret } from '../../storage/repositories/webhook-rotation.js';
import type { OperationDeps } from '../deps.js';
import { invalidParameter, webhookNotFound } from './webhook-errors.js';

/** The job that ends a rotation's overlap: the next secret replaces the old one (jobs/switch-webhook-secret.ts). */
export const SWITCH_WEBHOOK_SECRET_JOB = 'switch-webhook-secret';

export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;
/** A week: longer, and a forgotten rotation leaves a shown secret unused for too long. */
export const MAX_ROTATION_OVERLAP_HOURS = 168;

/** The only time the new secret is shown. */
export interface StartedRotation {
  readonly webhookId: string;
  readonly secret: string;
  readonly createdAt: Date;
  /** When deliveries switch to the new secret unless the merchant confirms earlier. */
  readonly switchAt: Date;
}

export function parseOverlapHours(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_ROTATION_OVERLAP_HOURS;
  const hours = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(hours >= 1 && hours <= MAX_ROTATION_OVERLAP_HOURS)) throw invalidParameter('overlapHours', raw, `must be a whole number of hours from 1 to ${MAX_ROTATION_OVERLAP_HOURS}`);
  return hours;
}

/**
 * Makes a webhook's next secret. Deliveries keep the current secret through the overlap (a
 * receiver decrypts with one key at a time, and AES-GCM tells it only "wrong key"), so the
 * merchant installs the new one, then confirms (confirmNextSecret), or the overlap's end switches.
 * A second rotation during the overlap replaces the first's unconfirmed secret.
 */
export async function rotateWebhookSecret(deps: OperationDeps, webhookId: string, overlapHours = DEFAULT_ROTATION_OVERLAP_HOURS): Promise<StartedRotation> {
  const createdAt = deps.clock.now();
  const switchAt = new Date(createdAt.getTime() + overlapHours * 3_600_000);
  const secret = generateWebhookSecret();
  await deps.storage.transaction(async (tx) => {
    if (!(await beginSecretRotation(tx, webhookId, secret, { createdAt, switchAt }))) throw webhookNotFound(webhookId);
    await enqueueJob(tx, { kind: SWITCH_WEBHOOK_SECRET_JOB, payload: { webhookId, createdAt: createdAt.toISOString() }, runAt: switchAt, createdAt });
  });
  return { webhookId, secret, createdAt, switchAt };
}

/** The merchant's receiver holds the new secret: deliveries use it from now on. */
export async function confirmNextSecret(deps: Pick<OperationDeps, 'storage' | 'clock'>, webhookId: string): Promise<{ webhookId: string; switched: true }> {
  if (!(await switchToNextSecret(deps.storage, webhookId, deps.clock.now()))) {
    throw invalidParameter('webhookId', webhookId, 'has no new secret waiting (it was switched already, cancelled, or never made)');
  }
  return { webhookId, switched: true };
}

/** The new secret is dropped before it was used; deliveries go on under the current one. */
export async function cancelNextSecret(deps: Pick<OperationDeps, 'storage' | 'clock'>, webhookId: string): Promise<{ webhookId: string; cancelled: true }> {
  if (!(await cancelSecretRotation(deps.storage, webhookId, deps.clock.now()))) {
    throw invalidParameter('webhookId', webhookId, 'has no new secret waiting');
  }
  return { webhookId, cancelled: true };
}
