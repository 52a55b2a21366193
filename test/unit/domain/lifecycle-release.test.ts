import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { releaseReservation, type RejectedChild } from '../../../src/domain/lifecycle/release.js';
import type { TransactionState } from '../../../src/domain/transaction.js';
import { CREATED_AT, parentOf } from './lifecycle-fixtures.js';

type Expected = Partial<Pick<TransactionState, 'capturedMinor' | 'captureCount' | 'captureClosed' | 'refundedMinor' | 'refundClosed' | 'reversedAt'>>;

// One row per case: the parent as the declined child left it, the child, whether another FINAL
// child still stands, and what the parent must look like after the release.
const cases: { name: string; parent: Partial<TransactionState>; child: RejectedChild; finalSibling: boolean; expected: Expected }[] = [
  {
    name: 'a declined partial capture gives its amount and count back',
    parent: { capturedMinor: 3_000n, captureCount: 2 },
    child: { paymentType: 'CP', amountMinor: 1_000n },
    finalSibling: false,
    expected: { capturedMinor: 2_000n, captureCount: 1, captureClosed: false },
  },
  {
    name: 'a declined capture of everything reopens the PA',
    parent: { capturedMinor: 10_000n, captureCount: 1, captureClosed: true },
    child: { paymentType: 'CP', amountMinor: 10_000n },
    finalSibling: false,
    expected: { capturedMinor: 0n, captureCount: 0, captureClosed: false },
  },
  {
    name: 'a declined capture leaves the PA closed when a FINAL capture still stands',
    parent: { capturedMinor: 10_000n, captureCount: 2, captureClosed: true },
    child: { paymentType: 'CP', amountMinor: 3_000n },
    finalSibling: true,
    expected: { capturedMinor: 7_000n, captureCount: 1, captureClosed: true },
  },
  {
    name: 'a declined capture leaves the PA closed when the capture limit is still reached',
    parent: { capturedMinor: 2_000n, captureCount: 2, maxCaptures: 1, captureClosed: true },
    child: { paymentType: 'CP', amountMinor: 1_000n },
    finalSibling: false,
    expected: { capturedMinor: 1_000n, captureCount: 1, captureClosed: true },
  },
  {
    name: 'a declined refund gives its amount back and reopens refunds',
    parent: { paymentType: 'DB', refundedMinor: 10_000n, refundClosed: true },
    child: { paymentType: 'RF', amountMinor: 4_000n },
    finalSibling: false,
    expected: { refundedMinor: 6_000n, refundClosed: false },
  },
  {
    name: 'a declined refund keeps refunds closed behind a FINAL refund',
    parent: { paymentType: 'DB', refundedMinor: 5_000n, refundClosed: true },
    child: { paymentType: 'RF', amountMinor: 1_000n },
    finalSibling: true,
    expected: { refundedMinor: 4_000n, refundClosed: true },
  },
  {
    name: 'a declined reversal of a PA makes it capturable again',
    parent: { reversedAt: CREATED_AT, captureClosed: true, refundClosed: true },
    child: { paymentType: 'RV', amountMinor: 10_000n },
    finalSibling: false,
    expected: { reversedAt: null, captureClosed: false, refundClosed: false },
  },
  {
    name: 'a declined reversal of a DB makes it refundable again',
    parent: { paymentType: 'DB', reversedAt: CREATED_AT, refundClosed: true },
    child: { paymentType: 'RV', amountMinor: 10_000n },
    finalSibling: false,
    expected: { reversedAt: null, refundClosed: false },
  },
];

describe('releaseReservation', () => {
  for (const row of cases) {
    it(row.name, () => {
      const released = releaseReservation(parentOf(row.parent), row.child, row.finalSibling);
      for (const [field, value] of Object.entries(row.expected)) {
        assert.deepEqual(released[field as keyof TransactionState], value, field);
      }
    });
  }
});
