/** How long a console session lives (CONSOLE_SESSION_IDLE_MINUTES, CONSOLE_SESSION_MAX_HOURS). */
export interface SessionLimits {
  readonly idleMinutes: number;
  readonly maxHours: number;
}

export interface SessionTimes {
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
}

/**
 * A session's last use is written at most once a minute, not on every request (a page and its
 * assets would otherwise each write a row); the idle expiry is therefore up to this much late.
 */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

/** Why a session has ended by itself: unused for too long, or older than any session may be. */
export function sessionExpiry(session: SessionTimes, now: Date, limits: SessionLimits): 'idle' | 'absolute' | undefined {
  const nowMs = now.getTime();
  if (nowMs >= session.createdAt.getTime() + limits.maxHours * 3_600_000) return 'absolute';
  if (nowMs >= session.lastSeenAt.getTime() + limits.idleMinutes * 60_000) return 'idle';
  return undefined;
}

export function sessionNeedsTouch(session: SessionTimes, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() >= SESSION_TOUCH_INTERVAL_MS;
}
