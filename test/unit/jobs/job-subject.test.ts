import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notificationOf } from '../../../src/jobs/deliver-webhook.js';
import { jobSubject } from '../../../src/jobs/job-subject.js';

describe('what a job acts on, for its log lines', () => {
  const cases: { name: string; payload: Record<string, unknown>; expected: ReturnType<typeof jobSubject> }[] = [
    { name: 'a pending check: its transaction', payload: { transactionId: 'a'.repeat(32) }, expected: { transactionId: 'a'.repeat(32) } },
    { name: 'a webhook delivery: its delivery', payload: { deliveryId: 'b'.repeat(32) }, expected: { deliveryId: 'b'.repeat(32) } },
    { name: 'a schedule run: its schedule, not its fire time', payload: { scheduleId: 'c'.repeat(32), fireAt: '2026-11-22T10:00:00.000Z', attempt: 1 }, expected: { scheduleId: 'c'.repeat(32) } },
    { name: 'a shopper result callback: its checkout', payload: { checkoutId: 'D'.repeat(32) + '.gw01' }, expected: { checkoutId: 'D'.repeat(32) + '.gw01' } },
    {
      name: "a reversal advice: the original's transaction, none of its message fields",
      payload: { connectorId: 'acquirer-host', original: { transactionId: 'e'.repeat(32), amount: '000000001000', stan: '123456', mti: '0200' } },
      expected: { transactionId: 'e'.repeat(32) },
    },
    { name: 'a value that is no id: left out', payload: { transactionId: 'a b c', deliveryId: 42 }, expected: {} },
    { name: 'a settlement day: nothing named', payload: { day: '2026-11-21' }, expected: {} },
  ];
  for (const { name, payload, expected } of cases) {
    it(name, () => assert.deepEqual(jobSubject(payload), expected));
  }
});

describe('the notification a webhook delivery carries', () => {
  it('a payment notification names its transaction', () => {
    const delivery = { notificationId: 'n1', notificationType: 'PAYMENT', transactionResponse: { id: 'f'.repeat(32), result: { code: '000.100.110' } } };
    assert.deepEqual(notificationOf(delivery), { notificationId: 'n1', notificationType: 'PAYMENT', transactionId: 'f'.repeat(32) });
  });
  it('a registration notification has no transaction', () => {
    assert.deepEqual(notificationOf({ notificationId: 'n2', notificationType: 'REGISTRATION', transactionResponse: null }), { notificationId: 'n2', notificationType: 'REGISTRATION' });
  });
});
