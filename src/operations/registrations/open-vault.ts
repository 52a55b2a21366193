import type { VaultKeyConfig } from '../../config/vault-config.js';
import type { Clock, IdGenerator } from '../../domain/ids.js';
import { MasterKeyRing, masterKeyFromHex, newRandomKey, Vault } from '../../domain/vault/index.js';
import type { Queryable } from '../../storage/port.js';
import { createDataKeyStore } from '../../storage/repositories/vault-keys.js';

export interface VaultOpenDeps {
  readonly storage: Queryable;
  readonly clock: Clock;
  readonly ids: Pick<IdGenerator, 'id'>;
}

/**
 * The master keys of the configuration. `rotationTarget`: the command line's view during an
 * offline rotation, where VAULT_MASTER_KEY_NEW wraps and every configured key unwraps.
 */
export function masterKeyRingOf(config: VaultKeyConfig, rotationTarget = false): MasterKeyRing {
  const configured = masterKeyFromHex(config.masterKeyHex);
  const accepted = config.acceptedKeysHex.map(masterKeyFromHex);
  if (rotationTarget && config.newMasterKeyHex) return new MasterKeyRing(masterKeyFromHex(config.newMasterKeyHex), [configured, ...accepted]);
  return new MasterKeyRing(configured, accepted);
}

export function openVault(deps: VaultOpenDeps, ring: MasterKeyRing): Vault {
  return new Vault(ring, createDataKeyStore(deps.storage), deps.clock, deps.ids);
}

/**
 * A vault whose master key lives only in this process: for tests and tools that build the app
 * without configuration. What it seals is unreadable after the process ends, so main.ts never
 * uses it.
 */
export function createEphemeralVault(deps: VaultOpenDeps): Vault {
  return openVault(deps, new MasterKeyRing(masterKeyFromHex(newRandomKey().toString('hex'))));
}
