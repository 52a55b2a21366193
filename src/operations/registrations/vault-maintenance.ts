import type { FingerprintKind, RotationReport, Vault } from '../../domain/vault/index.js';
import type { Queryable } from '../../storage/port.js';
import { findRegistrationsByFingerprint, type RegistrationListing } from '../../storage/repositories/registrations.js';
import { createDataKeyStore } from '../../storage/repositories/vault-keys.js';

export interface VaultStatus {
  readonly currentMasterKeyId: string;
  /** Data keys per master key: a key may be retired once it wraps none. */
  readonly dataKeys: ReadonlyArray<{ masterKeyId: string; purpose: string; count: number; current: boolean }>;
}

export async function vaultStatus(db: Queryable, vault: Vault): Promise<VaultStatus> {
  const counts = await createDataKeyStore(db).countByMasterKey();
  const current = vault.currentMasterKeyId;
  return { currentMasterKeyId: current, dataKeys: counts.map((row) => ({ ...row, current: row.masterKeyId === current })) };
}

/** `vault rotate-key`: every data key re-wrapped by the vault's current master key. */
export async function rotateVaultKey(db: Queryable, vault: Vault): Promise<RotationReport & { readonly after: VaultStatus }> {
  const report = await vault.rotateToCurrentMasterKey();
  return { ...report, after: await vaultStatus(db, vault) };
}

/**
 * The registrations (not deregistered) holding one account number, found by its fingerprint:
 * for a card reported stolen or a cardholder's request to erase stored data.
 */
export async function findRegistrationsOfAccount(db: Queryable, vault: Vault, kind: FingerprintKind, number: string): Promise<RegistrationListing[]> {
  return findRegistrationsByFingerprint(db, await vault.fingerprint(kind, number));
}
