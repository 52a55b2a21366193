import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNdc, formatTimestamp, newRequestId } from '../../src/http/envelope.js';
import { maskPanLikeDigits } from '../../src/domain/redact.js';

describe('envelope formats', () => {
  const timestamps: [string, string][] = [
    ['2026-11-22T13:43:44.065Z', '2026-11-22 13:43:44.065+0000'],
    ['2026-01-02T03:04:05.000Z', '2026-01-02 03:04:05.000+0000'],
    ['2026-12-31T23:59:59.999+02:00', '2026-12-31 21:59:59.999+0000'],
  ];
  for (const [iso, expected] of timestamps) {
    it(`timestamp of ${iso} is ${expected}`, () => assert.equal(formatTimestamp(new Date(iso)), expected));
  }

  it('ndc is <entityId>_<32 hex> once the entity is known', () => {
    const id = newRequestId();
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(formatNdc(id, 'e'.repeat(32)), `${'e'.repeat(32)}_${id}`);
    assert.equal(formatNdc(id, undefined), id);
    assert.notEqual(newRequestId(), newRequestId());
  });
});

describe('maskPanLikeDigits', () => {
  const cases: [string, string][] = [
    ['/v1/payments/4200000000000000', '/v1/payments/420000******0000'],
    ['card 4200 0000 0000 0000 end', 'card 420000******0000 end'],
    ['4200-0000-0000-0000', '420000******0000'],
    ['amount 92.00 id 12345678901', 'amount 92.00 id 12345678901'],
    ['0123456789abcdef0123456789abcdef', '0123456789abcdef0123456789abcdef'],
  ];
  for (const [input, expected] of cases) {
    it(`${input} → ${expected}`, () => assert.equal(maskPanLikeDigits(input), expected));
  }
});
