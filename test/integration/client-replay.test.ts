import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { CreatedEntity } from '../../src/operations/admin/create-entity.js';
import {
  libraryOf,
  readCaptures,
  replayOne,
  ReplayIds,
  usesLegacyAuth,
  type CapturedRequest,
  type ReplayAnswer,
} from '../support/client-captures.js';
import { testDatabases } from '../support/databases.js';
import { ENVELOPE_NDC, ENVELOPE_TIMESTAMP, withAppAndMerchant, type TestApp } from '../support/test-app.js';

/**
 * Every request four real OPPWA client libraries sent, replayed with this test's entity and
 * credentials; each must get the answer docs/compatibility.md decides for it.
 */

interface Decision {
  readonly id: string;
  readonly request: string;
  readonly answer: string;
  readonly why: string;
  readonly outcomes: readonly (readonly [number, string])[];
}

interface CaptureExpectation {
  readonly decision: string;
  readonly status: number;
  readonly code: string;
}

const DOCS = new URL('../../docs/compatibility.md', import.meta.url);
const DATA = new URL('../../docs/compatibility.expectations.json', import.meta.url);
const { decisions, captures: expected } = JSON.parse(readFileSync(DATA, 'utf8')) as {
  decisions: Decision[];
  captures: Record<string, CaptureExpectation>;
};
const decisionById = new Map(decisions.map((decision) => [decision.id, decision]));
const captures = readCaptures();

const PAYMENT_CREATES = /^\/v1\/(payments|registrations\/[^/]+\/payments)$/;

function expectationOf(capture: CapturedRequest): CaptureExpectation {
  const found = expected[capture.key];
  assert.ok(found, `${capture.key} has no row in docs/compatibility.expectations.json`);
  return found;
}

/** The envelope, the decided answer, and the response fields clients read (part 4). */
function checkAnswer(answer: ReplayAnswer, expectation: CaptureExpectation, buildNumber: string): void {
  const { capture, status, body } = answer;
  const label = `${capture.key} ${capture.method} ${capture.path}: ${JSON.stringify(body?.['result'])}`;
  assert.ok(body, `${label}: the answer is JSON`);
  assert.equal(typeof (body['result'] as { code?: unknown }).code, 'string', label);
  assert.equal(body['buildNumber'], buildNumber, `${label}: buildNumber is the build's, constant`);
  assert.match(String(body['timestamp']), ENVELOPE_TIMESTAMP, label);
  // The specification's forms (docs/compatibility.md, "Envelope forms"); every error body has an id.
  assert.match(String(body['ndc']), ENVELOPE_NDC, label);
  if (status >= 400) assert.match(String(body['id']), /^[a-zA-Z0-9]{32}$/, `${label}: an error body carries id`);
  assert.deepEqual([status, answer.code], [expectation.status, expectation.code], label);
  const decision = decisionById.get(expectation.decision)!;
  assert.ok(
    decision.outcomes.some(([s, c]) => s === status && c === answer.code),
    `${label}: the answer is one decision ${decision.id} names`,
  );
  // 401 only where the capture itself carries no credential (the decision names it).
  assert.ok((status !== 401 || decision.outcomes.some(([s]) => s === 401)) && status < 500, label);
  if (capture.method === 'POST' && PAYMENT_CREATES.test(capture.path) && status < 500 && expectation.code.startsWith('000.')) {
    assert.equal(typeof body['paymentType'], 'string', `${label}: paymentType`);
    assert.equal(typeof body['paymentBrand'], 'string', `${label}: paymentBrand`);
    if (capture.body.includes('card.number')) assert.match(String((body['card'] as { last4Digits?: string }).last4Digits), /^\d{4}$/, label);
    if (/createRegistration=true/.test(capture.body)) assert.match(String(body['registrationId']), /^[a-zA-Z0-9]{32}$/, label);
  }
}

/** One ReplayIds per library: a library's ids name only what its own flow created. */
function idsPerLibrary(): (capture: CapturedRequest) => ReplayIds {
  const byLibrary = new Map<string, ReplayIds>();
  return (capture) => {
    const library = libraryOf(capture);
    if (!byLibrary.has(library)) byLibrary.set(library, new ReplayIds());
    return byLibrary.get(library)!;
  };
}

describe('client captures and the decision table agree', () => {
  it('every captured request has exactly one expectation, and every expectation a capture', () => {
    assert.deepEqual(Object.keys(expected).sort(), captures.map((capture) => capture.key).sort());
    for (const [key, row] of Object.entries(expected)) {
      assert.ok(decisionById.has(row.decision), `${key}: decision ${row.decision} exists`);
    }
  });

  it('docs/compatibility.md shows the same decisions as the data, with their counts', () => {
    const text = readFileSync(DOCS, 'utf8');
    const table = text.slice(text.indexOf('<!-- decisions:start -->'), text.indexOf('<!-- decisions:end -->'));
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Decision'))
      .map((line) => line.slice(2, -2).split(/ (?<!\\)\| /).map((cell) => cell.replace(/\\\|/g, '|')));
    const counts = new Map<string, number>();
    for (const row of Object.values(expected)) counts.set(row.decision, (counts.get(row.decision) ?? 0) + 1);
    assert.deepEqual(
      rows,
      decisions.map((decision) => [decision.id, decision.request, decision.answer, decision.why, String(counts.get(decision.id) ?? 0)]),
    );
  });
});

/** One suite: the captures replayed in order against a fresh app, each checked against its row. */
function replaySuite(title: string, open: () => ReturnType<ReturnType<typeof testDatabases>[number]['open']>, replayed: readonly CapturedRequest[], bearerForLegacy: boolean): void {
  describe(title, () => {
    let t: TestApp;
    let merchant: CreatedEntity;
    withAppAndMerchant(open, {}, (app, created) => {
      t = app;
      merchant = created;
    });
    const idsOf = idsPerLibrary();
    for (const capture of replayed) {
      it(`${capture.key} ${capture.method} ${capture.path} → ${expected[capture.key]?.decision}`, async () => {
        const answer = await replayOne(t.app, capture, merchant, idsOf(capture), bearerForLegacy);
        checkAnswer(answer, expectationOf(capture), `${'a'.repeat(40)}@2026-11-22 10:00:00 +0000`);
      });
    }
  });
}

for (const database of testDatabases()) {
  replaySuite(`client replay, as captured (${database.name})`, database.open, captures, false);
  // The same captures with the credential as a Bearer header: legacy fields and Bearer answer alike.
  replaySuite(`client replay, legacy captures with a Bearer header in place of authentication.* (${database.name})`, database.open, captures.filter(usesLegacyAuth), true);
}
