import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ledger, type LedgerEntry } from '../../../emulators/acquirer-host/ledger.js';
import { failuresByAnswer, findFailoverFindings, logSummary, type PaymentRow } from '../../faults/ha/support/failover-findings.js';
import type { SentRequest } from '../../faults/support/payment-load.js';

/**
 * The failover test's judge (test/faults/ha/support/failover-findings.ts) must catch each kind of
 * damage on its own: a test whose checks never fire would pass over a broken failover.
 */
const OK = '000.100.110';

function sent(reference: string, answer: Partial<SentRequest>): SentRequest {
  return { kind: 'DB', reference, amountMinor: 1000, startedMs: 0, ms: 5, ...answer };
}

function purchase(id: string, approved = true): LedgerEntry {
  return { gatewayTransactionId: id, kind: 'purchase', mti: '0200', stan: '000001', rrn: '000000000001', authCode: 'A1', responseCode: approved ? '00' : '05', approved, amountMinor: 1000n, currencyNumeric: '978', panLast4: '1881', at: new Date(0), chargeback: false };
}

const row = (id: string, reference: string, status = 'success', code = OK): PaymentRow => ({ id, merchant_transaction_id: reference, status, result_code: code });

function ledgerOf(...entries: LedgerEntry[]): Ledger {
  const ledger = new Ledger();
  entries.forEach((entry) => ledger.add(entry));
  return ledger;
}

describe('failover findings', () => {
  it('finds nothing when the clients, the database and the acquirer agree', () => {
    const findings = findFailoverFindings([sent('r1', { status: 200, code: OK, id: 'a' }), sent('r2', { error: 'client timeout' })], [row('a', 'r1'), row('b', 'r2', 'failed', '900.100.300')], ledgerOf(purchase('a'), purchase('b', false)));
    assert.deepEqual([findings.acknowledgedLost, findings.chargedUnknownToGateway, findings.duplicateCharges, findings.disagreeWithAcquirer], [[], [], [], []]);
    assert.deepEqual([findings.payments, findings.succeeded, findings.uncertain], [2, 1, 1]);
  });

  it('finds an acknowledged payment without a row', () => {
    const findings = findFailoverFindings([sent('r1', { status: 200, code: OK, id: 'a' })], [], ledgerOf());
    assert.equal(findings.acknowledgedLost.length, 1);
  });

  it('finds a charge the gateway has no row of', () => {
    const findings = findFailoverFindings([sent('r1', { status: 503, code: '999.999.888' })], [], ledgerOf(purchase('x')));
    assert.deepEqual(findings.chargedUnknownToGateway, ['x (1000 charged)']);
  });

  it('finds one reference charged twice, and one stored twice', () => {
    const findings = findFailoverFindings([sent('r1', { status: 200, code: OK, id: 'a' })], [row('a', 'r1'), row('b', 'r1')], ledgerOf(purchase('a'), purchase('b')));
    assert.deepEqual(findings.duplicateCharges, ['r1 charged 2 times', 'r1 stored 2 times']);
  });

  it('finds a pending row, and a row whose outcome the acquirer contradicts', () => {
    const findings = findFailoverFindings([], [row('a', 'r1', 'pending', '000.200.000'), row('b', 'r2', 'failed', '900.100.300')], ledgerOf(purchase('a'), purchase('b')));
    assert.equal(findings.disagreeWithAcquirer.length, 2);
  });

  it('counts the failures by what the clients got', () => {
    assert.deepEqual(failuresByAnswer([sent('r1', { status: 503, code: '999.999.888' }), sent('r2', { error: 'client timeout' }), sent('r3', { status: 200, code: OK })]), { 'HTTP 503 999.999.888': 1, 'client timeout': 1 });
  });
});

describe('gateway log summary', () => {
  it('counts warnings and errors by message, code and error, and leaves the rest out', () => {
    const lines = [
      JSON.stringify({ level: 40, msg: 'request failed: system unavailable', code: '999.999.888', err: { message: 'Connection terminated unexpectedly' } }),
      JSON.stringify({ level: 40, msg: 'request failed: system unavailable', code: '999.999.888', err: { message: 'Connection terminated unexpectedly' } }),
      JSON.stringify({ level: 30, msg: 'request completed' }),
      'not json',
    ];
    assert.deepEqual(logSummary(lines.join('\n')), { 'request failed: system unavailable 999.999.888: Connection terminated unexpectedly': 2 });
  });
});
