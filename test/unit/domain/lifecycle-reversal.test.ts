import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyReversal, decideReversal } from '../../../src/domain/lifecycle/reversal.js';
import { decideCapture } from '../../../src/domain/lifecycle/capture.js';
import { decideRefund } from '../../../src/domain/lifecycle/refund.js';
import type { TransactionState } from '../../../src/domain/transaction.js';
import type { LifecyclePolicy } from '../../../src/domain/lifecycle/policy.js';
import { resultCode } from '../../../src/results/catalogue.js';
import { ENTITY, OTHER_ENTITY, amountRequest, minutesLater, parentOf, policyOf } from './lifecycle-fixtures.js';

interface ReversalRow {
  readonly name: string;
  readonly parent?: Partial<TransactionState>;
  readonly entityId?: string;
  readonly minutesAfterParent?: number;
  readonly policy?: Partial<LifecyclePolicy>;
  /** The amount and currency the RV named, if any. */
  readonly request?: { readonly amountMinor?: bigint | null; readonly currency?: string | null };
  /** A rejection code, or 'accepted'. */
  readonly expect: string;
}

const DAY_MINUTES = 24 * 60;

const REVERSAL_TABLE: readonly ReversalRow[] = [
  { name: 'reversal of a PA', expect: 'accepted' },
  { name: 'reversal of a DB', parent: { paymentType: 'DB' }, expect: 'accepted' },
  { name: 'reversal of a CD', parent: { paymentType: 'CD' }, expect: 'accepted' },
  { name: 'one minute before the cut-off', minutesAfterParent: DAY_MINUTES - 1, expect: 'accepted' },
  { name: 'no cut-off configured', minutesAfterParent: 30 * DAY_MINUTES, policy: { reversalCutoffMinutes: null }, expect: 'accepted' },
  { name: 'per-connector cut-off of 30 minutes, at 29', minutesAfterParent: 29, policy: { reversalCutoffMinutes: 30 }, expect: 'accepted' },
  { name: "another entity's PA is not found", entityId: OTHER_ENTITY, expect: '700.400.580' },
  { name: 'reversal of a CP', parent: { paymentType: 'CP' }, expect: '700.300.100' },
  { name: 'reversal of an RF', parent: { paymentType: 'RF' }, expect: '700.300.100' },
  { name: 'reversal of an RV', parent: { paymentType: 'RV' }, expect: '700.300.100' },
  { name: 'reversal of a pending DB', parent: { paymentType: 'DB', status: 'pending' }, expect: '700.400.570' },
  { name: 'reversal of a rejected PA', parent: { status: 'rejected' }, expect: '700.300.200' },
  { name: 'connector without reversals', policy: { supportsReversal: false }, expect: '600.200.400' },
  { name: 'connector whose payment types leave out RV', policy: { paymentTypes: ['PA', 'DB', 'CP', 'RF'] }, expect: '600.200.400' },
  { name: 'second reversal', parent: { reversedAt: minutesLater(1), captureClosed: true }, expect: '700.400.300' },
  { name: 'reversal of a partly refunded DB', parent: { paymentType: 'DB', refundedMinor: 1n }, expect: '700.400.300' },
  { name: 'reversal of a partly captured PA', parent: { capturedMinor: 2_500n, captureCount: 1 }, expect: '700.400.300' },
  { name: 'reversal of a fully captured PA', parent: { capturedMinor: 10_000n, captureCount: 1, captureClosed: true }, expect: '700.400.300' },
  { name: 'at the default cut-off of one day', minutesAfterParent: DAY_MINUTES, expect: '700.300.700' },
  { name: 'per-connector cut-off of 30 minutes, at 30', minutesAfterParent: 30, policy: { reversalCutoffMinutes: 30 }, expect: '700.300.700' },
  { name: 'precedence: already reversed wins over the cut-off', parent: { reversedAt: minutesLater(1) }, minutesAfterParent: 2 * DAY_MINUTES, expect: '700.400.300' },
  { name: 'the whole amount named', request: { amountMinor: 10_000n, currency: 'EUR' }, expect: 'accepted' },
  { name: 'the whole amount named, no currency', request: { amountMinor: 10_000n, currency: null }, expect: 'accepted' },
  { name: 'a partial amount is refused, never reversed in full', request: { amountMinor: 2_500n }, expect: '100.550.701' },
  { name: 'more than the whole amount is refused', request: { amountMinor: 10_001n }, expect: '100.550.701' },
  { name: 'the whole amount in another currency is refused', request: { amountMinor: 10_000n, currency: 'USD' }, expect: '100.550.702' },
  { name: 'precedence: a captured PA says so, whatever amount was named', parent: { capturedMinor: 2_500n, captureCount: 1 }, request: { amountMinor: 2_500n }, expect: '700.400.300' },
];

describe('decideReversal', () => {
  for (const row of REVERSAL_TABLE) {
    it(row.name, () => {
      const parent = parentOf(row.parent);
      const now = minutesLater(row.minutesAfterParent ?? 5);
      const decision = decideReversal(parent, { entityId: row.entityId ?? ENTITY, ...row.request }, now, policyOf(row.policy));
      if (row.expect === 'accepted') assert.deepEqual(decision, { ok: true, reversedAt: now, reversedMinor: parent.amountMinor });
      else assert.deepEqual(decision, { ok: false, code: row.expect });
    });
  }

  it('uses catalogue codes only', () => {
    for (const row of REVERSAL_TABLE) if (row.expect !== 'accepted') assert.equal(resultCode(row.expect).code, row.expect);
  });

  it('a reversed PA cannot be captured, a reversed DB cannot be refunded', () => {
    const now = minutesLater(5);
    for (const paymentType of ['PA', 'DB'] as const) {
      const parent = parentOf({ paymentType });
      const decision = decideReversal(parent, { entityId: ENTITY }, now, policyOf());
      assert.equal(decision.ok, true);
      if (!decision.ok) return;
      const reversed = applyReversal(parent, decision);
      const follow = paymentType === 'PA'
        ? decideCapture(reversed, amountRequest(), now, policyOf())
        : decideRefund(reversed, amountRequest(), policyOf());
      assert.deepEqual(follow, { ok: false, code: paymentType === 'PA' ? '700.400.100' : '700.400.200' });
      assert.deepEqual(decideReversal(reversed, { entityId: ENTITY }, now, policyOf()), { ok: false, code: '700.400.300' });
    }
  });
});
