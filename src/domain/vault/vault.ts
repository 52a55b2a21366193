import type { Clock, IdGenerator } from '../ids.js';
import { newRandomKey, openBytes, sealBytes } from './cipher.js';
import { accountFingerprint, type FingerprintKind } from './fingerprint.js';
import type { MasterKeyRing } from './master-keys.js';
import type { DataKeyPurpose, DataKeyStore, StoredDataKey } from './ports.js';

/** A secret sealed under a data key; the key id says which one opens it. */
export interface SealedSecret {
  readonly dataKeyId: string;
  readonly sealed: Buffer;
}

export interface RotationReport {
  readonly currentMasterKeyId: string;
  readonly rewrapped: number;
  /** Data keys another process re-wrapped in the meantime. */
  readonly skipped: number;
}

const LOOKUP_PERIOD = 'lookup';
// Unwrapped data keys kept in memory: a year of daily keys plus the look-up key.
const CACHE_LIMIT = 400;

function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The associated data of a wrapped key: it cannot be moved to another row of vault_keys. */
function wrapContext(key: Pick<StoredDataKey, 'id' | 'purpose'>): string {
  return `vault-key:${key.purpose}:${key.id}`;
}

/**
 * Envelope encryption. Secrets are sealed with AES-256-GCM under a data key of the day; data
 * keys are stored wrapped by the master key and cached unwrapped in memory. One key per day
 * bounds how many values share a key (GCM's random IVs stay far below their 2^32 limit) and
 * keeps a rotation of the master key to re-wrapping a few hundred small rows, never the records.
 * Call it outside database transactions: it reads and creates keys through its own store.
 */
export class Vault {
  private lookupKey: Promise<Buffer> | undefined;

  constructor(
    private readonly ring: MasterKeyRing,
    private readonly store: DataKeyStore,
    private readonly clock: Clock,
    private readonly ids: Pick<IdGenerator, 'id'>,
    private readonly cache = new Map<string, Buffer>(),
  ) {}

  /**
   * The same vault reading and writing its data keys through `store`: a caller's open transaction
   * (an audited change that seals credentials), so that nothing waits for a second connection
   * (PGlite has one). Unwrapped keys stay shared.
   */
  within(store: DataKeyStore): Vault {
    return new Vault(this.ring, store, this.clock, this.ids, this.cache);
  }

  get currentMasterKeyId(): string {
    return this.ring.current.id;
  }

  /** Seals a JSON object of secrets for one record; `recordContext` must be the record's own name. */
  async seal(recordContext: string, secret: Readonly<Record<string, string>>): Promise<SealedSecret> {
    const dataKey = await this.keyOfPeriod('data', dayOf(this.clock.now()));
    const sealed = sealBytes(dataKey.key, Buffer.from(JSON.stringify(secret), 'utf8'), recordContext);
    return { dataKeyId: dataKey.id, sealed };
  }

  async open(recordContext: string, secret: SealedSecret): Promise<Record<string, string>> {
    const key = await this.keyById(secret.dataKeyId);
    return JSON.parse(openBytes(key, secret.sealed, recordContext).toString('utf8')) as Record<string, string>;
  }

  async fingerprint(kind: FingerprintKind, value: string): Promise<string> {
    // The lookup key never changes (one period for ever): read once, not a query per payment
    // (the risk engine fingerprints every card). A failed read is tried again next time.
    this.lookupKey ??= this.keyOfPeriod('lookup', LOOKUP_PERIOD).then(
      (lookup) => lookup.key,
      (error: unknown) => {
        this.lookupKey = undefined;
        throw error;
      },
    );
    return accountFingerprint(await this.lookupKey, kind, value);
  }

  /**
   * Re-wraps every data key the current master key does not wrap yet. Records are untouched and
   * cached keys stay valid, so gateways keep serving while it runs; running it twice is harmless.
   */
  async rotateToCurrentMasterKey(): Promise<RotationReport> {
    const current = this.ring.current.id;
    let rewrapped = 0;
    let skipped = 0;
    for (const stored of await this.store.listNotWrappedBy(current)) {
      const context = wrapContext(stored);
      const key = this.ring.unwrap(stored, context);
      const done = await this.store.rewrap(stored.id, stored.masterKeyId, this.ring.wrap(key, context), this.clock.now());
      if (done) rewrapped += 1;
      else skipped += 1;
    }
    return { currentMasterKeyId: current, rewrapped, skipped };
  }

  private async keyOfPeriod(purpose: DataKeyPurpose, period: string): Promise<{ id: string; key: Buffer }> {
    let stored = await this.store.findByPeriod(purpose, period);
    if (!stored) {
      const id = this.ids.id();
      const wrapped = this.ring.wrap(newRandomKey(), wrapContext({ id, purpose }));
      await this.store.insertIfAbsent({ id, purpose, period, ...wrapped, createdAt: this.clock.now() });
      // Read back: when another process inserted first, its key is the key of the period.
      stored = await this.store.findByPeriod(purpose, period);
      if (!stored) throw new Error(`vault ${purpose} key of ${period} could not be created`);
    }
    return { id: stored.id, key: this.unwrapCached(stored) };
  }

  private async keyById(id: string): Promise<Buffer> {
    const cached = this.cache.get(id);
    if (cached) return cached;
    const stored = await this.store.findById(id);
    if (!stored) throw new Error(`vault data key ${id} does not exist`);
    return this.unwrapCached(stored);
  }

  private unwrapCached(stored: StoredDataKey): Buffer {
    const cached = this.cache.get(stored.id);
    if (cached) return cached;
    const key = this.ring.unwrap(stored, wrapContext(stored));
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(stored.id, key);
    return key;
  }
}
