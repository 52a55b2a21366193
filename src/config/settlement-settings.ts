import { readInteger, readOptional, type Env } from './env-readers.js';
import { collectSftpSettings, SFTP_VARIABLES, type SftpSettings } from './sftp-settings.js';

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
  readonly sftp: SftpSettings | undefined;
}

export const SETTLEMENT_VARIABLES = [
  ['SETTLEMENT_FILES_DIR', 'DATA_DIR/settlement', 'Folder of the reconciliation files, one sub-folder per merchant entity id.'],
  ['SETTLEMENT_RUN_AT_MINUTE', '120', 'Minutes after midnight UTC at which the daily settlement run ingests the day that ended at midnight, writes the files and pushes them.'],
  ['SETTLEMENT_CATCH_UP_DAYS', '7', 'Days the daily run catches up on when it was not run (the gateway was down).'],
  ['SETTLEMENT_SETTLE_AGAIN_DAYS', '2', 'The latest ended days every daily run settles again, adding only what is new (records an acquirer delivered late, payments after a run that came early); 0: none.'],
  ...SFTP_VARIABLES,
] as const;

export function collectSettlementSettings(env: Env, dataDir: string, problems: string[]): SettlementSettings {
  return Object.freeze({
    filesDir: readOptional(env, 'SETTLEMENT_FILES_DIR') ?? `${dataDir}/settlement`,
    runAtMinuteUtc: readInteger(env, 'SETTLEMENT_RUN_AT_MINUTE', 120, 0, 1439, problems),
    catchUpDays: readInteger(env, 'SETTLEMENT_CATCH_UP_DAYS', 7, 1, 366, problems),
    settleAgainDays: readInteger(env, 'SETTLEMENT_SETTLE_AGAIN_DAYS', 2, 0, 366, problems),
    sftp: collectSftpSettings(env, dataDir, problems),
  });
}
