import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { parseSettlementStream, readSettlement } from '../../../../src/connectors/iso8583/settlement-source.js';
import { randomIds, systemClock } from '../../../../src/domain/ids.js';
import { INGEST_BATCH_RECORDS, ingestSettlement } from '../../../../src/operations/settlement/ingest-settlement.js';
import type { Queryable, Storage } from '../../../../src/storage/port.js';

const DATE = '2026-11-24';
const LINES_A_CHUNK = 100;

function detail(i: number): string {
  return `D|gw${i}-S|SETTLED|SUCCESS|2026-11-24T10:00:00.000Z|gw${i}|${String(600000000000 + i)}|${String(i % 999999).padStart(6, '0')}|A00001|DB|1000|EUR|15||`;
}

/** A generated settlement file of `records` details, produced only as it is read; `produced` counts its details so far. */
function generatedFile(records: number): { stream: Readable; produced: () => number } {
  let produced = 0;
  function* chunks(): Generator<string> {
    yield `H|ACQHOST-SETTLEMENT|1|${DATE}|Acquirer Host Emulator\n`;
    while (produced < records) {
      const lines: string[] = [];
      for (let n = 0; n < LINES_A_CHUNK && produced < records; n++) lines.push(detail(++produced));
      yield `${lines.join('\n')}\n`;
    }
    yield `T|${records}\n`;
  }
  return { stream: Readable.from(chunks(), { objectMode: false }), produced: () => produced };
}

/** A database that matches nothing and stores nothing, noting each transaction. */
function recordingStorage(onTransaction: () => void): Storage {
  const empty: Queryable = { query: async () => ({ rows: [], rowCount: 0 }) as never };
  return {
    kind: 'pglite',
    ...empty,
    transaction: async (fn) => {
      onTransaction();
      return fn(empty);
    },
    close: async () => undefined,
  };
}

describe('the acquirer host\'s settlement file is streamed', () => {
  it('the parser consumes a Readable as it goes: its first record comes before the file has been read', async () => {
    const file = generatedFile(200_000);
    for await (const record of parseSettlementStream(file.stream)) {
      assert.equal(record.recordId, 'gw1-S');
      break;
    }
    assert.ok(file.produced() < 10_000, `${file.produced()} of 200000 lines produced for the first record`);
  });

  it(`a large file is ingested in batches of ${INGEST_BATCH_RECORDS}, never read more than a batch and a buffer ahead`, async () => {
    const records = 60_000;
    const file = generatedFile(records);
    const aheadAtEachBatch: number[] = [];
    let batches = 0;
    const storage = recordingStorage(() => {
      batches += 1;
      aheadAtEachBatch.push(file.produced() - batches * INGEST_BATCH_RECORDS);
    });
    const summary = await ingestSettlement({ storage, clock: systemClock, ids: randomIds }, [{ connectorId: 'acquirer-host', records: () => parseSettlementStream(file.stream) }], DATE);
    assert.equal(summary.records, records);
    assert.equal(batches, records / INGEST_BATCH_RECORDS);
    assert.ok(Math.max(...aheadAtEachBatch) < 5_000, `read ahead of the batch being stored: up to ${Math.max(...aheadAtEachBatch)} records`);
  });

  it('a file cut short is refused before any record is handed on (checked whole first, then read)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settlement-stream-'));
    try {
      const lines = [`H|ACQHOST-SETTLEMENT|1|${DATE}|Acquirer Host Emulator`, ...Array.from({ length: 5_000 }, (_, i) => detail(i + 1))];
      writeFileSync(join(dir, `settlement-${DATE}.txt`), `${lines.join('\n')}\n`);
      let handedOn = 0;
      await assert.rejects(async () => {
        for await (const record of readSettlement(join(dir, 'settlement-{date}.txt'), { date: DATE })) handedOn += record ? 1 : 0;
      }, /trailer/);
      assert.equal(handedOn, 0);
      writeFileSync(join(dir, `settlement-${DATE}.txt`), `${lines.join('\r\n')}\r\nT|5000\r\n`);
      let read = 0;
      for await (const record of readSettlement(join(dir, 'settlement-{date}.txt'), { date: DATE })) read += record.amountMinor === 1000n ? 1 : 0;
      assert.equal(read, 5_000, 'CRLF lines read alike');
      let opened = 0;
      const opener = () => {
        opened += 1;
        return generatedFile(3).stream;
      };
      const fromOpener = [];
      for await (const record of readSettlement(opener, { date: DATE })) fromOpener.push(record.recordId);
      assert.deepEqual(fromOpener, ['gw1-S', 'gw2-S', 'gw3-S']);
      assert.equal(opened, 1, 'a stream is opened once and spooled for the two passes');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
