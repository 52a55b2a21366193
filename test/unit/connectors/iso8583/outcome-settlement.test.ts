import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeOutcome } from '../../../../src/connectors/connector.js';
import { outcomeOf } from '../../../../src/connectors/iso8583/outcome.js';
import { EMULATOR_PROFILE, withFields } from '../../../../src/connectors/iso8583/profile.js';
import { parseSettlementFile } from '../../../../src/connectors/iso8583/settlement-source.js';

const answer = (field39: string, extra: Record<number, string> = {}) => ({ mti: '0210', fields: { 11: '000123', 37: '632800000001', 38: 'A00001', 39: field39, 44: 'ZM', ...extra } });

describe('ISO 8583 answers to outcomes: field 39 through the table', () => {
  const rows = [
    { field39: '00', kind: 'success', code: '000.000.000', notProcessed: undefined },
    { field39: '05', kind: 'declined', code: '800.100.152', notProcessed: undefined },
    { field39: '51', kind: 'declined', code: '800.100.203', notProcessed: undefined },
    { field39: 'N7', kind: 'declined', code: '800.100.153', notProcessed: undefined },
    { field39: '91', kind: 'declined', code: '900.100.400', notProcessed: true },
    { field39: '96', kind: 'declined', code: '900.100.201', notProcessed: true },
    { field39: 'Q9', kind: 'declined', code: '900.100.200', notProcessed: undefined },
  ] as const;
  for (const row of rows) {
    it(`${row.field39} → ${row.kind} ${row.code}`, () => {
      const outcome = outcomeOf(answer(row.field39), EMULATOR_PROFILE, '000.000.000');
      assert.equal(outcome.kind, row.kind);
      assert.equal(outcome.code, row.code);
      assert.equal(outcome.notProcessed, row.notProcessed);
      assert.deepEqual(outcome.resultDetails, { AcquirerResponse: row.field39, clearingInstituteName: 'Acquirer Host Emulator', ConnectorTxID1: '632800000001', ConnectorTxID2: '000123', ConnectorTxID3: 'A00001' });
      assert.equal(outcome.avsResponse, 'Z');
      assert.equal(outcome.cvvResponse, 'M');
      assert.equal(normalizeOutcome(outcome).notProcessed, row.notProcessed, 'normalisation keeps the flag on declines');
    });
  }
  it('a profile replaces rows of the standard table', () => {
    const profile = { ...withFields(EMULATOR_PROFILE, 'x', []), responseCodes: { '05': { kind: 'declined' as const, code: '800.100.160' } } };
    assert.equal(outcomeOf(answer('05'), profile, '000.000.000').code, '800.100.160');
  });
  it('normalisation drops notProcessed from anything but a decline', () => {
    assert.equal(normalizeOutcome({ kind: 'success', code: '000.000.000', resultDetails: {}, notProcessed: true }).notProcessed, undefined);
  });
});

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
