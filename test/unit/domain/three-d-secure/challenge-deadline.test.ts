import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { challengeExpiresAt, expiresAtAfterResult } from '../../../../src/domain/three-d-secure/challenge-deadline.js';

const MINUTE = 60_000;
const OPENED = new Date('2026-11-28T02:00:00Z');
const LIMITS = { redirectExpiryMs: 30 * MINUTE, challengeTimeoutMs: 15 * MINUTE };

describe('how long a challenge stays open', () => {
  const cases: [string, Parameters<typeof challengeExpiresAt>[1], boolean, number][] = [
    ['a protocol challenge waits for its RReq the challenge timeout', LIMITS, true, 15 * MINUTE],
    ['the simulator\'s challenge (no RReq) the redirect\'s life', LIMITS, false, 30 * MINUTE],
    ['a challenge timeout beyond the redirect\'s life: the redirect\'s life', { ...LIMITS, challengeTimeoutMs: 60 * MINUTE }, true, 30 * MINUTE],
    ['a short timeout (tests, rehearsals)', { ...LIMITS, challengeTimeoutMs: 3_000 }, true, 3_000],
  ];
  for (const [name, limits, awaitsRReq, lifeMs] of cases) {
    it(name, () => assert.equal(challengeExpiresAt(OPENED, limits, awaitsRReq).getTime() - OPENED.getTime(), lifeMs));
  }
  it('once the RReq has come: the redirect\'s life from the start', () => {
    assert.equal(expiresAtAfterResult(OPENED, LIMITS).getTime() - OPENED.getTime(), 30 * MINUTE);
  });
});
