import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatNdc, formatTimestamp, newRequestId, withEnvelope, withEnvelopeJson, withErrorId } from '../../src/http/envelope.js';
import { maskPanLikeDigits } from '../../src/domain/redact.js';

describe('envelope formats', () => {
  const timestamps: [string, string][] = [
    // The specification's yyyy-MM-dd hh:mm:ssZ: no milliseconds, a 24-hour clock, the zone as +0000.
    ['2026-11-22T13:43:44.065Z', '2026-11-22 13:43:44+0000'],
    ['2026-01-02T03:04:05.000Z', '2026-01-02 03:04:05+0000'],
    ['2026-12-31T23:59:59.999+02:00', '2026-12-31 21:59:59+0000'],
  ];
  for (const [iso, expected] of timestamps) {
    it(`timestamp of ${iso} is ${expected}`, () => assert.equal(formatTimestamp(new Date(iso)), expected));
  }

  it('ndc is <entityId>-<32 hex> once the entity is known: only a-z A-Z 0-9 -, at most 69 characters', () => {
    const id = newRequestId();
    assert.match(id, /^[0-9a-f]{32}$/);
    const ndc = formatNdc(id, 'e'.repeat(32));
    assert.equal(ndc, `${'e'.repeat(32)}-${id}`);
    assert.match(ndc, /^[a-zA-Z0-9-]{1,69}$/);
    assert.equal(formatNdc(id, undefined), id);
    assert.notEqual(newRequestId(), newRequestId());
  });

  it("an error body without an id gets the request's id; a body with its own id, or a success, is left alone", () => {
    assert.deepEqual(withErrorId(400, {}, 'r1'), { id: 'r1' });
    assert.deepEqual(Object.keys(withErrorId(404, { other: 1 }, 'r1')), ['id', 'other']);
    assert.deepEqual(withErrorId(400, { id: 'payment' }, 'r1'), { id: 'payment' });
    assert.deepEqual(withErrorId(200, {}, 'r1'), {});
  });
});

describe('withEnvelopeJson', () => {
  const context = { buildNumber: 'b"1', now: new Date('2026-11-22T13:43:44.065Z'), ndc: 'e_1' };
  const result = { code: '000.100.110', description: 'Request successfully processed in \'Merchant in Integrator Test Mode\'' };
  const bodies: [string, Record<string, unknown>][] = [
    ['a payment', { id: 'x', amount: '92.00', card: { bin: '420000', holder: 'Jane "J" Doe' }, customParameters: { 'SHOP_a.b': '\u2028 ü' } }],
    ['an empty body', {}],
  ];
  for (const [name, body] of bodies) {
    it(`gives the bytes of JSON.stringify(withEnvelope(…)) for ${name}`, () => {
      assert.equal(withEnvelopeJson(JSON.stringify({ ...body, result }), context), JSON.stringify(withEnvelope(body, result, context)));
    });
  }
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
