import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNotificationTypes } from '../../../src/domain/webhook-notification-types.js';

describe('parseNotificationTypes', () => {
  const rows: [string | undefined, readonly string[] | RegExp][] = [
    [undefined, ['PAYMENT', 'REGISTRATION']],
    ['PAYMENT', ['PAYMENT']],
    ['schedule,payment', ['PAYMENT', 'SCHEDULE']],
    ['RISK RISK  TEST', ['RISK', 'TEST']],
    [' PAYMENT , REGISTRATION ,SCHEDULE,RISK,TEST ', ['PAYMENT', 'REGISTRATION', 'SCHEDULE', 'RISK', 'TEST']],
    ['', /at least one type/],
    [', ,', /at least one type/],
    ['PAYMENT,CHARGEBACK', /unknown notification type CHARGEBACK/],
  ];
  for (const [text, expected] of rows) {
    it(`${JSON.stringify(text)} → ${expected instanceof RegExp ? 'refused' : expected.join(',')}`, () => {
      const parsed = parseNotificationTypes(text);
      if (expected instanceof RegExp) {
        assert.equal(parsed.ok, false);
        assert.match((parsed as { message: string }).message, expected);
      } else assert.deepEqual(parsed, { ok: true, types: expected });
    });
  }
});
