import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { spliceEmv3dsTables } from '../../../src/connectors/emv3ds/docs.js';
import { ERROR_CODES } from '../../../src/connectors/emv3ds/errors.js';
import { MESSAGE_TYPES } from '../../../src/connectors/emv3ds/fields.js';

const doc = readFileSync(new URL('../../../docs/three-d-secure.md', import.meta.url), 'utf8');

describe('docs/three-d-secure.md: the EMV 3DS tables agree with the definitions', () => {
  it('the generated tables are current (npm run docs)', () => {
    assert.equal(spliceEmv3dsTables(doc), doc);
  });

  it('every error code and every message type has its table entry', () => {
    for (const [code, description] of Object.entries(ERROR_CODES)) assert.ok(doc.includes(`| ${code} | ${description} |`), code);
    for (const type of MESSAGE_TYPES) assert.ok(doc.includes(`#### ${type}\n`), type);
  });
});
