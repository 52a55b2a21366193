/**
 * Tells database outages (the server is down, restarting, the connection dropped) from errors
 * caused by a query. Outages become 999.999.888 with HTTP 503 so a client knows to retry.
 */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57 (operator
// intervention: shutdown, statement timeout), 58 (system error).
const UNAVAILABLE_SQLSTATE = /^(08|53|57|58)/;

const CONNECTION_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|Query read timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return CONNECTION_MESSAGES.test(error.message);
}

/** A unique index refused the row: SQLSTATE 23505, on the named constraint or index when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== '23505') return false;
  if (constraint === undefined) return true;
  const named = (error as { constraint?: unknown }).constraint;
  return named === constraint || error.message.includes(constraint);
}
