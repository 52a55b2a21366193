import { readInteger, type Env } from './env-readers.js';

/**
 * How long each phase of an HTTP exchange may take. Without them a client that sends its
 * headers a byte at a time, or a body that never ends, holds a socket (and its memory) forever.
 */
export interface HttpTimeouts {
  /** From the first byte of a request to the end of its headers. */
  readonly headersTimeoutMs: number;
  /** From the first byte of a request to the end of its body. */
  readonly requestTimeoutMs: number;
  /** From routing to the answer being sent (body reading, handler, serialisation). */
  readonly handlerTimeoutMs: number;
  /** A socket on which nothing moves in either direction for this long is closed. */
  readonly connectionTimeoutMs: number;
  /** An idle keep-alive connection between two requests. */
  readonly keepAliveTimeoutMs: number;
}

export const HTTP_TIMEOUT_VARIABLES = [
  ['HEADERS_TIMEOUT_MS', '10000', 'A request\'s headers must arrive within this time of its first byte (or of the connection opening), else 408 and the connection is closed. At most REQUEST_TIMEOUT_MS.'],
  ['REQUEST_TIMEOUT_MS', '30000', 'A whole request (headers and body) must arrive within this time, else 408 and the connection is closed.'],
  ['HANDLER_TIMEOUT_MS', '60000', 'An answer not sent within this time of the request being routed is 504 with 900.100.300 (timeout, uncertain result); the work goes on and its outcome is found with GET or an Idempotency-Key replay. Must exceed REQUEST_TIMEOUT_MS.'],
  ['CONNECTION_TIMEOUT_MS', '120000', 'A connection on which no byte moves either way for this long is closed (e.g. a client that stops reading its answer). Must exceed HANDLER_TIMEOUT_MS.'],
  ['KEEP_ALIVE_TIMEOUT_MS', '72000', 'An idle keep-alive connection is closed after this long; keep it above the idle timeout of a load balancer in front (60 s on most).'],
] as const;

const MAX_TIMEOUT_MS = 3_600_000;

/** Reads the timeout variables, adding any problem to `problems` (loadConfig reports them all). */
export function collectHttpTimeouts(env: Env, problems: string[]): HttpTimeouts {
  const timeouts = {
    headersTimeoutMs: readInteger(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, MAX_TIMEOUT_MS, problems),
    requestTimeoutMs: readInteger(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, MAX_TIMEOUT_MS, problems),
    handlerTimeoutMs: readInteger(env, 'HANDLER_TIMEOUT_MS', 60_000, 100, MAX_TIMEOUT_MS, problems),
    connectionTimeoutMs: readInteger(env, 'CONNECTION_TIMEOUT_MS', 120_000, 100, MAX_TIMEOUT_MS, problems),
    keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, MAX_TIMEOUT_MS, problems),
  };
  // Node refuses a headers timeout above the request timeout.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  // The handler's clock starts once the headers are in: a body still arriving must meet the
  // request timeout (408, nothing done) before the handler timeout (504, outcome uncertain).
  if (timeouts.handlerTimeoutMs <= timeouts.requestTimeoutMs) problems.push('HANDLER_TIMEOUT_MS must be longer than REQUEST_TIMEOUT_MS');
  // A quieter limit would close the socket before a slow handler's 504 could be sent.
  if (timeouts.connectionTimeoutMs <= timeouts.handlerTimeoutMs) problems.push('CONNECTION_TIMEOUT_MS must be longer than HANDLER_TIMEOUT_MS');
  return Object.freeze(timeouts);
}
