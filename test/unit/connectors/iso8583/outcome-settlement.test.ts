import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSettlementFile } from '../../../../src/connectors/iso8583/settlement-source.js';

describe('the acquirer host\'s settlement file', () => {
  const detail = 'D|gw1-S|SETTLED|SUCCESS|2026-11-24T04:00:00.000Z|gw1|632800000001|000123|A00001|DB|9200|EUR|138||';
  it('reads header, details and trailer into records', () => {
    const [record] = [...parseSettlementFile(`H|ACQHOST-SETTLEMENT|1|2026-11-24|Acquirer Host Emulator\n${detail}\nT|1\n`)];
    assert.equal(record!.recordId, 'gw1-S');
    assert.equal(record!.batchId, '2026-11-24-EUR');
    assert.equal(record!.feeMinor, 138n);
    assert.deepEqual(record!.connectorReferences, { ConnectorTxID1: '632800000001', ConnectorTxID2: '000123', ConnectorTxID3: 'A00001' });
  });
  const refusals = [
    { name: 'another format', text: `H|OTHER|1|2026-11-24|X\n${detail}\nT|1\n` },
    { name: 'a trailer that miscounts', text: `H|ACQHOST-SETTLEMENT|1|2026-11-24|X\n${detail}\nT|2\n` },
    { name: 'no trailer (a file cut short)', text: `H|ACQHOST-SETTLEMENT|1|2026-11-24|X\n${detail}\n` },
    { name: 'an amount that is not digits', text: `H|ACQHOST-SETTLEMENT|1|2026-11-24|X\n${detail.replace('|9200|', '|92.00|')}\nT|1\n` },
    { name: 'an unknown record type', text: `H|ACQHOST-SETTLEMENT|1|2026-11-24|X\n${detail.replace('SETTLED', 'GIFT')}\nT|1\n` },
  ];
  for (const row of refusals) it(`refuses ${row.name}`, () => assert.throws(() => [...parseSettlementFile(row.text)]));
});
