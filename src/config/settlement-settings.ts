import { readInteger, readOptional, type Env } from './env-readers.js';

/** The daily settlement run, where its files go, and the built-in SFTP server (docs/settlement.md). */
export interface SettlementSettings {
  /** Folder of the reconciliation files: one sub-folder per merchant entity id. */
  readonly filesDir: string;
  /** Minutes after midnight UTC the daily run starts (the acquirers' files are in by then). */
  readonly runAtMinuteUtc: number;
  /** Missed days the daily run catches up on after the gateway was down. */
  readonly catchUpDays: number;
  /** The latest ended days every daily run settles again, adding only what is new. */
  readonly settleAgainDays: number;
  /** The built-in SFTP server; absent: not started. */
  readonly sftp: { readonly port: number; readonly host: string; readonly hostKeyFile: string } | undefined;
}

export const SETTLEMENT_VARIABLES = [
  ['SETTLEMENT_FILES_DIR', 'DATA_DIR/settlement', 'Folder of the reconciliation files, one sub-folder per merchant entity id.'],
  ['SETTLEMENT_RUN_AT_MINUTE', '120', 'Minutes after midnight UTC at which the daily settlement run ingests the day that ended at midnight, writes the files and pushes them.'],
  ['SETTLEMENT_CATCH_UP_DAYS', '7', 'Days the daily run catches up on when it was not run (the gateway was down).'],
  ['SETTLEMENT_SETTLE_AGAIN_DAYS', '2', 'The latest ended days every daily run settles again, adding only what is new (records an acquirer delivered late, payments after a run that came early); 0: none.'],
  ['SFTP_PORT', '(unset)', 'Port of the built-in SFTP server that serves each merchant its own reconciliation files; unset: no SFTP server.'],
  ['SFTP_HOST', '127.0.0.1', 'Address the SFTP server listens on.'],
  ['SFTP_HOST_KEY_FILE', 'DATA_DIR/sftp_host_key', 'The SFTP server\'s private host key (PEM or OpenSSH); created (ed25519) when missing.'],
] as const;

export function collectSettlementSettings(env: Env, dataDir: string, problems: string[]): SettlementSettings {
  const port = readOptional(env, 'SFTP_PORT');
  const sftpPort = port === undefined ? undefined : readInteger(env, 'SFTP_PORT', 0, 0, 65_535, problems);
  return Object.freeze({
    filesDir: readOptional(env, 'SETTLEMENT_FILES_DIR') ?? `${dataDir}/settlement`,
    runAtMinuteUtc: readInteger(env, 'SETTLEMENT_RUN_AT_MINUTE', 120, 0, 1439, problems),
    catchUpDays: readInteger(env, 'SETTLEMENT_CATCH_UP_DAYS', 7, 1, 366, problems),
    settleAgainDays: readInteger(env, 'SETTLEMENT_SETTLE_AGAIN_DAYS', 2, 0, 366, problems),
    sftp: sftpPort === undefined ? undefined : Object.freeze({
      port: sftpPort,
      host: readOptional(env, 'SFTP_HOST') ?? '127.0.0.1',
      hostKeyFile: readOptional(env, 'SFTP_HOST_KEY_FILE') ?? `${dataDir}/sftp_host_key`,
    }),
  });
}
