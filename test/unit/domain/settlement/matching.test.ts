import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideMatch, type MatchCandidate, type MatchableRecord } from '../../../../src/domain/settlement/matching.js';

const DAY = new Date('2026-11-22T10:00:00Z');

function candidate(id: string, fields: Partial<MatchCandidate> = {}): MatchCandidate {
  return { id, entityId: 'e', paymentType: 'DB', status: 'success', amountMinor: 1500n, currency: 'EUR', merchantTransactionId: null, createdAt: DAY, reference: null, ...fields };
}

const record = (fields: Partial<MatchableRecord> = {}): MatchableRecord =>
  ({ reference: null, merchantTransactionId: null, amountMinor: 1500n, currency: 'EUR', transactionDate: DAY, ...fields });

describe('matching a settlement record (a row per rule)', () => {
  const cases: [string, MatchableRecord, MatchCandidate[], string, string[]][] = [
    ['reference names one transaction', record({ reference: 'R1' }), [candidate('a', { reference: 'R1' })], 'MATCHED', ['a']],
    ['reference wins over the fallback', record({ reference: 'R1', merchantTransactionId: 'm' }), [candidate('a', { reference: 'R1' }), candidate('b', { merchantTransactionId: 'm' })], 'MATCHED', ['a']],
    ['reference names two', record({ reference: 'R1' }), [candidate('b', { reference: 'R1' }), candidate('a', { reference: 'R1' })], 'MULTIPLE_MATCHES', ['a', 'b']],
    ['unknown reference, fallback fits', record({ reference: 'R9', merchantTransactionId: 'm' }), [candidate('a', { merchantTransactionId: 'm' })], 'MATCHED', ['a']],
    ['fallback: other amount', record({ merchantTransactionId: 'm', amountMinor: 1501n }), [candidate('a', { merchantTransactionId: 'm' })], 'NOT_MATCHED', []],
    ['fallback: other currency', record({ merchantTransactionId: 'm', currency: 'USD' }), [candidate('a', { merchantTransactionId: 'm' })], 'NOT_MATCHED', []],
    ['fallback: other day', record({ merchantTransactionId: 'm' }), [candidate('a', { merchantTransactionId: 'm', createdAt: new Date('2026-11-23T00:00:00Z') })], 'NOT_MATCHED', []],
    ['fallback: two fit', record({ merchantTransactionId: 'm' }), [candidate('a', { merchantTransactionId: 'm' }), candidate('b', { merchantTransactionId: 'm' })], 'MULTIPLE_MATCHES', ['a', 'b']],
    ['no merchantTransactionId: no fallback', record(), [candidate('a')], 'NOT_MATCHED', []],
    ['a declined transaction never matches', record({ reference: 'R1' }), [candidate('a', { reference: 'R1', status: 'rejected' })], 'NOT_MATCHED', []],
    ['a PA moved no money', record({ reference: 'R1' }), [candidate('a', { reference: 'R1', paymentType: 'PA' })], 'NOT_MATCHED', []],
    ['the gateway\'s own CB is no settled transaction', record({ reference: 'R1' }), [candidate('a', { reference: 'R1', paymentType: 'CB' })], 'NOT_MATCHED', []],
    ['nothing at all', record({ reference: 'R1' }), [], 'NOT_MATCHED', []],
  ];
  for (const [name, input, candidates, status, ids] of cases) {
    it(name, () => {
      const decision = decideMatch(input, candidates);
      assert.deepEqual([decision.status, decision.matchedIds], [status, ids]);
    });
  }
});
