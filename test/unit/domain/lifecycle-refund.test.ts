import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyRefund, decideRefund } from '../../../src/domain/lifecycle/refund.js';
import type { TransactionState } from '../../../src/domain/transaction.js';
import type { LifecyclePolicy } from '../../../src/domain/lifecycle/policy.js';
import type { AmountRequest } from '../../../src/domain/lifecycle/rules.js';
import { resultCode } from '../../../src/results/catalogue.js';
import { OTHER_ENTITY, amountRequest, minutesLater, parentOf, policyOf } from './lifecycle-fixtures.js';

interface RefundRow {
  readonly name: string;
  readonly parent?: Partial<TransactionState>;
  readonly request?: Partial<AmountRequest>;
  readonly policy?: Partial<LifecyclePolicy>;
  readonly expect: string | { refundedMinor: bigint; refundClosed: boolean };
}

const DEBIT: Partial<TransactionState> = { paymentType: 'DB' };

const REFUND_TABLE: readonly RefundRow[] = [
  { name: 'partial refund of a DB', parent: DEBIT, expect: { refundedMinor: 2_500n, refundClosed: false } },
  { name: 'partial refund of a CD', parent: { paymentType: 'CD' }, expect: { refundedMinor: 2_500n, refundClosed: false } },
  { name: 'partial refund of a CP', parent: { paymentType: 'CP' }, expect: { refundedMinor: 2_500n, refundClosed: false } },
  { name: 'refund of the rest closes the DB', parent: { ...DEBIT, refundedMinor: 7_500n }, expect: { refundedMinor: 10_000n, refundClosed: true } },
  { name: 'FINAL partial refund closes the DB', parent: DEBIT, request: { final: true }, expect: { refundedMinor: 2_500n, refundClosed: true } },
  { name: 'refunds long after the payment are fine', parent: { ...DEBIT, createdAt: minutesLater(-400 * 24 * 60) }, expect: { refundedMinor: 2_500n, refundClosed: false } },
  { name: "another entity's DB is not found", parent: DEBIT, request: { entityId: OTHER_ENTITY }, expect: '700.400.580' },
  { name: 'missing amount', parent: DEBIT, request: { amountMinor: null }, expect: '100.550.300' },
  { name: 'zero amount', parent: DEBIT, request: { amountMinor: 0n }, expect: '100.550.300' },
  { name: 'missing currency', parent: DEBIT, request: { currency: null }, expect: '100.550.400' },
  { name: 'refund of a PA (refund its captures instead)', parent: { paymentType: 'PA', capturedMinor: 10_000n }, expect: '700.400.520' },
  { name: 'refund of an RF', parent: { paymentType: 'RF' }, expect: '700.400.520' },
  { name: 'refund of an RV', parent: { paymentType: 'RV' }, expect: '700.400.520' },
  { name: 'refund of a pending DB', parent: { ...DEBIT, status: 'pending' }, expect: '700.400.570' },
  { name: 'refund of a rejected DB', parent: { ...DEBIT, status: 'rejected' }, expect: '700.300.200' },
  { name: 'connector without refunds', parent: DEBIT, policy: { supportsRefund: false }, expect: '600.200.400' },
  { name: 'connector whose payment types leave out RF', parent: DEBIT, policy: { paymentTypes: ['PA', 'DB', 'CP', 'RV'] }, expect: '600.200.400' },
  { name: 'currency differs from the DB', parent: DEBIT, request: { currency: 'GBP' }, expect: '700.100.500' },
  { name: 'refund of a reversed DB', parent: { ...DEBIT, reversedAt: minutesLater(1), refundClosed: true }, expect: '700.400.200' },
  { name: 'refund after a FINAL refund', parent: { ...DEBIT, refundedMinor: 1_000n, refundClosed: true }, request: { amountMinor: 1n }, expect: '700.400.200' },
  { name: 'refund above the debited amount', parent: DEBIT, request: { amountMinor: 10_001n }, expect: '700.400.200' },
  { name: 'refunds adding up above debited less refunded', parent: { ...DEBIT, refundedMinor: 9_000n }, request: { amountMinor: 1_001n }, expect: '700.400.200' },
  { name: 'refund above the captured amount of a CP', parent: { paymentType: 'CP', amountMinor: 3_000n }, request: { amountMinor: 3_001n }, expect: '700.400.200' },
  { name: 'precedence: pending wins over unsupported connector', parent: { ...DEBIT, status: 'pending' }, policy: { supportsRefund: false }, expect: '700.400.570' },
];

describe('decideRefund', () => {
  for (const row of REFUND_TABLE) {
    it(row.name, () => {
      const decision = decideRefund(parentOf(row.parent), amountRequest(row.request), policyOf(row.policy));
      if (typeof row.expect === 'string') {
        assert.deepEqual(decision, { ok: false, code: row.expect });
        return;
      }
      assert.equal(decision.ok, true);
      const { ok: _ok, amountMinor: _amount, ...totals } = decision as Extract<typeof decision, { ok: true }>;
      assert.deepEqual(totals, row.expect);
    });
  }

  it('uses catalogue codes only', () => {
    for (const row of REFUND_TABLE) if (typeof row.expect === 'string') assert.equal(resultCode(row.expect).code, row.expect);
  });

  it('a series of refunds never exceeds the debited amount', () => {
    let parent = parentOf({ paymentType: 'DB', amountMinor: 999n });
    const accepted: bigint[] = [];
    for (const amountMinor of [400n, 400n, 400n, 199n, 1n]) {
      const decision = decideRefund(parent, amountRequest({ amountMinor }), policyOf());
      if (!decision.ok) continue;
      accepted.push(amountMinor);
      parent = applyRefund(parent, decision);
    }
    assert.deepEqual(accepted, [400n, 400n, 199n]);
    assert.equal(parent.refundedMinor, 999n);
    assert.equal(parent.refundClosed, true);
  });
});
