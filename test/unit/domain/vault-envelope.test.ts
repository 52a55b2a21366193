import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  MasterKeyRing,
  MasterKeyUnavailableError,
  Vault,
  VaultIntegrityError,
  masterKeyFromHex,
  type DataKeyStore,
  type StoredDataKey,
} from '../../../src/domain/vault/index.js';

/** The vault_keys table in memory, with the same unique (purpose, period) rule. */
function memoryStore(): DataKeyStore & { rows: Map<string, StoredDataKey> } {
  const rows = new Map<string, StoredDataKey>();
  return {
    rows,
    findByPeriod: async (purpose, period) => [...rows.values()].find((row) => row.purpose === purpose && row.period === period),
    findById: async (id) => rows.get(id),
    async insertIfAbsent(key) {
      if (![...rows.values()].some((row) => row.purpose === key.purpose && row.period === key.period)) rows.set(key.id, key);
    },
    listNotWrappedBy: async (masterKeyId) => [...rows.values()].filter((row) => row.masterKeyId !== masterKeyId),
    async rewrap(id, from, to) {
      const row = rows.get(id);
      if (!row || row.masterKeyId !== from) return false;
      rows.set(id, { ...row, ...to });
      return true;
    },
    countByMasterKey: async () => [],
  };
}

class Clock {
  constructor(public current = new Date('2026-11-22T10:00:00Z')) {}
  now = () => new Date(this.current);
}

const ids = { id: () => randomBytes(16).toString('hex') };
const OLD = masterKeyFromHex('aa'.repeat(32));
const NEW = masterKeyFromHex('bb'.repeat(32));
const vaultWith = (store: DataKeyStore, clock: Clock, current: typeof OLD, accepted: (typeof OLD)[] = []) => new Vault(new MasterKeyRing(current, accepted), store, clock, ids);

describe('vault envelope encryption', () => {
  it('seals a record under the data key of the day and opens it', async () => {
    const store = memoryStore();
    const vault = vaultWith(store, new Clock(), OLD);
    const sealed = await vault.seal('registration:1', { number: '4200000000000000' });
    assert.ok(!sealed.sealed.includes(Buffer.from('4200000000000000')));
    assert.deepEqual(await vault.open('registration:1', sealed), { number: '4200000000000000' });
    const stored = store.rows.get(sealed.dataKeyId)!;
    assert.equal(stored.period, '2026-11-22');
    assert.equal(stored.masterKeyId, OLD.id);
  });

  it('shares one data key per day, and starts a new one the next day', async () => {
    const clock = new Clock();
    const vault = vaultWith(memoryStore(), clock, OLD);
    const first = await vault.seal('registration:1', { number: '1' });
    const second = await vault.seal('registration:2', { number: '2' });
    clock.current = new Date('2026-11-23T00:00:01Z');
    const third = await vault.seal('registration:3', { number: '3' });
    assert.equal(first.dataKeyId, second.dataKeyId);
    assert.notEqual(third.dataKeyId, first.dataKeyId);
  });

  it('agrees on one key when two processes create the day\'s key at once', async () => {
    const store = memoryStore();
    const clock = new Clock();
    const [a, b] = await Promise.all([vaultWith(store, clock, OLD).seal('registration:a', { n: 'a' }), vaultWith(store, clock, OLD).seal('registration:b', { n: 'b' })]);
    assert.equal(a.dataKeyId, b.dataKeyId);
    assert.equal(store.rows.size, 1);
  });

  it('refuses to open a record under another record\'s name', async () => {
    const vault = vaultWith(memoryStore(), new Clock(), OLD);
    const sealed = await vault.seal('registration:1', { number: '4200000000000000' });
    await assert.rejects(vault.open('registration:2', sealed), VaultIntegrityError);
  });

  it('gives the same fingerprint in every process sharing the store', async () => {
    const store = memoryStore();
    const clock = new Clock();
    const first = await vaultWith(store, clock, OLD).fingerprint('card', '4200000000000000');
    assert.equal(await vaultWith(store, clock, OLD).fingerprint('card', '4200 0000 0000 0000'), first);
    assert.match(first, /^[0-9a-f]{64}$/);
  });
});

describe('vault master-key rotation', () => {
  async function sealedUnderOld() {
    const store = memoryStore();
    const clock = new Clock();
    const before = vaultWith(store, clock, OLD);
    const records = [await before.seal('registration:1', { number: '4200000000000000' })];
    clock.current = new Date('2026-11-23T10:00:00Z');
    records.push(await before.seal('registration:2', { iban: 'DE23100000001234567890' }));
    const fingerprint = await before.fingerprint('card', '4200000000000000');
    return { store, clock, records, fingerprint };
  }

  it('re-wraps every data key with the new key; the records open with the new key alone', async () => {
    const { store, clock, records, fingerprint } = await sealedUnderOld();
    const report = await vaultWith(store, clock, NEW, [OLD]).rotateToCurrentMasterKey();
    assert.deepEqual(report, { currentMasterKeyId: NEW.id, rewrapped: 3, skipped: 0 });
    assert.ok([...store.rows.values()].every((row) => row.masterKeyId === NEW.id));
    const after = vaultWith(store, clock, NEW);
    assert.deepEqual(await after.open('registration:1', records[0]!), { number: '4200000000000000' });
    assert.deepEqual(await after.open('registration:2', records[1]!), { iban: 'DE23100000001234567890' });
    assert.equal(await after.fingerprint('card', '4200000000000000'), fingerprint, 'the look-up key is re-wrapped, not replaced');
  });

  it('is harmless to run twice and leaves nothing the old key alone could open', async () => {
    const { store, clock, records } = await sealedUnderOld();
    const rotating = vaultWith(store, clock, NEW, [OLD]);
    await rotating.rotateToCurrentMasterKey();
    assert.deepEqual(await rotating.rotateToCurrentMasterKey(), { currentMasterKeyId: NEW.id, rewrapped: 0, skipped: 0 });
    await assert.rejects(vaultWith(store, clock, OLD).open('registration:1', records[0]!), MasterKeyUnavailableError);
  });

  it('keeps serving during the rotation: a process that knows both keys reads old and new wrappings', async () => {
    const { store, clock, records } = await sealedUnderOld();
    const both = vaultWith(store, clock, OLD, [NEW]);
    const firstKey = store.rows.get(records[0]!.dataKeyId)!;
    await store.rewrap(firstKey.id, OLD.id, new MasterKeyRing(NEW, [OLD]).wrap(new MasterKeyRing(OLD).unwrap(firstKey, `vault-key:data:${firstKey.id}`), `vault-key:data:${firstKey.id}`), clock.now());
    assert.deepEqual(await both.open('registration:1', records[0]!), { number: '4200000000000000' });
    assert.deepEqual(await both.open('registration:2', records[1]!), { iban: 'DE23100000001234567890' });
  });

  it('stops with the id of a master key it does not have', async () => {
    const { store, clock } = await sealedUnderOld();
    const stranger = masterKeyFromHex('cc'.repeat(32));
    await assert.rejects(vaultWith(store, clock, NEW, [stranger]).rotateToCurrentMasterKey(), (error: unknown) => error instanceof MasterKeyUnavailableError && error.masterKeyId === OLD.id);
  });
});
