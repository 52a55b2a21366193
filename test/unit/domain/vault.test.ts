import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  MasterKeyRing,
  MasterKeyUnavailableError,
  VaultIntegrityError,
  accountFingerprint,
  masterKeyFromHex,
  masterKeyId,
  newRandomKey,
  openBytes,
  sealBytes,
} from '../../../src/domain/vault/index.js';

const KEY = Buffer.alloc(32, 1);
const flip = (value: Buffer, index: number) => {
  const copy = Buffer.from(value);
  copy[index] = copy[index]! ^ 0x01;
  return copy;
};

describe('vault cipher (AES-256-GCM)', () => {
  it('opens what it sealed', () => {
    const sealed = sealBytes(KEY, Buffer.from('4200000000000000'), 'registration:a');
    assert.equal(openBytes(KEY, sealed, 'registration:a').toString(), '4200000000000000');
  });

  it('matches the GCM specification: test case 14 (AES-256, zero key, zero IV, one zero block)', () => {
    const ciphertext = Buffer.from('cea7403d4d606b6e074ec5d3baf39d18', 'hex');
    const tag = Buffer.from('d0d1c8a799996bf0265b98b5d48ab919', 'hex');
    const sealed = Buffer.concat([Buffer.of(0x01), Buffer.alloc(12), tag, ciphertext]);
    assert.deepEqual(openBytes(Buffer.alloc(32), sealed, ''), Buffer.alloc(16));
  });

  it('uses a fresh IV every time, so equal secrets never seal alike', () => {
    const first = sealBytes(KEY, Buffer.from('4200000000000000'), 'x');
    const second = sealBytes(KEY, Buffer.from('4200000000000000'), 'x');
    assert.notDeepEqual(first.subarray(1, 13), second.subarray(1, 13));
    assert.notDeepEqual(first, second);
    assert.ok(!first.includes(Buffer.from('4200000000000000')));
  });

  const sealed = sealBytes(KEY, Buffer.from('{"number":"4200000000000000"}'), 'registration:a');
  const tampered: Array<[string, () => unknown]> = [
    ['a flipped ciphertext bit', () => openBytes(KEY, flip(sealed, sealed.length - 1), 'registration:a')],
    ['a flipped tag bit', () => openBytes(KEY, flip(sealed, 14), 'registration:a')],
    ['a flipped IV bit', () => openBytes(KEY, flip(sealed, 2), 'registration:a')],
    ['a truncated value', () => openBytes(KEY, sealed.subarray(0, 20), 'registration:a')],
    ['an unknown format byte', () => openBytes(KEY, flip(sealed, 0), 'registration:a')],
    ['a value moved to another record (other associated data)', () => openBytes(KEY, sealed, 'registration:b')],
    ['another key', () => openBytes(Buffer.alloc(32, 2), sealed, 'registration:a')],
  ];
  for (const [name, open] of tampered) {
    it(`detects ${name}`, () => assert.throws(open, VaultIntegrityError));
  }

  it('refuses keys that are not 32 bytes', () => {
    assert.throws(() => sealBytes(Buffer.alloc(16), Buffer.from('x'), ''), /32 bytes/);
  });
});

describe('vault master keys', () => {
  const oldKey = masterKeyFromHex('11'.repeat(32));
  const newKey = masterKeyFromHex('22'.repeat(32));

  it('names a key by 16 hex characters that are stable and reveal nothing of it', () => {
    assert.match(oldKey.id, /^[0-9a-f]{16}$/);
    assert.equal(masterKeyId(Buffer.from('11'.repeat(32), 'hex')), oldKey.id);
    assert.notEqual(oldKey.id, newKey.id);
    assert.ok(!'11'.repeat(32).includes(oldKey.id));
  });

  it('accepts only 64 hex characters', () => {
    for (const bad of ['11'.repeat(31), 'zz'.repeat(32), '11'.repeat(33), '']) assert.throws(() => masterKeyFromHex(bad));
  });

  it('wraps with the current key and unwraps with the current or an accepted key', () => {
    const dataKey = newRandomKey();
    const wrappedByOld = new MasterKeyRing(oldKey).wrap(dataKey, 'vault-key:data:1');
    assert.equal(wrappedByOld.masterKeyId, oldKey.id);
    const rotating = new MasterKeyRing(newKey, [oldKey]);
    assert.deepEqual(rotating.unwrap(wrappedByOld, 'vault-key:data:1'), dataKey);
    const rewrapped = rotating.wrap(dataKey, 'vault-key:data:1');
    assert.equal(rewrapped.masterKeyId, newKey.id);
    assert.deepEqual(new MasterKeyRing(newKey).unwrap(rewrapped, 'vault-key:data:1'), dataKey);
  });

  it('says which master key is missing instead of failing obscurely', () => {
    const wrapped = new MasterKeyRing(newKey).wrap(newRandomKey(), 'ctx');
    assert.throws(() => new MasterKeyRing(oldKey).unwrap(wrapped, 'ctx'), (error: unknown) => error instanceof MasterKeyUnavailableError && error.masterKeyId === newKey.id);
  });

  it('binds a wrapped key to its row', () => {
    const ring = new MasterKeyRing(oldKey);
    const wrapped = ring.wrap(newRandomKey(), 'vault-key:data:1');
    assert.throws(() => ring.unwrap(wrapped, 'vault-key:data:2'), VaultIntegrityError);
  });
});

describe('account fingerprints (keyed HMAC-SHA256)', () => {
  const lookupKey = Buffer.alloc(32, 7);

  it('is stable: the same key and number always give the same value', () => {
    // Pinned: a change of the input format would orphan every stored fingerprint.
    assert.equal(accountFingerprint(lookupKey, 'card', '4200000000000000'), '120ce8383ef5097808d6468b33310ed737b68dab7b73709b6b1c5888b0375530');
    assert.equal(
      accountFingerprint(lookupKey, 'card', '4200000000000000'),
      createHmac('sha256', lookupKey).update('card:4200000000000000').digest('hex'),
    );
  });

  it('ignores spaces, dashes and letter case', () => {
    assert.equal(accountFingerprint(lookupKey, 'card', '4200 0000-0000 0000'), accountFingerprint(lookupKey, 'card', '4200000000000000'));
    assert.equal(accountFingerprint(lookupKey, 'iban', 'de23 1000 0000 1234 5678 90'), accountFingerprint(lookupKey, 'iban', 'DE23100000001234567890'));
  });

  it('differs by key, by kind and by number, and never contains the number', () => {
    const base = accountFingerprint(lookupKey, 'card', '4200000000000000');
    assert.notEqual(accountFingerprint(Buffer.alloc(32, 8), 'card', '4200000000000000'), base);
    assert.notEqual(accountFingerprint(lookupKey, 'tokenAccount', '4200000000000000'), base);
    assert.notEqual(accountFingerprint(lookupKey, 'card', '5454545454545454'), base);
    assert.ok(!base.includes('4200000000000000'));
  });
});
