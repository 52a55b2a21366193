import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accessTokenOf, legacyCredentialOf, newAccessToken } from '../../src/domain/access-token-form.js';
import { randomIds } from '../../src/domain/ids.js';
import { legacyFieldsOf, removeLegacyFields } from '../../src/http/legacy-fields.js';

const SAMPLE_TOKEN = 'OGE4Mjk0MTc0YjdlY2IyODAxNGI5Njk5MjIwMDE1Y2N8c3k2S0pzVDg=';
const SAMPLE_USER = '8a8294174b7ecb28014b9699220015cc';
const USER = 'a'.repeat(32);

describe('access token form (base64 of userId|password)', () => {
  it("encodes the documentation's sample credential to its sample token", () => {
    assert.equal(accessTokenOf(SAMPLE_USER, 'sy6KJsT8'), SAMPLE_TOKEN);
  });

  const decodings: { name: string; token: string; expected: { userId: string; password: string } | undefined }[] = [
    { name: 'the sample token', token: SAMPLE_TOKEN, expected: { userId: SAMPLE_USER, password: 'sy6KJsT8' } },
    { name: 'a password holding a bar', token: accessTokenOf(USER, 'a|b'), expected: { userId: USER, password: 'a|b' } },
    { name: 'a random base64url token of before', token: 'x'.repeat(43), expected: undefined },
    { name: 'base64url characters', token: accessTokenOf(USER, '??>>').replace(/\+/g, '-').replace(/\//g, '_'), expected: undefined },
    { name: 'no bar', token: Buffer.from(USER).toString('base64'), expected: undefined },
    { name: 'userId in upper case', token: accessTokenOf(USER.toUpperCase(), 'pw'), expected: undefined },
    { name: 'userId too short', token: accessTokenOf('abc', 'pw'), expected: undefined },
    { name: 'empty password', token: accessTokenOf(USER, ''), expected: undefined },
    { name: 'padding missing', token: SAMPLE_TOKEN.slice(0, -1), expected: undefined },
  ];
  for (const row of decodings) {
    it(`decodes ${row.name}`, () => assert.deepEqual(legacyCredentialOf(row.token), row.expected));
  }

  it('issues tokens of that form: the token id as userId and 32 characters (192 bits) of password', () => {
    const { tokenId, accessToken } = newAccessToken(randomIds);
    const credential = legacyCredentialOf(accessToken);
    assert.equal(credential?.userId, tokenId);
    assert.match(credential?.password ?? '', /^[A-Za-z0-9_-]{32}$/);
    assert.notEqual(newAccessToken(randomIds).accessToken, accessToken);
  });
});

describe('legacy authentication fields', () => {
  const rows: { name: string; source: Record<string, unknown> | undefined; kind: string; token?: string }[] = [
    { name: 'no parameters', source: undefined, kind: 'absent' },
    { name: 'entityId only', source: { entityId: USER }, kind: 'absent' },
    { name: 'authentication.entityId only', source: { 'authentication.entityId': USER }, kind: 'absent' },
    { name: 'userId and password', source: { 'authentication.userId': SAMPLE_USER, 'authentication.password': 'sy6KJsT8' }, kind: 'credential', token: SAMPLE_TOKEN },
    { name: 'userId without password', source: { 'authentication.userId': SAMPLE_USER }, kind: 'incomplete' },
    { name: 'password without userId', source: { 'authentication.password': 'sy6KJsT8' }, kind: 'incomplete' },
    { name: 'empty password', source: { 'authentication.userId': SAMPLE_USER, 'authentication.password': '' }, kind: 'incomplete' },
    { name: 'password sent twice', source: { 'authentication.userId': SAMPLE_USER, 'authentication.password': ['a', 'b'] }, kind: 'incomplete' },
    { name: 'userId not 32 hex', source: { 'authentication.userId': 'admin', 'authentication.password': 'pw' }, kind: 'unknown' },
    { name: 'password over 256 characters', source: { 'authentication.userId': SAMPLE_USER, 'authentication.password': 'p'.repeat(257) }, kind: 'unknown' },
  ];
  for (const row of rows) {
    it(`${row.name} → ${row.kind}`, () => {
      const fields = legacyFieldsOf(row.source);
      assert.equal(fields.kind, row.kind);
      if (row.token) assert.equal((fields as { token: string }).token, row.token);
    });
  }

  const removals: { name: string; source: Record<string, unknown>; expected: Record<string, unknown> }[] = [
    { name: 'fields removed, authentication.entityId becomes entityId', source: { amount: '1', 'authentication.userId': USER, 'authentication.password': 'pw', 'authentication.entityId': USER }, expected: { amount: '1', entityId: USER } },
    { name: 'entityId kept when both are sent', source: { entityId: USER, 'authentication.entityId': USER }, expected: { entityId: USER } },
    { name: 'nothing added without authentication.entityId', source: { amount: '1', 'authentication.password': 'pw' }, expected: { amount: '1' } },
  ];
  for (const row of removals) {
    it(row.name, () => {
      const source = { ...row.source };
      removeLegacyFields(source, USER);
      assert.deepEqual(source, row.expected);
    });
  }
});
