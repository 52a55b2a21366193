/**
 * Tells database outages (the server is down, restarting, the connection dropped) from errors
 * caused by a query. Outages become 999.999.888 with HTTP 503 so a client knows to retry; a
 * write whose answer was lost after it was sent is neither: its outcome is unknown (900.100.300).
 */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57 (operator
// intervention: shutdown, statement timeout), 58 (system error).
const UNAVAILABLE_SQLSTATE = /^(08|53|57|58)/;

const CONNECTION_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed|Query read timeout/i;

/** 25006 read_only_sql_transaction: the server is (now) a replica, not the leader. */
const READ_ONLY_SQLSTATE = '25006';

/**
 * A statement that may have committed, or not: its connection was lost (or its answer timed out)
 * after it was sent. Nothing may be told from it; the database, asked afterwards, holds the truth.
 */
export class CommitUncertainError extends Error {
  readonly code = 'COMMIT_UNCERTAIN';
  constructor(cause: unknown) {
    super(`the database connection was lost after a write was sent: its outcome is unknown (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'CommitUncertainError';
  }
}

/**
 * A transaction whose connection was lost (or reached a replica, or the server shut down) before
 * its COMMIT was sent: the server rolled it back, certainly. Writing it again cannot make two.
 */
export class TransactionLostError extends Error {
  readonly code = '08006';
  constructor(cause: unknown) {
    super(`the database connection was lost before the transaction committed: it was rolled back (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    this.name = 'TransactionLostError';
  }
}

/** A write that was never sent because the one before it on the same path lost its connection. */
export class NotSentError extends Error {
  readonly code = '08006';
  constructor(cause: unknown) {
    super('Connection terminated before this write was sent', { cause });
    this.name = 'NotSentError';
  }
}

function sqlStateOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof CommitUncertainError) return true;
  const code = sqlStateOf(error);
  // A replica refusing a write: the leader is away (a failover), as far as this request can tell.
  if (code === READ_ONLY_SQLSTATE) return true;
  if (code !== undefined && (CONNECTION_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return CONNECTION_MESSAGES.test(error.message);
}

export function isCommitUncertain(error: unknown): boolean {
  return error instanceof CommitUncertainError;
}

/** The server refused a write as read-only: after a failover the connection reached a replica. */
export function isNotLeader(error: unknown): boolean {
  return sqlStateOf(error) === READ_ONLY_SQLSTATE;
}

// pg refuses to send on a client it already knows is broken: such a statement never left.
const NOT_SENT_MESSAGES = /not queryable|Cannot use a pool after calling end/i;
// The server answered with an error of its own: it decided, and told us, so nothing is unknown.
// (57P01-57P03, the server shutting down, can arrive while a COMMIT is being made durable.)
const ANSWERED_SQLSTATE = /^(?!08|57P0)[0-9A-Z]{5}$/;

/**
 * Whether a statement that failed this way may nonetheless have committed: it was sent and may
 * write, and then its connection was lost or its answer never came. A statement the server
 * answered with an error, or one never sent, certainly did not commit.
 */
export function mayHaveCommitted(error: unknown, mayWrite: boolean): boolean {
  if (!mayWrite || !(error instanceof Error) || error instanceof NotSentError) return false;
  if (NOT_SENT_MESSAGES.test(error.message)) return false;
  // The socket refused the write itself (a connection already reset): the statement never left.
  if ((error as { syscall?: unknown }).syscall === 'write') return false;
  const code = sqlStateOf(error);
  if (code !== undefined && ANSWERED_SQLSTATE.test(code)) return false;
  return isDatabaseUnavailable(error);
}

/**
 * A connection error after which the connection must not be used again (the pool gets a new one).
 * Errors the server answered (a constraint, a statement timeout) leave the connection usable.
 */
export function isConnectionLost(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  const code = sqlStateOf(error);
  return code === undefined || CONNECTION_ERROR_CODES.has(code) || /^(08|57P0)/.test(code);
}

const READ_ONLY_STATEMENT = /^\s*(SELECT|SHOW|EXPLAIN)\b/i;
const WRITING_WORDS = /\b(INSERT|UPDATE|DELETE|MERGE|nextval|setval|pg_advisory\w*)\b|\bFOR\s+(NO\s+KEY\s+)?UPDATE\b/i;

/**
 * Whether a statement run on its own (autocommit) may change the database: everything but a
 * plain SELECT, SHOW or EXPLAIN that names no writing word. Errs towards "may write", which costs
 * only an uncertain answer where a retry would have done.
 */
export function statementMayWrite(sql: string): boolean {
  return !READ_ONLY_STATEMENT.test(sql) || WRITING_WORDS.test(sql);
}

/** A unique index refused the row: SQLSTATE 23505, on the named constraint or index when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== '23505') return false;
  if (constraint === undefined) return true;
  const named = (error as { constraint?: unknown }).constraint;
  return named === constraint || error.message.includes(constraint);
}
