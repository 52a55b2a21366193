export { KEY_BYTES, VaultIntegrityError, newRandomKey, openBytes, sealBytes } from './cipher.js';
export { accountFingerprint, normalizeAccountNumber, type FingerprintKind } from './fingerprint.js';
export { MasterKeyRing, MasterKeyUnavailableError, isMasterKeyHex, masterKeyFromHex, masterKeyId, type MasterKey, type WrappedKey } from './master-keys.js';
export type { DataKeyPurpose, DataKeyStore, StoredDataKey } from './ports.js';
export { Vault, type RotationReport, type SealedSecret } from './vault.js';
