import type { Actor } from '../../domain/access/actor.js';
import type { Clock } from '../../domain/ids.js';
import type { Vault } from '../../domain/vault/index.js';
import type { Storage } from '../../storage/port.js';
import { recordCompletedChange } from '../audit/audited.js';
import { rotateVaultKey } from '../registrations/vault-maintenance.js';

/**
 * POST /admin/vault/rotate-key from the console: every data key re-wrapped by the current master
 * key, then the same audit entry (vault.rotate-key). The rotation writes through the vault's own
 * key store, so the entry follows it in a transaction of its own, as the admin API's does.
 */
export async function rotateVaultKeyAsOperator(deps: { readonly storage: Storage; readonly clock: Clock; readonly vault: Vault }, actor: Actor): ReturnType<typeof rotateVaultKey> {
  const report = await rotateVaultKey(deps.storage, deps.vault);
  await recordCompletedChange(deps, actor, { action: 'vault.rotate-key', target: { kind: 'vault', id: report.currentMasterKeyId }, entityId: null, after: { rewrapped: report.rewrapped, skipped: report.skipped } });
  return report;
}
