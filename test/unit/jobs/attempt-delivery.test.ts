import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideDelivery, deliveryOutcomeOf, isAcknowledged, scheduledAttemptWrite, type DeliveryDecision } from '../../../src/operations/webhooks/attempt-delivery.js';
import type { DeliveryToSend } from '../../../src/storage/repositories/webhook-deliveries.js';

const base: DeliveryToSend = {
  id: 'd'.repeat(32), notificationId: 'n'.repeat(32), webhookId: 'w'.repeat(32), purpose: 'event', status: 'pending',
  attemptCount: 0, firstAttemptAt: null, url: 'http://127.0.0.1/h', secret: 'ab'.repeat(32), webhookStatus: 'active',
  webhookDeleted: false, notificationType: 'PAYMENT', notificationAction: null, body: '{}', transactionResponse: null,
  eventAt: new Date('2026-11-22T09:59:00Z'),
};

describe('which queued deliveries are still sent', () => {
  const table: [name: string, change: Partial<DeliveryToSend>, decision: DeliveryDecision][] = [
    ['event to an active webhook', {}, 'send'],
    ['event to a pending webhook', { webhookStatus: 'pending' }, 'cancel'],
    ['event to a deactivated webhook', { webhookStatus: 'inactive' }, 'cancel'],
    ['event to a deleted webhook', { webhookDeleted: true }, 'cancel'],
    ['creation test to a pending webhook', { purpose: 'test', webhookStatus: 'pending' }, 'send'],
    ['creation test to a webhook activated meanwhile', { purpose: 'test', webhookStatus: 'active' }, 'cancel'],
    ['creation test to a deactivated webhook', { purpose: 'test', webhookStatus: 'inactive' }, 'cancel'],
    ['notificationUrl', { webhookId: null, secret: null, webhookStatus: null }, 'send'],
    ['already delivered (by a resend)', { status: 'delivered' }, 'skip'],
    ['cancelled', { status: 'cancelled' }, 'skip'],
    ['failed', { status: 'failed' }, 'skip'],
  ];
  for (const [name, change, decision] of table) {
    it(`${name} → ${decision}`, () => assert.equal(decideDelivery({ ...base, ...change }), decision));
  }
});

describe('after a scheduled attempt', () => {
  const at = new Date('2026-11-22T10:00:00Z');
  const attempt = { attemptedAt: at, httpStatus: 503, error: null, latencyMs: 12, acknowledged: false, refused: false };

  it('any 2xx acknowledges; 1xx, 3xx, 4xx, 5xx and no answer do not', () => {
    assert.deepEqual([200, 201, 204, 299].map(isAcknowledged), [true, true, true, true]);
    assert.deepEqual([null, 100, 199, 301, 302, 400, 404, 500].map(isAcknowledged), [false, false, false, false, false, false, false, false]);
  });

  it('a first failure retries after a minute', () => {
    const write = scheduledAttemptWrite(base, attempt);
    assert.equal(write.nextStatus, 'pending');
    assert.equal(write.nextAttemptAt?.getTime(), at.getTime() + 60_000);
  });

  it('the fifth failure waits 15 minutes', () => {
    const write = scheduledAttemptWrite({ ...base, attemptCount: 4, firstAttemptAt: new Date(at.getTime() - 15 * 60_000) }, attempt);
    assert.equal(write.nextAttemptAt?.getTime(), at.getTime() + 15 * 60_000);
  });

  it('gives up 30 days after the first attempt', () => {
    const write = scheduledAttemptWrite({ ...base, attemptCount: 725, firstAttemptAt: new Date(at.getTime() - 30 * 86_400_000) }, attempt);
    assert.deepEqual([write.nextStatus, write.nextAttemptAt], ['failed', null]);
  });

  it('a refused target fails at once, on its first attempt: waiting cannot make its address acceptable', () => {
    const write = scheduledAttemptWrite(base, { ...attempt, httpStatus: null, error: 'refused: 127.0.0.1 is a loopback address', refused: true });
    assert.deepEqual([write.nextStatus, write.nextAttemptAt, write.error], ['failed', null, 'refused: 127.0.0.1 is a loopback address']);
  });

  it('an acknowledgement plans nothing more', () => {
    const write = scheduledAttemptWrite(base, { ...attempt, httpStatus: 200, acknowledged: true });
    assert.deepEqual([write.nextStatus, write.nextAttemptAt, write.trigger], [null, null, 'worker']);
  });
});

describe('how an attempt counts in gateway_notification_deliveries_total', () => {
  const table: [name: string, attempt: { acknowledged: boolean; refused: boolean; httpStatus: number | null }, outcome: string][] = [
    ['a 2xx', { acknowledged: true, refused: false, httpStatus: 204 }, 'delivered'],
    ['a 5xx', { acknowledged: false, refused: false, httpStatus: 503 }, 'http_error'],
    ['a 3xx (never followed)', { acknowledged: false, refused: false, httpStatus: 302 }, 'http_error'],
    ['no answer (timeout, reset)', { acknowledged: false, refused: false, httpStatus: null }, 'network_error'],
    ['an address the rules refuse', { acknowledged: false, refused: true, httpStatus: null }, 'refused_target'],
  ];
  for (const [name, attempt, outcome] of table) it(`${name} → ${outcome}`, () => assert.equal(deliveryOutcomeOf(attempt), outcome));
});
