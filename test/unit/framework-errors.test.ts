import assert from 'node:assert/strict';
import { errorCodes } from 'fastify';
import { describe, it } from 'node:test';
import { FASTIFY_ERRORS } from '../../src/http/plugins/error-handling.js';
import { resultCode } from '../../src/results/catalogue.js';

/** Client-side by status but raised only by a mistake of ours while setting the server up. */
const SET_UP_ERRORS = new Set(['FST_ERR_CTP_INSTANCE_ALREADY_STARTED']);

describe("Fastify's client-side errors", () => {
  const clientSide = Object.entries(errorCodes)
    .map(([name, Make]) => ({ name, status: new (Make as new (...args: string[]) => { statusCode?: number })('a', 'b', 'c').statusCode ?? 500 }))
    .filter(({ name, status }) => status < 500 && !SET_UP_ERRORS.has(name));

  it('are found (the list is read from the installed Fastify)', () => {
    assert.ok(clientSide.length >= 10, JSON.stringify(clientSide));
  });

  for (const { name } of clientSide) {
    it(`${name} has a catalogue code and a 4xx status`, () => {
      const mapped = FASTIFY_ERRORS[name];
      assert.ok(mapped, `${name} is mapped in error-handling.ts`);
      assert.ok(resultCode(mapped.code), mapped.code);
      assert.ok(mapped.status >= 400 && mapped.status < 500);
    });
  }

  it('every mapped code is in the result-code catalogue', () => {
    for (const mapped of Object.values(FASTIFY_ERRORS)) assert.ok(resultCode(mapped.code).description.length > 0);
  });
});
