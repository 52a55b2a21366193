import { sshKeySummary } from '../../domain/settlement/ssh-key-fingerprint.js';
import { findPushTargetSummary } from '../../storage/repositories/settlement-push-targets.js';
import { sftpKeysOf } from '../../storage/repositories/sftp-keys.js';
import type { Queryable } from '../../storage/port.js';

export interface ListedSftpKey {
  readonly keyId: string;
  readonly type: string;
  readonly fingerprint: string;
  readonly addedAt: Date;
}

/** How a merchant receives its reconciliation files: who may fetch them, and where they are pushed. */
export interface FileDelivery {
  readonly keys: readonly ListedSftpKey[];
  /** The URL and when it was set; the password is sealed and never leaves the vault. */
  readonly pushTarget: { readonly url: string; readonly updatedAt: Date } | undefined;
}

/** The merchant's SFTP keys (type and fingerprint, never the whole key) and its push target. */
export async function fileDeliveryOf(deps: { readonly storage: Queryable }, merchantId: string): Promise<FileDelivery> {
  const [stored, pushTarget] = await Promise.all([sftpKeysOf(deps.storage, merchantId), findPushTargetSummary(deps.storage, merchantId)]);
  const keys = stored.map((key) => {
    const summary = sshKeySummary(key.publicKey);
    return { keyId: key.id, type: summary?.type ?? 'unknown', fingerprint: summary?.fingerprint ?? '', addedAt: key.createdAt };
  });
  return { keys, pushTarget };
}
