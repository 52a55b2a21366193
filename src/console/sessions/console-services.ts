import type { FastifyInstance } from 'fastify';
import { AuthFailureLimiter } from '../../http/auth-failures.js';
import type { SessionLimits } from '../../domain/people/session-rules.js';
import type { PeopleDeps } from '../../operations/people/deps.js';

/** What the console's session hook and people pages share, made once per console. */
export interface ConsoleServices {
  readonly people: PeopleDeps;
  readonly sessionLimits: SessionLimits;
  /** Failed sign-ins per client address (passwords and codes alike); per account: lockout.ts. */
  readonly signInFailures: AuthFailureLimiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    consoleServices: ConsoleServices;
  }
}

export function createConsoleServices(app: FastifyInstance): ConsoleServices {
  const gateway = app.gateway;
  const settings = gateway.config.console;
  const people: PeopleDeps = {
    storage: gateway.storage,
    clock: gateway.clock,
    ids: gateway.ids,
    // Read at the time of use: tests put their own vault on the payment deps after the build.
    get vault() {
      return gateway.payments.vault;
    },
  };
  return {
    people,
    sessionLimits: { idleMinutes: settings.sessionIdleMinutes, maxHours: settings.sessionMaxHours },
    signInFailures: new AuthFailureLimiter({
      maxFailures: settings.signInFailuresPerAddress,
      windowMs: settings.signInFailureWindowMinutes * 60_000,
      clock: gateway.clock,
      redis: gateway.redis,
    }),
  };
}
