import { readFileSync } from 'node:fs';
import type { Config } from '../config/load-config.js';
import { runningGateway } from '../config/runtime-file.js';
import { paymentDeps } from '../app.js';
import { loadVaultConfig } from '../config/vault-config.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { pushFile } from '../operations/settlement/push-file.js';
import { setPushTarget } from '../operations/settlement/set-push-target.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { dayBounds, hasEnded, isSettlementDay } from '../domain/settlement/days.js';
import { addSftpKey } from '../operations/settlement/add-sftp-key.js';
import { runSettlementDay } from '../operations/settlement/run-settlement-day.js';
import { setSettlementFees } from '../operations/settlement/set-settlement-fees.js';
import { settlementSources } from '../operations/settlement/settlement-sources.js';
import { openMigratedStorage } from '../storage/open-storage.js';

export const SETTLEMENT_HELP = `  settlement run --date <YYYY-MM-DD> [--rewrite-files]
                          ingest that settlement day from every connector with a settlement
                          feed, match, record chargebacks, write the merchants' reconciliation
                          files (SETTLEMENT_FILES_DIR); only a day that has ended (UTC); running
                          it again adds what is new and repeats nothing; --rewrite-files writes
                          and pushes every merchant's file of the day again (a failed push)
  settlement sftp-key --merchant <merchantId> --key-file <file.pub>
                          let the holder of this OpenSSH public key fetch the merchant's files
                          from the built-in SFTP server (user name: the merchant's entity id)
  settlement push-target --merchant <merchantId> --url sftp://user@host[:port]/folder
                          also push the merchant's files to its own server (sftp://, ftps://,
                          ftp:// on the test system); the password is read from standard input
                          and sealed by the vault
  settlement fees --merchant <merchantId> --fixed <amount> --rate-bp <basis points> [--currency <ISO>]
                          the simulated acquirer's fee and settlement currency for a merchant
`;

export const SETTLEMENT_OPTIONS = { date: { type: 'string' }, 'rewrite-files': { type: 'boolean' }, 'key-file': { type: 'string' }, fixed: { type: 'string' }, 'rate-bp': { type: 'string' }, currency: { type: 'string' }, url: { type: 'string' } } as const;

export class SettlementUsageError extends Error {}

export function isSettlementCommand(command: string): boolean {
  return command === 'settlement' || command.startsWith('settlement ');
}

type Options = Readonly<Record<string, string | boolean | undefined>>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new SettlementUsageError(`--${name} is required`);
  return value;
}

export interface SettlementCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The push target's password (standard input). */
  readSecret(): Promise<string>;
}

/** The day of `settlement run`: a real day that has ended (checked before the database is opened). */
function dayToRun(options: Options, now: Date): string {
  const day = required(options, 'date');
  if (!isSettlementDay(day)) throw new SettlementUsageError('--date must be a day as YYYY-MM-DD');
  if (!hasEnded(day, now)) throw new SettlementUsageError(`settlement day ${day} has not ended yet (it ends at ${dayBounds(day).to.toISOString()}): a day is settled once it has ended`);
  return day;
}

/** Settlement works on the database itself; the embedded one must not be held by a running gateway. */
export async function runSettlementCommand(config: Config, command: string, options: Options, io: SettlementCommandIo): Promise<unknown> {
  const day = command === 'settlement run' ? dayToRun(options, systemClock.now()) : undefined;
  const running = config.databaseUrl === undefined ? runningGateway(config.dataDir) : undefined;
  if (running) throw new SettlementUsageError(`a gateway (pid ${running.pid}) holds ${config.dataDir}: its daily job settles; stop it to run settlement by hand`);
  const storage = await openMigratedStorage(config);
  const deps = { storage, clock: systemClock, ids: randomIds };
  const vault = () => openVault(deps, masterKeyRingOf(loadVaultConfig(io.env, config)));
  const targets = config.workers.webhookTargets;
  try {
    switch (command) {
      case 'settlement run': {
        const payments = paymentDeps({ ...deps, config, vault: vault() });
        const push = (merchantId: string, path: string) => pushFile({ storage, vault: payments.vault, targets }, merchantId, path);
        return await runSettlementDay(deps, settlementSources(payments.connectors.registry), config.settlement.filesDir, day ?? '', push, { rewriteFiles: options['rewrite-files'] === true });
      }
      case 'settlement sftp-key':
        return await addSftpKey(deps, required(options, 'merchant'), readFileSync(required(options, 'key-file'), 'utf8'));
      case 'settlement push-target':
        return await setPushTarget({ ...deps, vault: vault(), targets }, { merchantId: required(options, 'merchant'), url: required(options, 'url'), password: (await io.readSecret()).trim() });
      case 'settlement fees':
        return await setSettlementFees(deps, {
          merchantId: required(options, 'merchant'),
          fixed: required(options, 'fixed'),
          rateBasisPoints: required(options, 'rate-bp'),
          currency: options['currency'] as string | undefined,
        });
      default:
        throw new SettlementUsageError(`unknown command: ${command}`);
    }
  } finally {
    await storage.close();
  }
}
