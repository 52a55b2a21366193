import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decryptNotification, encryptNotification, generateWebhookSecret, isWebhookSecret } from '../../../src/domain/webhook-crypto.js';

// compatibility.md, "Webhooks as the public interface sends them".
const VECTOR = {
  key: '000102030405060708090a0b0c0d0e0f000102030405060708090a0b0c0d0e0f',
  iv: Buffer.alloc(12),
  plaintext: '{"type":"PAYMENT"}',
  body: '0A3471C72D9BE49A8520F79C66BBD9A12FF9',
  tag: 'CE573FB7A41AB78E743180DC83FF09BD',
};

describe('webhook encryption (AES-256-GCM)', () => {
  it('encrypts the test vector to its body and tag, in upper-case hex', () => {
    const encrypted = encryptNotification(VECTOR.plaintext, VECTOR.key, VECTOR.iv);
    assert.equal(encrypted.bodyHex, VECTOR.body);
    assert.equal(encrypted.tagHex, VECTOR.tag);
    assert.equal(encrypted.ivHex, '000000000000000000000000');
  });

  it('decrypts the test vector back to its plaintext', () => {
    const plaintext = decryptNotification({ bodyHex: VECTOR.body, ivHex: '000000000000000000000000', tagHex: VECTOR.tag }, VECTOR.key);
    assert.equal(plaintext, VECTOR.plaintext);
  });

  it('decrypts lower-case hex as well', () => {
    const message = { bodyHex: VECTOR.body.toLowerCase(), ivHex: '00'.repeat(12), tagHex: VECTOR.tag.toLowerCase() };
    assert.equal(decryptNotification(message, VECTOR.key.toUpperCase()), VECTOR.plaintext);
  });

  it('uses a fresh IV each time, so the same body never encrypts the same way twice', () => {
    const key = generateWebhookSecret();
    const first = encryptNotification('{"type":"PAYMENT","payload":{}}', key);
    const second = encryptNotification('{"type":"PAYMENT","payload":{}}', key);
    assert.notEqual(first.ivHex, second.ivHex);
    assert.notEqual(first.bodyHex, second.bodyHex);
    assert.match(first.ivHex, /^[0-9A-F]{24}$/);
    assert.match(first.tagHex, /^[0-9A-F]{32}$/);
    assert.equal(decryptNotification(second, key), '{"type":"PAYMENT","payload":{}}');
  });

  it('refuses a message under another key or with an altered body or tag', () => {
    const encrypted = encryptNotification(VECTOR.plaintext, VECTOR.key, VECTOR.iv);
    assert.throws(() => decryptNotification(encrypted, generateWebhookSecret()));
    assert.throws(() => decryptNotification({ ...encrypted, bodyHex: `1${encrypted.bodyHex.slice(1)}` }, VECTOR.key));
    assert.throws(() => decryptNotification({ ...encrypted, tagHex: `0${encrypted.tagHex.slice(1)}` }, VECTOR.key));
  });

  it('generates 64-hex secrets and rejects keys of another shape', () => {
    const secret = generateWebhookSecret();
    assert.match(secret, /^[0-9a-f]{64}$/);
    assert.ok(isWebhookSecret(secret));
    assert.ok(!isWebhookSecret(secret.slice(1)));
    assert.throws(() => encryptNotification('x', 'zz'.repeat(32)));
    assert.throws(() => encryptNotification('x', secret, Buffer.alloc(16)));
  });
});
