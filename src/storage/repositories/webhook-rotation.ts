import type { Queryable } from '../port.js';

/** A rotation under way: the new secret exists and replaces the old one at `switchAt` at the latest. */
export interface SecretRotation {
  readonly createdAt: Date;
  readonly switchAt: Date;
}

/** Stores the next secret of a webhook that is not deleted; a rotation under way is replaced. False: no such webhook. */
export async function beginSecretRotation(db: Queryable, webhookId: string, secret: string, rotation: SecretRotation): Promise<boolean> {
  const result = await db.query(
    `UPDATE webhooks SET next_secret = $2, next_secret_created_at = $3, next_secret_switch_at = $4, updated_at = $3
      WHERE id = $1 AND deleted_at IS NULL`,
    [webhookId, secret, rotation.createdAt, rotation.switchAt],
  );
  return result.rowCount > 0;
}

/**
 * The next secret becomes the secret. With `createdAt`, only the rotation begun then (the job of an
 * older rotation must not switch to a newer secret before its own overlap ends). False: nothing to switch.
 */
export async function switchToNextSecret(db: Queryable, webhookId: string, at: Date, createdAt?: Date): Promise<boolean> {
  const result = await db.query(
    `UPDATE webhooks SET secret = next_secret, next_secret = NULL, next_secret_created_at = NULL, next_secret_switch_at = NULL, updated_at = $2
      WHERE id = $1 AND deleted_at IS NULL AND next_secret IS NOT NULL AND ($3::timestamptz IS NULL OR next_secret_created_at = $3::timestamptz)`,
    [webhookId, at, createdAt ?? null],
  );
  return result.rowCount > 0;
}

/** Forgets the next secret: deliveries go on under the current one. */
export async function cancelSecretRotation(db: Queryable, webhookId: string, at: Date): Promise<boolean> {
  const result = await db.query(
    `UPDATE webhooks SET next_secret = NULL, next_secret_created_at = NULL, next_secret_switch_at = NULL, updated_at = $2
      WHERE id = $1 AND deleted_at IS NULL AND next_secret IS NOT NULL`,
    [webhookId, at],
  );
  return result.rowCount > 0;
}

/** The rotations under way among these webhooks (never a secret). */
export async function findSecretRotations(db: Queryable, webhookIds: readonly string[]): Promise<Map<string, SecretRotation>> {
  if (webhookIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; next_secret_created_at: Date; next_secret_switch_at: Date }>(
    `SELECT id, next_secret_created_at, next_secret_switch_at FROM webhooks
      WHERE id = ANY($1::bpchar[]) AND next_secret IS NOT NULL`,
    [[...webhookIds]],
  );
  return new Map(rows.map((r) => [r.id.trim(), { createdAt: r.next_secret_created_at, switchAt: r.next_secret_switch_at }]));
}
