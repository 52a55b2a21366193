/**
 * What one SFTP server may spend, so that a merchant (or anyone who reaches the port) can never
 * take the file descriptors, memory or event loop the payments need (issue 29, item 8: 20,100
 * OPENs in one session used to exhaust the process's descriptors). A session is one
 * authenticated connection; it carries one SFTP channel (MAX_CHANNELS_PER_CONNECTION).
 */
export interface SftpLimits {
  /** Connections the server holds at once, authenticated or not; more are dropped on accept. */
  readonly maxSessions: number;
  /** Authenticated connections of one merchant at once; the next login is refused. */
  readonly maxSessionsPerMerchant: number;
  /** Connections still in their key exchange or authentication; more are closed at once. */
  readonly maxPendingAuth: number;
  /** Files and folders one session holds open; the next OPEN or OPENDIR is answered SSH_FX_FAILURE. */
  readonly maxHandlesPerSession: number;
  /** Open files (descriptors) of all sessions together; the next OPEN is answered SSH_FX_FAILURE. */
  readonly maxOpenFiles: number;
  /** A connection that has not logged in this long after it arrived is closed. */
  readonly authTimeoutMs: number;
  /** A session that sends no SFTP request this long is closed, and its handles with it. */
  readonly idleTimeoutMs: number;
}

export const DEFAULT_SFTP_LIMITS: SftpLimits = Object.freeze({
  maxSessions: 64,
  maxSessionsPerMerchant: 4,
  maxPendingAuth: 16,
  maxHandlesPerSession: 16,
  maxOpenFiles: 256,
  authTimeoutMs: 30_000,
  idleTimeoutMs: 300_000,
});

/** OpenSSH's sftp and ssh2-sftp-client use one; more would multiply the handles of a session. */
export const MAX_CHANNELS_PER_CONNECTION = 1;
/** Failed or partial logins one connection may try (OpenSSH's MaxAuthTries); each reads the key table. */
export const MAX_AUTH_ATTEMPTS_PER_CONNECTION = 6;
/**
 * Bytes one READ answers at most. Clients ask 32 KiB (OpenSSH without the limits extension,
 * ssh2) and read on after a short answer; the cap bounds what each pipelined READ allocates.
 */
export const MAX_READ_BYTES = 64 * 1024;
/** Requests of one session still being worked on (file system calls); more are answered SSH_FX_FAILURE. */
export const MAX_PENDING_REQUESTS_PER_SESSION = 64;
/** Answers of one session waiting for the client's window; past this READs are refused until it reads. */
export const MAX_QUEUED_ANSWERS_PER_SESSION = 64;

/** A count shared by every session of one server (its open files), taken before and given back after. */
export interface Budget {
  take(): boolean;
  give(): void;
  readonly used: number;
}

export function budgetOf(limit: number): Budget {
  let used = 0;
  return {
    take() {
      if (used >= limit) return false;
      used += 1;
      return true;
    },
    give() {
      used = Math.max(0, used - 1);
    },
    get used() {
      return used;
    },
  };
}
