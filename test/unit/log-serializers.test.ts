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
