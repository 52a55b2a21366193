import assert from 'node:assert/strict';
import { errorCodes } from 'fastify';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loggerOptions } from '../../src/http/logging.js';

function logged(write: (logger: pino.Logger) => void): string {
  let text = '';
  const stream = new Writable({ write(chunk: Buffer, _encoding, done) { text += chunk.toString(); done(); } });
  write(pino(loggerOptions('info'), stream));
  return text;
}

const URL_WITH_SECRETS = '/v1/payments/%zz?card.number=4200000000000000&card.cvv=123';

describe('log serializers', () => {
  const cases: [string, () => Error][] = [
    ["Fastify's bad-URL error, which quotes the URL", () => new errorCodes.FST_ERR_BAD_URL(URL_WITH_SECRETS)],
    ['an error naming the URL in its own field', () => Object.assign(new Error(`GET ${URL_WITH_SECRETS} failed`), { url: URL_WITH_SECRETS })],
    ["Node's parser error with the raw request bytes", () => Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD', rawPacket: Buffer.from(`GET ${URL_WITH_SECRETS} HTTP/1.1`) })],
  ];
  for (const [name, make] of cases) {
    it(`${name}: no query string, no card number`, () => {
      const text = logged((logger) => logger.error({ err: make() }, 'failed'));
      assert.ok(text.includes('"err"'), text);
      for (const secret of ['4200000000000000', 'card.number', 'card.cvv', 'rawPacket']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    });
  }

  it('keeps the path, type and code', () => {
    const text = logged((logger) => logger.warn({ err: new errorCodes.FST_ERR_BAD_URL(URL_WITH_SECRETS) }, 'failed'));
    const err = (JSON.parse(text) as { err: Record<string, string> }).err;
    assert.equal(err['code'], 'FST_ERR_BAD_URL');
    assert.match(err['message']!, /\/v1\/payments\/%zz\?\[query removed\]/);
  });
});

describe('card numbers behind percent-encoding (issue 29, item 6)', () => {
  const serializeRequest = loggerOptions('info').serializers!['req'] as (request: { method: string; url: string; ip: string }) => { path: string };
  const encoded = (text: string) => [...new TextEncoder().encode(text)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  const cases: [why: string, path: string][] = [
    ['every digit percent-encoded', `/v1/payments/${encoded('4111111111111111')}`],
    ['dots percent-encoded', '/v1/payments/4111%2E1111%2E1111%2E1111'],
    ['full-width digits in UTF-8', `/v1/payments/${encoded('４１１１１１１１１１１１１１１１')}`],
    ['zero-width spaces in UTF-8', `/v1/payments/${encoded('4111\u200b1111\u200b1111\u200b1111')}`],
    ['plain, beside a malformed escape', '/v1/payments/%zz/4111111111111111'],
  ];
  for (const [why, path] of cases) {
    it(`${why}: the logged path shows the number masked`, () => {
      const logged = serializeRequest({ method: 'GET', url: `${path}?x=1`, ip: '127.0.0.1' }).path;
      assert.ok(!/4111(?:[^0-9]{0,9}1111){3}|(%3[0-9]){13}|%EF%BC%91/i.test(logged), logged);
      assert.ok(logged.includes('411111******1111'), logged);
    });
  }
  it('a path without a card number is logged as it came', () => {
    assert.equal(serializeRequest({ method: 'GET', url: '/v1/payments/8ac7a4a1%20x?y', ip: '127.0.0.1' }).path, '/v1/payments/8ac7a4a1%20x');
  });
});
