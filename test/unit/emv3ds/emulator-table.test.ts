import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CARD_RANGES, exampleCard, rowOf, type CardRangeRow } from '../../../emulators/three-ds-host/table.js';

const README = readFileSync(new URL('../../../emulators/three-ds-host/README.md', import.meta.url), 'utf8');
const DOCS = readFileSync(new URL('../../../docs/three-d-secure.md', import.meta.url), 'utf8');

/** The README's "Answer" column of a row. */
function answer(row: CardRangeRow): string {
  if (row.outcome === 'erro') return `Erro ${row.errorCode}`;
  if (row.outcome === 'not-json' || row.outcome === 'missing-fields') return 'malformed';
  return row.transStatusReason ? `${row.transStatus}, reason ${row.transStatusReason}` : `${row.transStatus}`;
}

describe('the 3DS test platform\'s card-range table', () => {
  for (const row of CARD_RANGES) {
    it(`${row.startRange} to ${row.endRange} is documented in its README and docs/three-d-secure.md as it answers`, () => {
      const line = `| ${row.startRange} to ${row.endRange} | ${exampleCard(row)} | ${row.outcome} | ${answer(row)} | ${row.meaning} |`;
      assert.ok(README.includes(line), 'emulators/three-ds-host/README.md');
      assert.ok(DOCS.includes(line), 'docs/three-d-secure.md');
    });
  }
  it('each example card lies in its own range', () => {
    for (const row of CARD_RANGES) assert.equal(rowOf(exampleCard(row)), row);
  });
  it('ranges do not overlap, and a card is matched by value within its range', () => {
    const sorted = [...CARD_RANGES].sort((a, b) => (BigInt(a.startRange) < BigInt(b.startRange) ? -1 : 1));
    sorted.slice(1).forEach((row, i) => assert.ok(BigInt(row.startRange) > BigInt(sorted[i]!.endRange)));
    assert.equal(rowOf('4000000000001099').outcome, 'frictionless');
    assert.equal(rowOf('4000000000001550').outcome, 'challenge');
    assert.equal(rowOf('40000000000015').outcome, 'not-enrolled');
    assert.equal(rowOf('4111111111111111').outcome, 'not-enrolled');
  });
});
