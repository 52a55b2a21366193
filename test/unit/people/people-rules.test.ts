/** The people rules as tables: lock-out, password policy, TOTP window and replay, sessions, roles given. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { afterFailure, lockedUntil, NO_FAILURES, type AccountFailures } from '../../../src/domain/people/lockout.js';
import { passwordProblem } from '../../../src/domain/people/password-policy.js';
import { checkTotp, matchingTotpStep, newTotpSecret, recoveryCodeHash, totpCode, totpStepAt } from '../../../src/domain/people/totp.js';
import { sessionExpiry, sessionNeedsTouch } from '../../../src/domain/people/session-rules.js';
import { roleAssignmentProblem, NOT_YOURS_TO_GIVE } from '../../../src/domain/people/role-assignment.js';
import type { Role } from '../../../src/domain/access/roles.js';

const NOW = new Date('2026-11-27T10:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);

describe('lock-out after failed sign-ins', () => {
  const fail = (account: AccountFailures, times: number) => Array.from({ length: times }).reduce<AccountFailures>((a) => afterFailure(a, NOW), account);
  const rows: Array<[string, AccountFailures, number, number | null]> = [
    ['4 failures: not locked', NO_FAILURES, 4, null],
    ['5 failures: 15 minutes', NO_FAILURES, 5, 15],
    ['a second lock in a row: 30 minutes', { failedSignIns: 0, lockCount: 1, lockedUntil: null }, 5, 30],
    ['a third: 60 minutes', { failedSignIns: 0, lockCount: 2, lockedUntil: null }, 5, 60],
    ['never longer than a day', { failedSignIns: 0, lockCount: 12, lockedUntil: null }, 5, 24 * 60],
  ];
  for (const [name, start, times, lockMinutes] of rows) {
    it(name, () => {
      const after = fail(start, times);
      assert.equal(lockedUntil(after, NOW)?.getTime() ?? null, lockMinutes === null ? null : minutes(lockMinutes).getTime());
    });
  }
  it('a lock that has passed no longer holds', () => {
    assert.equal(lockedUntil({ failedSignIns: 0, lockCount: 1, lockedUntil: minutes(15) }, minutes(15)), undefined);
  });
});

describe('password policy', () => {
  const rows: Array<[string, string, boolean]> = [
    ['11 characters', 'abcdefghijk', false],
    ['12 characters', 'abcdefghijkl', true],
    ['a passphrase', 'correct horse battery staple', true],
    ['the e-mail address', 'clerk@shop.example', false],
    ['one character repeated', 'aaaaaaaaaaaaaaaa', false],
    ['257 characters', 'ab'.repeat(128) + 'c', false],
  ];
  for (const [name, password, ok] of rows) it(name, () => assert.equal(passwordProblem(password, 'clerk@shop.example') === undefined, ok));
});

describe('TOTP window and replay', () => {
  const secret = newTotpSecret();
  const at = NOW.getTime();
  const rows: Array<[string, number, 'accepted' | 'wrong']> = [
    ['the code of now', 0, 'accepted'],
    ['the code of the step before (clock drift)', -30_000, 'accepted'],
    ['the code of the step after', 30_000, 'accepted'],
    ['two steps old', -60_000, 'wrong'],
    ['two steps ahead', 60_000, 'wrong'],
  ];
  for (const [name, offsetMs, expected] of rows) {
    it(name, () => assert.equal(checkTotp(matchingTotpStep(secret, totpCode(secret, at + offsetMs), at), null).kind, expected));
  }
  it('refuses a step accepted before, and any earlier one', () => {
    const step = totpStepAt(at);
    assert.deepEqual(checkTotp(step, step), { kind: 'replayed' });
    assert.deepEqual(checkTotp(step - 1, step), { kind: 'replayed' });
    assert.deepEqual(checkTotp(step + 1, step), { kind: 'accepted', step: step + 1 });
  });
  it('refuses what is not six digits', () => assert.equal(matchingTotpStep(secret, '12345', at), undefined));
  it('reads a recovery code whatever its case and separators', () => assert.equal(recoveryCodeHash('ABCDE-fghjk'), recoveryCodeHash('abcde fghjk')));
});

describe('session expiry', () => {
  const limits = { idleMinutes: 30, maxHours: 12 };
  const rows: Array<[string, Date, Date, Date, 'idle' | 'absolute' | undefined]> = [
    ['used a minute ago', NOW, minutes(59), minutes(60), undefined],
    ['unused for 30 minutes', NOW, NOW, minutes(30), 'idle'],
    ['12 hours old, used now', NOW, minutes(12 * 60 - 1), minutes(12 * 60), 'absolute'],
  ];
  for (const [name, createdAt, lastSeenAt, now, expected] of rows) it(name, () => assert.equal(sessionExpiry({ createdAt, lastSeenAt }, now, limits), expected));
  it('writes the last use once a minute at most', () => {
    assert.equal(sessionNeedsTouch({ createdAt: NOW, lastSeenAt: NOW }, new Date(NOW.getTime() + 59_000)), false);
    assert.equal(sessionNeedsTouch({ createdAt: NOW, lastSeenAt: NOW }, minutes(1)), true);
  });
});

describe('who may give which role', () => {
  const M = 'a'.repeat(32);
  const O = 'b'.repeat(32);
  const rows: Array<[Role, string | null, Role, string | null, string | undefined]> = [
    ['operator-admin', null, 'operator-support', null, undefined],
    ['operator-admin', null, 'finance', M, undefined],
    ['operator-admin', null, 'finance', null, 'a merchant role needs a merchant'],
    ['merchant-admin', M, 'developer', M, undefined],
    ['merchant-admin', M, 'developer', O, NOT_YOURS_TO_GIVE],
    ['merchant-admin', M, 'operator-admin', null, NOT_YOURS_TO_GIVE],
    ['operator-support', null, 'support', M, NOT_YOURS_TO_GIVE],
    ['finance', M, 'read-only', M, NOT_YOURS_TO_GIVE],
  ];
  for (const [role, merchantId, gives, to, expected] of rows) {
    it(`${role} gives ${gives} in ${to ?? 'no merchant'}`, () => assert.equal(roleAssignmentProblem({ role, merchantId }, gives, to), expected));
  }
});

describe('session cookie flags', async () => {
  const { cookieOptions } = await import('../../../src/console/sessions/session-cookie.js');
  it('over TLS: Secure, Path=/ (the __Host- prefix needs both), HttpOnly, SameSite=Lax', () => {
    assert.deepEqual(cookieOptions({ protocol: 'https' } as never), { httpOnly: true, sameSite: 'lax', secure: true, path: '/' });
  });
  it('without TLS: scoped to /console, not Secure (a browser would drop it on http://localhost)', () => {
    assert.deepEqual(cookieOptions({ protocol: 'http' } as never), { httpOnly: true, sameSite: 'lax', secure: false, path: '/console' });
  });
});

describe('docs/console.md', async () => {
  const { readFileSync } = await import('node:fs');
  const { renderRolesTable, ROLES_BEGIN, ROLES_END } = await import('../../../src/domain/access/permissions-docs.js');
  it('holds the roles table of PERMISSIONS as it is now (npm run docs)', () => {
    const markdown = readFileSync(new URL('../../../docs/console.md', import.meta.url), 'utf8');
    const start = markdown.indexOf(ROLES_BEGIN);
    const end = markdown.indexOf(ROLES_END);
    assert.ok(start >= 0 && end > start, 'the markers are there');
    assert.equal(markdown.slice(start, end + ROLES_END.length), renderRolesTable(), 'run npm run docs');
  });
});
