import { DEFAULT_SFTP_LIMITS, type SftpLimits } from '../sftp/sftp-limits.js';
import { readBoolean, readInteger, readOptional, type Env } from './env-readers.js';

/** The built-in SFTP server (docs/settlement.md, "Delivery over SFTP"). */
export interface SftpSettings {
  readonly port: number;
  readonly host: string;
  readonly hostKeyFile: string;
  /** false: `npm start` leaves the server to `npm run sftp`, a process of its own. */
  readonly inGateway: boolean;
  readonly limits: SftpLimits;
}

const D = DEFAULT_SFTP_LIMITS;

export const SFTP_VARIABLES = [
  ['SFTP_PORT', '(unset)', 'Port of the built-in SFTP server that serves each merchant its own reconciliation files; unset: no SFTP server.'],
  ['SFTP_HOST', '127.0.0.1', 'Address the SFTP server listens on.'],
  ['SFTP_HOST_KEY_FILE', 'DATA_DIR/sftp_host_key', 'The SFTP server\'s private host key (PEM or OpenSSH); created (ed25519) when missing.'],
  ['SFTP_IN_GATEWAY', 'true', '`false` stops `npm start` from serving SFTP; then run `npm run sftp`, a process of its own, so file transfers never share the payments\' process.'],
  ['SFTP_MAX_SESSIONS', String(D.maxSessions), 'Connections the SFTP server holds at once (logged in or not); more are dropped on arrival.'],
  ['SFTP_MAX_SESSIONS_PER_MERCHANT', String(D.maxSessionsPerMerchant), 'Logged-in SFTP sessions of one merchant at once; the next login is refused.'],
  ['SFTP_MAX_PENDING_AUTH', String(D.maxPendingAuth), 'SFTP connections still in their key exchange or login at once; more are closed on arrival.'],
  ['SFTP_MAX_HANDLES_PER_SESSION', String(D.maxHandlesPerSession), 'Files and folders one SFTP session holds open; the next OPEN is answered SSH_FX_FAILURE.'],
  ['SFTP_MAX_OPEN_FILES', String(D.maxOpenFiles), 'Files (descriptors) all SFTP sessions hold open together; the next OPEN is answered SSH_FX_FAILURE.'],
  ['SFTP_AUTH_TIMEOUT_MS', String(D.authTimeoutMs), 'An SFTP connection not logged in this long after it arrived is closed.'],
  ['SFTP_IDLE_TIMEOUT_MS', String(D.idleTimeoutMs), 'An SFTP session that sends no request this long is closed, with its open files.'],
] as const;

function readLimits(env: Env, problems: string[]): SftpLimits {
  return Object.freeze({
    maxSessions: readInteger(env, 'SFTP_MAX_SESSIONS', D.maxSessions, 1, 10_000, problems),
    maxSessionsPerMerchant: readInteger(env, 'SFTP_MAX_SESSIONS_PER_MERCHANT', D.maxSessionsPerMerchant, 1, 1_000, problems),
    maxPendingAuth: readInteger(env, 'SFTP_MAX_PENDING_AUTH', D.maxPendingAuth, 1, 10_000, problems),
    maxHandlesPerSession: readInteger(env, 'SFTP_MAX_HANDLES_PER_SESSION', D.maxHandlesPerSession, 1, 1_000, problems),
    maxOpenFiles: readInteger(env, 'SFTP_MAX_OPEN_FILES', D.maxOpenFiles, 1, 100_000, problems),
    authTimeoutMs: readInteger(env, 'SFTP_AUTH_TIMEOUT_MS', D.authTimeoutMs, 1_000, 600_000, problems),
    idleTimeoutMs: readInteger(env, 'SFTP_IDLE_TIMEOUT_MS', D.idleTimeoutMs, 1_000, 86_400_000, problems),
  });
}

/** The SFTP server SFTP_PORT asks for; undefined when there is none. */
export function collectSftpSettings(env: Env, dataDir: string, problems: string[]): SftpSettings | undefined {
  const limits = readLimits(env, problems);
  const inGateway = readBoolean(env, 'SFTP_IN_GATEWAY', true, problems);
  if (readOptional(env, 'SFTP_PORT') === undefined) return undefined;
  return Object.freeze({
    port: readInteger(env, 'SFTP_PORT', 0, 0, 65_535, problems),
    host: readOptional(env, 'SFTP_HOST') ?? '127.0.0.1',
    hostKeyFile: readOptional(env, 'SFTP_HOST_KEY_FILE') ?? `${dataDir}/sftp_host_key`,
    inGateway,
    limits,
  });
}
