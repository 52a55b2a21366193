/**
 * The vault's storage port: data keys, each wrapped by a master key. The repository
 * (storage/repositories/vault-keys.ts) implements it; the vault never sees SQL.
 */
export type DataKeyPurpose = 'data' | 'lookup';

export interface StoredDataKey {
  readonly id: string;
  readonly purpose: DataKeyPurpose;
  /** `yyyy-MM-dd` (UTC) for data keys; `lookup` for the one look-up key. */
  readonly period: string;
  readonly masterKeyId: string;
  readonly wrappedKey: Buffer;
  readonly createdAt: Date;
}

export interface DataKeyStore {
  findByPeriod(purpose: DataKeyPurpose, period: string): Promise<StoredDataKey | undefined>;
  findById(id: string): Promise<StoredDataKey | undefined>;
  /** Inserts unless a key of that purpose and period exists (another process was first). */
  insertIfAbsent(key: StoredDataKey): Promise<void>;
  listNotWrappedBy(masterKeyId: string): Promise<StoredDataKey[]>;
  /** Replaces the wrapping only if it is still the one read (compare-and-set); false otherwise. */
  rewrap(id: string, fromMasterKeyId: string, to: { masterKeyId: string; wrappedKey: Buffer }, at: Date): Promise<boolean>;
  countByMasterKey(): Promise<Array<{ masterKeyId: string; purpose: DataKeyPurpose; count: number }>>;
}
