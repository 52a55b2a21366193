import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DECISION_TABLE, decide } from '../../../../emulators/acquirer-host/table.js';

const README = readFileSync(new URL('../../../../emulators/acquirer-host/README.md', import.meta.url), 'utf8');

describe('the acquirer host emulator\'s decision table', () => {
  for (const row of DECISION_TABLE) {
    const match = 'amountMinor' in row.match ? `amount ${(Number(row.match.amountMinor) / 100).toFixed(2)}` : `card ${row.match.pan}`;
    it(`${match} is documented in its README as it answers`, () => {
      const code = row.responseCode === null ? '(none)' : `\`${row.responseCode}\``;
      assert.ok(README.includes(`| ${match} | ${code} | ${row.behaviour} | ${row.meaning} |`));
    });
  }
  it('amount rows win over card rows; anything else is approved', () => {
    assert.equal(decide(66601n, '4000000000000002').behaviour, 'slow');
    assert.equal(decide(1000n, '4000000000000002').responseCode, '05');
    assert.equal(decide(1000n, '4111111111111111').responseCode, '00');
  });
});
