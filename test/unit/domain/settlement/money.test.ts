import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterChargeback, afterChargebackReversal, shareReleasedAmount } from '../../../../src/domain/settlement/chargeback.js';
import { addDays, daysToSettle, hasEnded, isSettlementDay } from '../../../../src/domain/settlement/days.js';
import { convert, feeFor, rateWithTwoDecimals } from '../../../../src/domain/settlement/money.js';
import { newTransactionState } from '../../../../src/domain/transaction.js';
import { fxRate } from '../../../../src/connectors/simulator/settlement/rules.js';

describe('settlement arithmetic', () => {
  it('fees: fixed part plus basis points, rounded half up', () => {
    for (const [amount, fixed, bp, fee] of [[1000n, 10n, 150, 25n], [1001n, 0n, 150, 15n], [1003n, 0n, 150, 15n], [3333n, 5n, 190, 68n], [0n, 10n, 150, 10n]] as const) {
      assert.equal(feeFor(amount, { fixedMinor: fixed, rateBasisPoints: bp }), fee, `${amount} ${bp}`);
    }
  });
  it('FX: exact decimal rates, rounded half away from zero', () => {
    for (const [amount, rate, converted] of [[5000n, '0.92', 4600n], [1n, '0.5', 1n], [3n, '0.5', 2n], [1000n, '1', 1000n], [12345n, '1.171234', 14459n]] as const) {
      assert.equal(convert(amount, rate), converted, `${amount} × ${rate}`);
    }
    assert.throws(() => convert(1n, '-1'));
    assert.throws(() => convert(1n, '1e3'));
  });
  it('the file shows the rate with two decimals', () => {
    for (const [rate, shown] of [['1', '1.00'], ['0.92', '0.92'], ['0.925', '0.93'], ['1.171234', '1.17'], ['0.0062', '0.01']] as const) assert.equal(rateWithTwoDecimals(rate), shown);
  });
  it('the simulator\'s cross rates go through EUR', () => {
    assert.deepEqual([fxRate('EUR', 'EUR'), fxRate('USD', 'EUR'), fxRate('EUR', 'USD'), fxRate('XXX', 'EUR')], ['1', '0.92', '1.086957', '1']);
  });
});

describe('settlement days', () => {
  it('are real calendar days', () => {
    for (const [day, ok] of [['2026-11-23', true], ['2026-02-29', false], ['2028-02-29', true], ['2026-1-2', false], ['x', false]] as const) assert.equal(isSettlementDay(day), ok, day);
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
  });
  it('end at the next midnight UTC', () => {
    assert.equal(hasEnded('2026-11-22', new Date('2026-11-22T23:59:59.999Z')), false);
    assert.equal(hasEnded('2026-11-22', new Date('2026-11-23T00:00:00.000Z')), true);
    assert.equal(hasEnded('2026-11-30', new Date('2026-11-23T00:00:00.000Z')), false);
  });
  it('are caught up when no run finished them, at most the limit, and the latest settled again', () => {
    const none = { catchUpDays: 2, settleAgainDays: 0 };
    assert.deepEqual(daysToSettle(new Set(), '2026-11-23', none), ['2026-11-22', '2026-11-23']);
    const week = { catchUpDays: 7, settleAgainDays: 0 };
    assert.deepEqual(daysToSettle(new Set(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20']), '2026-11-23', week), ['2026-11-21', '2026-11-22', '2026-11-23']);
    assert.deepEqual(daysToSettle(new Set(['2026-11-23']), '2026-11-23', { catchUpDays: 1, settleAgainDays: 0 }), []);
    // A day finished (early) is settled again while it is among the latest settleAgainDays.
    assert.deepEqual(daysToSettle(new Set(['2026-11-22', '2026-11-23']), '2026-11-23', { catchUpDays: 7, settleAgainDays: 2 }).slice(-2), ['2026-11-22', '2026-11-23']);
    // A day finished long ago is not; an unfinished one of the window is caught up on, oldest first.
    assert.deepEqual(daysToSettle(new Set(['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-22']), '2026-11-23', { catchUpDays: 7, settleAgainDays: 1 }), ['2026-11-21', '2026-11-23']);
    assert.deepEqual(daysToSettle(new Set(), '2026-11-23', { catchUpDays: 1, settleAgainDays: 3 }), ['2026-11-21', '2026-11-22', '2026-11-23']);
  });
});

describe('what a chargeback does to the refundable amount', () => {
  const payment = (refundedMinor: bigint) => ({ ...newTransactionState({ id: 'p', entityId: 'e', paymentType: 'DB', status: 'success', amountMinor: 1000n, currency: 'EUR', createdAt: new Date(0), connectorId: 'simulator', resultCode: '000.100.110' }), refundedMinor });
  it('takes what is still refundable, no more', () => {
    assert.deepEqual(afterChargeback(payment(0n), 1000n), { refundedMinor: 1000n, refundClosed: true, takenMinor: 1000n });
    assert.deepEqual(afterChargeback(payment(300n), 1000n), { refundedMinor: 1000n, refundClosed: true, takenMinor: 700n });
    assert.deepEqual(afterChargeback(payment(0n), 400n), { refundedMinor: 400n, refundClosed: false, takenMinor: 400n });
    assert.deepEqual(afterChargeback(payment(1000n), 1000n), { refundedMinor: 1000n, refundClosed: true, takenMinor: 0n });
  });
  it('a reversal gives back what the chargeback took', () => {
    assert.deepEqual(afterChargebackReversal(payment(1000n), 700n, false), { refundedMinor: 300n, refundClosed: false });
    assert.deepEqual(afterChargebackReversal(payment(1000n), 700n, true), { refundedMinor: 300n, refundClosed: true });
  });
  it('a declined refund\'s reservation goes first to the chargebacks that took less than their amount, oldest first', () => {
    assert.deepEqual(shareReleasedAmount([], 500n), { toChargebacks: [], toRefundableMinor: 500n });
    assert.deepEqual(shareReleasedAmount([{ recordId: 'a', shortMinor: 300n }, { recordId: 'b', shortMinor: 400n }], 500n), {
      toChargebacks: [{ recordId: 'a', addMinor: 300n }, { recordId: 'b', addMinor: 200n }],
      toRefundableMinor: 0n,
    });
    assert.deepEqual(shareReleasedAmount([{ recordId: 'a', shortMinor: 100n }], 500n), { toChargebacks: [{ recordId: 'a', addMinor: 100n }], toRefundableMinor: 400n });
  });
});
