import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StatusRequest } from '../../../src/connectors/connector.js';
import { createSimulatorConnector } from '../../../src/connectors/simulator/simulator.js';
import { simulatedStatus } from '../../../src/connectors/simulator/status.js';
import { EXTERNAL_TEST_PLATFORM, INTERNAL_SIMULATOR } from '../../../src/connectors/simulator/tables.js';

function request(paymentType: StatusRequest['paymentType'], amountMinor: bigint, references: Record<string, string> = {}): StatusRequest {
  return { transactionId: 'a'.repeat(32), entityId: 'b'.repeat(32), paymentType, amountMinor, currency: 'EUR', brand: 'VISA', createdAt: new Date('2026-11-22T10:00:00Z'), connectorReferences: references };
}

describe('the simulator\'s later outcomes (status capability)', () => {
  const table: ReadonlyArray<readonly [string, StatusRequest, 'success' | 'declined' | 'unknown', string]> = [
    ['9.99 debit: the acquirer had approved', request('DB', 999n), 'success', '000.100.110'],
    ['9.99 capture', request('CP', 999n), 'success', '000.100.110'],
    ['7.09 reversal: reversed after all', request('RV', 709n), 'success', '000.100.110'],
    ['9.98 authorisation: declined', request('PA', 998n), 'declined', '800.100.152'],
    ['9.98 refund: declined', request('RF', 998n), 'declined', '800.100.152'],
    ['9.97: the acquirer still cannot tell', request('DB', 997n), 'unknown', '900.100.300'],
    ['9.99 reversal: not a timeout row of reversals, so no record', request('RV', 999n), 'declined', '100.396.103'],
    ['any other amount: the acquirer has no record of it', request('DB', 1000n), 'declined', '100.396.103'],
  ];
  for (const [name, asked, kind, code] of table) {
    it(name, () => {
      const outcome = simulatedStatus(asked, INTERNAL_SIMULATOR, 'c'.repeat(32));
      assert.deepEqual([outcome.kind, outcome.code], [kind, code]);
    });
  }

  it('keeps the reference the first answer gave, and names its flavour', () => {
    const known = simulatedStatus(request('DB', 999n, { ConnectorTxID1: 'ETP-123' }), EXTERNAL_TEST_PLATFORM, 'x');
    assert.equal(known.resultDetails['ConnectorTxID1'], 'ETP-123');
    assert.equal(known.code, '000.100.112');
    assert.equal(simulatedStatus(request('DB', 999n), INTERNAL_SIMULATOR, 'abc').resultDetails['ConnectorTxID1'], 'SIM-abc');
  });
});

describe('the simulated provider after its shopper left (status and cancel of an asynchronous payment)', () => {
  const paypal = (amountMinor: bigint): StatusRequest => ({ ...request('DB', amountMinor, { ConnectorTxID1: 'SIM-p1' }), brand: 'PAYPAL' });
  const connector = createSimulatorConnector({ clock: { now: () => new Date('2026-11-22T10:31:00Z') }, newId: () => 'c'.repeat(32) });
  const table: ReadonlyArray<readonly [string, bigint, 'status' | 'cancel', string, string]> = [
    ['9.99: the shopper paid and closed the window, the status says paid', 999n, 'status', 'success', '000.100.110'],
    ['9.99: a cancel comes too late, the payment is paid', 999n, 'cancel', 'success', '000.100.110'],
    ['9.97: the provider cannot tell yet', 997n, 'status', 'pending', '000.200.000'],
    ['9.97: the provider cannot cancel', 997n, 'cancel', 'pending', '000.200.000'],
    ['any other amount: never paid, the provider ends it', 9200n, 'status', 'declined', '100.396.104'],
    ['any other amount: cancelled', 9200n, 'cancel', 'declined', '100.396.101'],
  ];
  for (const [name, amountMinor, asked, kind, code] of table) {
    it(name, async () => {
      const outcome = await connector[asked]!(paypal(amountMinor));
      assert.deepEqual([outcome.kind, outcome.code, outcome.resultDetails['ConnectorTxID1']], [kind, code, 'SIM-p1']);
    });
  }

  it('a card payment has nothing to cancel: the cancel answers its status', async () => {
    assert.deepEqual((await connector.cancel!(request('DB', 999n))).kind, 'success');
    assert.deepEqual((await connector.cancel!(request('DB', 1000n))).code, '100.396.103');
  });
});
