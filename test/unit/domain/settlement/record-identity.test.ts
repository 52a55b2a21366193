import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FILE_FORMAT_MAX_LENGTH, reconciliationTransactionId, settlementFileFormat } from '../../../../src/domain/settlement/record-identity.js';

test('SettlementFileFormat is whole and at most 32 characters, one per connector', () => {
  const cases: Array<[string, string]> = [
    ['simulator', 'simulator-settlement'],
    ['acquirer-host', 'acquirer-host-settlement'],
    ['external-test-platform', 'external-test-platform'],
    ['a'.repeat(21), `${'a'.repeat(21)}-settlement`],
    ['a'.repeat(32), 'a'.repeat(32)],
  ];
  for (const [connectorId, format] of cases) assert.equal(settlementFileFormat(connectorId), format, connectorId);
  const long = [`${'b'.repeat(40)}-1`, `${'b'.repeat(40)}-2`].map(settlementFileFormat);
  assert.ok(long.every((f) => f.length === FILE_FORMAT_MAX_LENGTH && /^settlement-[0-9a-f]{21}$/.test(f)), long.join());
  assert.notEqual(long[0], long[1], 'two long ids that share their first 32 characters stay apart');
});

test('merchantTransactionId: the merchant\'s, else the payment\'s id, else the record\'s', () => {
  const payment = 'p'.repeat(32);
  const record = 'r'.repeat(32);
  assert.equal(reconciliationTransactionId({ merchantProvided: 'order-2026-0001', paymentId: payment, recordRowId: record }), 'order-2026-0001');
  assert.equal(reconciliationTransactionId({ merchantProvided: null, paymentId: payment, recordRowId: record }), payment);
  assert.equal(reconciliationTransactionId({ merchantProvided: null, paymentId: null, recordRowId: record }), record);
});
