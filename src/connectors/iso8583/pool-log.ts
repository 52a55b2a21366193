import type { PoolEvent } from './pool.js';

/** The part of a pino-like logger the pool's events need; Fastify's app.log and the workers' logger fit. */
export interface PoolLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

const MESSAGES: Readonly<Record<PoolEvent['type'], string>> = {
  'connected': 'acquirer link connected and signed on',
  'connect-failed': 'acquirer link could not connect',
  'sign-on-failed': 'acquirer link sign-on failed',
  'echo-failed': 'acquirer link echo failed',
  'condemned': 'acquirer link condemned: replaced, closed once its requests end',
  'disconnected': 'acquirer link closed',
  'unmatched-answer': 'acquirer answer matched no open request',
};

/**
 * The pool's events as log lines: what an operator needs to see a host misbehave (which slot,
 * why), never anything from inside a message beyond its MTI.
 */
export function logPoolEvents(logger: PoolLogger, connectorId: string): (event: PoolEvent) => void {
  return (event) => {
    const fields = { connector: connectorId, ...event };
    const routine = event.type === 'connected' || event.type === 'unmatched-answer' || (event.type === 'disconnected' && (event.reason === 'pool-closed' || event.reason === 'condemned'));
    if (routine) logger.info(fields, MESSAGES[event.type]);
    else logger.warn(fields, MESSAGES[event.type]);
  };
}
