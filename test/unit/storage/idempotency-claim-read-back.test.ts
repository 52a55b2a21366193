import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CommitUncertainError } from '../../../src/storage/errors.js';
import type { Queryable } from '../../../src/storage/port.js';
import { claimIdempotencyKey, heldByThisClaim } from '../../../src/storage/repositories/idempotency-keys.js';

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

/** A database that answers the statements it is sent from a script, in order, and records their first words. */
function scripted(answers: Array<Record<string, unknown>[] | Error>): { db: Queryable; sent: string[] } {
  const sent: string[] = [];
  const db: Queryable = {
    async query<Row>(sql: string) {
      sent.push(sql.trim().split(/\s+/).slice(0, 2).join(' '));
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unscripted statement: ${sql}`);
      if (answer instanceof Error) throw answer;
      return { rows: answer as Row[], rowCount: answer.length };
    },
  };
  return { db, sent };
}

describe('a claim whose answer was lost', () => {
  const keyClaim = { entityId: 'e', key: 'k', requestHash: 'h-this', now, expiresAt: new Date(now.getTime() + 86_400_000), leaseUntil, claimId: 'c-this' };
  const lost = () => new CommitUncertainError(new Error('Connection terminated unexpectedly'));
  const ours = { ...record };
  const holder = { request_hash: 'h-this', state: 'in_flight', response_status: null, response_body: null, expires_at: keyClaim.expiresAt, lease_until: leaseUntil };

  it('is this request\'s when the leader holds its record', async () => {
    const { db, sent } = scripted([lost(), [ours]]);
    assert.deepEqual(await claimIdempotencyKey(db, keyClaim), { claimed: true, claimId: 'c-this', takenOver: false });
    assert.deepEqual(sent, ['INSERT INTO', 'SELECT claim_id,']);
  });

  it('is made again when the leader lacks it', async () => {
    const { db, sent } = scripted([lost(), [], [{ claim_id: 'c-this' }]]);
    assert.deepEqual(await claimIdempotencyKey(db, keyClaim), { claimed: true, claimId: 'c-this', takenOver: false });
    assert.deepEqual(sent, ['INSERT INTO', 'SELECT claim_id,', 'INSERT INTO']);
  });

  it('is this request\'s when the lost statement commits between the look and the claim made again (a partition: refused as in flight, then found)', async () => {
    const { db, sent } = scripted([lost(), [], [], [holder], [ours]]);
    assert.deepEqual(await claimIdempotencyKey(db, keyClaim), { claimed: true, claimId: 'c-this', takenOver: false });
    assert.deepEqual(sent, ['INSERT INTO', 'SELECT claim_id,', 'INSERT INTO', 'SELECT request_hash,', 'SELECT claim_id,']);
  });

  it('answers the holder when another request holds the key', async () => {
    const other = { ...record, claim_id: 'c-other', created_at: new Date(now.getTime() - 9), lease_until: new Date(leaseUntil.getTime() - 9) };
    const { db } = scripted([lost(), [other], [], [holder], [other]]);
    const result = await claimIdempotencyKey(db, keyClaim);
    assert.equal(result.claimed, false);
  });
});
