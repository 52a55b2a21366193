import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { WALLET_TEST_KEYS_HEX, decryptWalletToken, encryptWalletTokenForTests } from '../../../src/connectors/simulator/wallet-token.js';

const CARD = { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=', eci: '05' };

describe('wallet test tokens', () => {
  it('the test keys are the documented hashes', () => {
    for (const [wallet, key] of Object.entries(WALLET_TEST_KEYS_HEX)) {
      assert.equal(key, createHash('sha256').update(`open-payment-gateway simulator ${wallet} test key`).digest('hex'));
    }
  });

  it('round-trip for every wallet, with and without optional fields', () => {
    for (const wallet of ['walletA', 'walletB', 'walletC'] as const) {
      assert.deepEqual(decryptWalletToken(wallet, encryptWalletTokenForTests(wallet, CARD)), { ok: true, card: CARD });
      const plain = { number: '5454545454545454', expiryMonth: '12', expiryYear: '2030' };
      assert.deepEqual(decryptWalletToken(wallet, encryptWalletTokenForTests(wallet, plain)), { ok: true, card: plain });
    }
  });

  it('is deterministic without an IV and uses the IV given', () => {
    assert.equal(encryptWalletTokenForTests('walletA', CARD), encryptWalletTokenForTests('walletA', CARD));
    const iv = new Uint8Array(12);
    const token = encryptWalletTokenForTests('walletA', CARD, iv);
    assert.deepEqual([...Buffer.from(token, 'base64').subarray(0, 12)], [...iv]);
  });

  const failures: ReadonlyArray<readonly [string, () => string, string]> = [
    ['not base64', () => 'not a token!', 'malformed'],
    ['too short', () => Buffer.alloc(28).toString('base64'), 'malformed'],
    ['another wallet\'s token', () => encryptWalletTokenForTests('walletB', CARD), 'not-authentic'],
    ['a flipped ciphertext bit', () => flipByte(encryptWalletTokenForTests('walletA', CARD), 14), 'not-authentic'],
    ['a payload without expiry', () => encryptWalletTokenForTests('walletA', { number: '4200000000000000' } as never), 'invalid-payload'],
    ['a payload with letters in the number', () => encryptWalletTokenForTests('walletA', { ...CARD, number: '4200abcd00000000' }), 'invalid-payload'],
    ['a payload with ECI 09', () => encryptWalletTokenForTests('walletA', { ...CARD, eci: '09' }), 'invalid-payload'],
  ];
  for (const [name, token, reason] of failures) {
    it(`refuses ${name} without revealing content`, () => {
      const result = decryptWalletToken('walletA', token());
      assert.deepEqual(result, { ok: false, reason });
    });
  }
});

function flipByte(token: string, index: number): string {
  const bytes = Buffer.from(token, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64');
}
