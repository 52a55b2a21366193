import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildTimeline, type TimelineFacts, type TransactionFacts } from '../../../../src/domain/console/payment-timeline.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, second));

function transaction(over: Partial<TransactionFacts>): TransactionFacts {
  return {
    id: 'p', paymentType: 'DB', amountMinor: 4000n, currency: 'EUR', status: 'success', resultCode: '000.100.110', resultDescription: 'ok',
    createdAt: at(0), resultDetails: {}, threeDSecure: null, risk: null, ...over,
  };
}

const EMPTY: TimelineFacts = { transactions: [], redirects: [], resolutions: [], deliveries: [], settlement: [], scheduleRuns: [], registrations: [] };

describe('the payment timeline', () => {
  it('orders events by time, and events of one instant as a request makes them', () => {
    const events = buildTimeline({
      ...EMPTY,
      transactions: [
        transaction({ id: 'rf', paymentType: 'RF', amountMinor: 1000n, createdAt: at(30) }),
        transaction({ threeDSecure: { eci: '05' }, risk: { decision: 'accept', score: 10, fired: ['velocity (review, 10 points)'] } }),
      ],
      deliveries: [{
        transactionId: 'p', notificationId: 'n', type: 'PAYMENT', action: null, createdAt: at(0), url: 'https://shop.example/hook',
        attempts: [
          { attemptedAt: at(1), trigger: 'worker', httpStatus: 500, error: null, latencyMs: 12, acknowledged: false },
          { attemptedAt: at(20), trigger: 'worker', httpStatus: 200, error: null, latencyMs: 9, acknowledged: true },
        ],
      }],
    });
    assert.deepEqual(events.map((e) => `${e.kind}:${e.transactionId}`), [
      'request:p', 'risk:p', 'three-d-secure:p', 'answer:p', 'notification:p', 'attempt:p', 'attempt:p', 'request:rf', 'answer:rf',
    ]);
    assert.equal(events[5]!.title, 'Delivery failed: HTTP 500');
    assert.equal(events[6]!.title, 'Delivery acknowledged: HTTP 200');
    assert.equal(events[0]!.title, 'DB requested: 40.00 EUR');
  });

  it('dates a pending outcome by its resolution, with the reason', () => {
    const events = buildTimeline({
      ...EMPTY,
      transactions: [transaction({ status: 'rejected', resultCode: '100.397.102' })],
      resolutions: [{ transactionId: 'p', attempts: 3, resolvedAt: at(50), resolvedBy: 'operator', resolvedCode: '100.397.102', reason: 'ticket 4711' }],
    });
    const answer = events.find((e) => e.kind === 'answer')!;
    assert.equal(answer.at.getTime(), at(50).getTime());
    assert.ok(events.some((e) => e.kind === 'resolution' && e.details.some(([label, value]) => label === 'Reason' && value === 'ticket 4711')));
  });
});
