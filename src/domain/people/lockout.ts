/**
 * Back-off after failed sign-ins, counted per account (per address: the console's
 * AuthFailureLimiter). After `failuresBeforeLock` wrong passwords or codes in a row the account is
 * locked for `firstLockMinutes`; each lock that follows another without a success in between lasts
 * twice as long, up to `longestLockMinutes`. A success clears both counts.
 */
export interface LockoutRules {
  readonly failuresBeforeLock: number;
  readonly firstLockMinutes: number;
  readonly longestLockMinutes: number;
}

export const LOCKOUT_RULES: LockoutRules = { failuresBeforeLock: 5, firstLockMinutes: 15, longestLockMinutes: 24 * 60 };

export interface AccountFailures {
  readonly failedSignIns: number;
  readonly lockCount: number;
  readonly lockedUntil: Date | null;
}

export const NO_FAILURES: AccountFailures = { failedSignIns: 0, lockCount: 0, lockedUntil: null };

export function lockedUntil(account: AccountFailures, now: Date): Date | undefined {
  return account.lockedUntil !== null && account.lockedUntil.getTime() > now.getTime() ? account.lockedUntil : undefined;
}

export function lockMinutes(lockCount: number, rules: LockoutRules): number {
  return Math.min(rules.longestLockMinutes, rules.firstLockMinutes * 2 ** Math.min(lockCount, 20));
}

/** The account's counts after one more failure at `now`. */
export function afterFailure(account: AccountFailures, now: Date, rules: LockoutRules = LOCKOUT_RULES): AccountFailures {
  const failedSignIns = account.failedSignIns + 1;
  if (failedSignIns < rules.failuresBeforeLock) return { ...account, failedSignIns };
  const until = new Date(now.getTime() + lockMinutes(account.lockCount, rules) * 60_000);
  return { failedSignIns: 0, lockCount: account.lockCount + 1, lockedUntil: until };
}
