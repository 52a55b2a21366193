import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldByThisClaim } from '../../../src/storage/repositories/idempotency-keys.js';

/** A claim whose answer was lost, and what the leader may hold under its key afterwards. */
const now = new Date('2026-11-27T12:00:00.000Z');
const leaseUntil = new Date('2026-11-27T12:00:30.000Z');
const claim = { claimId: 'c-this', requestHash: 'h-this', now, leaseUntil };
const record = { claim_id: 'c-this' as string | null, request_hash: 'h-this', state: 'in_flight', created_at: now, lease_until: leaseUntil as Date | null };

describe('whether a key record found after a lost claim is this claim\'s', () => {
  const cases: Array<[string, Partial<typeof record>, boolean]> = [
    ['a fresh claim: the record carries its claim id', {}, true],
    ['a takeover: the earlier claim id kept, with the times this claim set', { claim_id: 'c-earlier' }, true],
    ['another request\'s claim of the same request (other times)', { claim_id: 'c-other', created_at: new Date(now.getTime() - 5), lease_until: new Date(leaseUntil.getTime() - 5) }, false],
    ['the same times but another request', { claim_id: 'c-other', request_hash: 'h-other' }, false],
    ['completed already: not a claim in flight', { state: 'done' }, false],
    ['an old record without a claim id', { claim_id: null }, false],
    ['a takeover whose lease differs', { claim_id: 'c-earlier', lease_until: new Date(leaseUntil.getTime() + 1) }, false],
  ];
  for (const [name, change, expected] of cases) {
    it(`${name}: ${expected ? 'this claim' : 'not this claim (claimed again)'}`, () => {
      assert.equal(heldByThisClaim({ ...record, ...change }, claim), expected);
    });
  }
});
