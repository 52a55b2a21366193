import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SCHEME_DATA_DOCS } from '../../../src/catalogue/rules/three-d-secure.js';
import { DECRYPTED_WALLET_DOCS } from '../../../src/catalogue/rules/wallet.js';
import { SCHEDULE_INITIAL_PAYMENT_DOCS } from '../../../src/operations/schedules/create-schedule.js';
import { AUTHENTICATION_FIELDS_DOCS } from '../../../src/operations/three-d-secure/authenticate-payment.js';

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsIn(path: string): Set<string> {
  const text = readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
  return new Set(text.split('\n').filter((line) => /^#{1,6} /.test(line)).map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

test('every docs pointer an error message carries leads to a heading that exists', () => {
  for (const pointer of [DECRYPTED_WALLET_DOCS, AUTHENTICATION_FIELDS_DOCS, SCHEME_DATA_DOCS, SCHEDULE_INITIAL_PAYMENT_DOCS]) {
    const [path, anchor] = pointer.split('#');
    assert.ok(anchorsIn(path!).has(anchor!), `${pointer}: no such heading`);
  }
});
