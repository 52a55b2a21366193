import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyCapture, decideCapture } from '../../../src/domain/lifecycle/capture.js';
import type { TransactionState } from '../../../src/domain/transaction.js';
import type { LifecyclePolicy } from '../../../src/domain/lifecycle/policy.js';
import type { AmountRequest } from '../../../src/domain/lifecycle/rules.js';
import { resultCode } from '../../../src/results/catalogue.js';
import { OTHER_ENTITY, amountRequest, minutesLater, parentOf, policyOf } from './lifecycle-fixtures.js';

interface CaptureRow {
  readonly name: string;
  readonly parent?: Partial<TransactionState>;
  readonly request?: Partial<AmountRequest>;
  readonly minutesAfterParent?: number;
  readonly policy?: Partial<LifecyclePolicy>;
  /** A rejection code, or the accepted totals. */
  readonly expect: string | { capturedMinor: bigint; captureCount: number; captureClosed: boolean; releasedMinor: bigint };
}

const CAPTURE_TABLE: readonly CaptureRow[] = [
  { name: 'partial capture of a PA', expect: { capturedMinor: 2_500n, captureCount: 1, captureClosed: false, releasedMinor: 0n } },
  { name: 'capture of the whole amount closes the PA', request: { amountMinor: 10_000n }, expect: { capturedMinor: 10_000n, captureCount: 1, captureClosed: true, releasedMinor: 0n } },
  { name: 'FINAL partial capture closes and releases the rest', request: { final: true }, expect: { capturedMinor: 2_500n, captureCount: 1, captureClosed: true, releasedMinor: 7_500n } },
  { name: 'second capture within the amount', parent: { capturedMinor: 5_000n, captureCount: 1 }, expect: { capturedMinor: 7_500n, captureCount: 2, captureClosed: false, releasedMinor: 0n } },
  { name: 'last capture allowed by numberOfCaptures closes the PA', parent: { maxCaptures: 2, capturedMinor: 1_000n, captureCount: 1 }, expect: { capturedMinor: 3_500n, captureCount: 2, captureClosed: true, releasedMinor: 6_500n } },
  { name: 'no numberOfCaptures: many captures while amount remains', parent: { capturedMinor: 9_000n, captureCount: 97 }, request: { amountMinor: 1_000n }, expect: { capturedMinor: 10_000n, captureCount: 98, captureClosed: true, releasedMinor: 0n } },
  { name: 'just before the capture cut-off', minutesAfterParent: 7 * 24 * 60 - 1, expect: { capturedMinor: 2_500n, captureCount: 1, captureClosed: false, releasedMinor: 0n } },
  { name: 'no capture cut-off configured', minutesAfterParent: 365 * 24 * 60, policy: { captureCutoffMinutes: null }, expect: { capturedMinor: 2_500n, captureCount: 1, captureClosed: false, releasedMinor: 0n } },
  { name: "another entity's PA is not found", request: { entityId: OTHER_ENTITY }, expect: '700.400.580' },
  { name: 'missing amount', request: { amountMinor: null }, expect: '100.550.300' },
  { name: 'zero amount', request: { amountMinor: 0n }, expect: '100.550.300' },
  { name: 'negative amount', request: { amountMinor: -1n }, expect: '100.550.300' },
  { name: 'missing currency', request: { currency: null }, expect: '100.550.400' },
  { name: 'capture of a DB', parent: { paymentType: 'DB' }, expect: '700.400.510' },
  { name: 'capture of a CD', parent: { paymentType: 'CD' }, expect: '700.400.510' },
  { name: 'capture of a CP', parent: { paymentType: 'CP' }, expect: '700.400.510' },
  { name: 'capture of an RF', parent: { paymentType: 'RF' }, expect: '700.400.510' },
  { name: 'capture of an RV', parent: { paymentType: 'RV' }, expect: '700.400.510' },
  { name: "the connector's acquirer takes no captures", policy: { paymentTypes: ['PA', 'DB', 'RF', 'RV'] }, expect: '700.400.101' },
  { name: 'capture of a pending PA', parent: { status: 'pending' }, expect: '700.400.570' },
  { name: 'capture of a rejected PA', parent: { status: 'rejected' }, expect: '700.300.200' },
  { name: 'currency differs from the PA', request: { currency: 'USD' }, expect: '700.100.500' },
  { name: 'capture of a reversed PA', parent: { reversedAt: minutesLater(1), captureClosed: true }, expect: '700.400.100' },
  { name: 'capture at the capture cut-off', minutesAfterParent: 7 * 24 * 60, expect: '700.300.400' },
  { name: 'capture after a FINAL capture', parent: { capturedMinor: 1_000n, captureCount: 1, captureClosed: true }, request: { amountMinor: 100n }, expect: '700.400.100' },
  { name: 'capture beyond numberOfCaptures', parent: { maxCaptures: 2, capturedMinor: 2_000n, captureCount: 2 }, request: { amountMinor: 100n }, expect: '700.400.100' },
  { name: 'single capture above the authorised amount', request: { amountMinor: 10_001n }, expect: '700.400.100' },
  { name: 'partial captures adding up above the authorised amount', parent: { capturedMinor: 8_000n, captureCount: 1 }, expect: '700.400.100' },
  { name: 'precedence: wrong type wins over currency mismatch', parent: { paymentType: 'DB' }, request: { currency: 'USD' }, expect: '700.400.510' },
  { name: 'precedence: missing amount wins over a rejected parent', parent: { status: 'rejected' }, request: { amountMinor: null }, expect: '100.550.300' },
];

const CAPTURE_CODES = CAPTURE_TABLE.flatMap((row) => (typeof row.expect === 'string' ? [row.expect] : []));

describe('decideCapture', () => {
  for (const row of CAPTURE_TABLE) {
    it(row.name, () => {
      const decision = decideCapture(
        parentOf(row.parent),
        amountRequest(row.request),
        minutesLater(row.minutesAfterParent ?? 5),
        policyOf(row.policy),
      );
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
    for (const code of CAPTURE_CODES) assert.equal(resultCode(code).code, code);
  });

  it('a series of captures stops exactly at the authorised amount', () => {
    let parent = parentOf({ amountMinor: 1_000n });
    for (let i = 0; i < 4; i += 1) {
      const decision = decideCapture(parent, amountRequest({ amountMinor: 250n }), minutesLater(1), policyOf());
      assert.equal(decision.ok, true);
      if (decision.ok) parent = applyCapture(parent, decision);
    }
    assert.equal(parent.capturedMinor, 1_000n);
    assert.deepEqual(decideCapture(parent, amountRequest({ amountMinor: 1n }), minutesLater(1), policyOf()), { ok: false, code: '700.400.100' });
  });
});
