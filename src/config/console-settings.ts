import { readEnum, readInteger, type Env } from './env-readers.js';

/** The console (docs/console.md): where it is served, how long sessions live, sign-in back-off per address. */
export interface ConsoleSettings {
  /** public: on the public listener (and the only one without ADMIN_PORT); admin: on the admin listener only; off: not served. */
  readonly listener: 'public' | 'admin' | 'off';
  readonly sessionIdleMinutes: number;
  readonly sessionMaxHours: number;
  /** Failed sign-ins (passwords and codes) one address may make per window before it must wait. */
  readonly signInFailuresPerAddress: number;
  readonly signInFailureWindowMinutes: number;
}

export const CONSOLE_VARIABLES = [
  ['CONSOLE_LISTENER', 'public', '`public`: the console at /console on the public listener (the one listener without ADMIN_PORT); `admin`: on the admin listener only (needs ADMIN_PORT); `off`: no console.'],
  ['CONSOLE_SESSION_IDLE_MINUTES', '30', 'A console session unused this long ends.'],
  ['CONSOLE_SESSION_MAX_HOURS', '12', 'A console session ends this long after sign-in, used or not.'],
  ['CONSOLE_SIGN_IN_FAILURES_PER_ADDRESS', '20', 'Failed console sign-ins (passwords and codes) one client address may make per window; above it, it must wait for the window to end.'],
  ['CONSOLE_SIGN_IN_FAILURE_WINDOW_MINUTES', '15', 'Length of that window.'],
] as const;

export function collectConsoleSettings(env: Env, problems: string[]): ConsoleSettings {
  return Object.freeze({
    listener: readEnum<ConsoleSettings['listener']>(env, 'CONSOLE_LISTENER', ['public', 'admin', 'off'], 'public', problems),
    sessionIdleMinutes: readInteger(env, 'CONSOLE_SESSION_IDLE_MINUTES', 30, 1, 1440, problems),
    sessionMaxHours: readInteger(env, 'CONSOLE_SESSION_MAX_HOURS', 12, 1, 720, problems),
    signInFailuresPerAddress: readInteger(env, 'CONSOLE_SIGN_IN_FAILURES_PER_ADDRESS', 20, 1, 1_000_000, problems),
    signInFailureWindowMinutes: readInteger(env, 'CONSOLE_SIGN_IN_FAILURE_WINDOW_MINUTES', 15, 1, 1440, problems),
  });
}
