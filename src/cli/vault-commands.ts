import { renameSync, writeFileSync } from 'node:fs';
import type { Config } from '../config/load-config.js';
import { loadVaultConfig, type VaultKeyConfig } from '../config/vault-config.js';
import { randomIds, systemClock } from '../domain/ids.js';
import type { FingerprintKind } from '../domain/vault/index.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { findRegistrationsOfAccount, rotateVaultKey, vaultStatus } from '../operations/registrations/vault-maintenance.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import { recordCompletedChange } from '../operations/audit/audited.js';
import { cliActor } from './cli-actor.js';
import type { Storage } from '../storage/port.js';
import { UsageError } from './usage.js';
import { runningGatewayAdmin, type AdminCall } from './running-gateway.js';

/** A wrong vault command or option, or a state it cannot run in; the dispatcher shows the help. */
export class VaultUsageError extends UsageError {}

export function isVaultCommand(command: string): boolean {
  return command === 'vault' || command.startsWith('vault ');
}

type Options = Readonly<Record<string, string | boolean | undefined>>;

export interface VaultCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The secret input of find-card (standard input). */
  readSecret(): Promise<string>;
}

const FINGERPRINT_KINDS: readonly FingerprintKind[] = ['card', 'iban', 'bankAccountNumber', 'tokenAccount'];

/** After an offline rotation of the test system's own key file, the file holds the new key. */
function replaceLocalKeyFile(keys: VaultKeyConfig): string | undefined {
  if (keys.source !== 'local key file' || !keys.localKeyFile || !keys.newMasterKeyHex) return undefined;
  const temporary = `${keys.localKeyFile}.new`;
  writeFileSync(temporary, `${keys.newMasterKeyHex}\n`, { mode: 0o600 });
  renameSync(temporary, keys.localKeyFile);
  return keys.localKeyFile;
}

function fingerprintKind(options: Options): FingerprintKind {
  const kind = options['kind'] ?? 'card';
  if (typeof kind !== 'string' || !FINGERPRINT_KINDS.includes(kind as FingerprintKind)) {
    throw new VaultUsageError(`--kind must be one of ${FINGERPRINT_KINDS.join(', ')}`);
  }
  return kind as FingerprintKind;
}

async function runOn(storage: Storage, command: string, options: Options, keys: VaultKeyConfig, io: VaultCommandIo): Promise<unknown> {
  const deps = { storage, clock: systemClock, ids: randomIds };
  switch (command) {
    case 'vault status':
      return vaultStatus(storage, openVault(deps, masterKeyRingOf(keys)));
    case 'vault rotate-key': {
      const report = await rotateVaultKey(storage, openVault(deps, masterKeyRingOf(keys, true)));
      await recordCompletedChange(deps, cliActor(), { action: 'vault.rotate-key', target: { kind: 'vault', id: report.currentMasterKeyId }, entityId: null, after: { rewrapped: report.rewrapped, skipped: report.skipped } });
      const replaced = replaceLocalKeyFile(keys);
      return { ...report, ...(replaced ? { localKeyFileNowHoldsNewKey: replaced } : {}) };
    }
    case 'vault find-card': {
      const kind = fingerprintKind(options);
      const number = (await io.readSecret()).trim();
      if (number === '') throw new VaultUsageError('vault find-card reads the number from standard input');
      return findRegistrationsOfAccount(storage, openVault(deps, masterKeyRingOf(keys)), kind, number);
    }
    default:
      throw new VaultUsageError(`unknown command: ${command}`);
  }
}

/**
 * Through the gateway that holds the embedded database: with the gateway's own keys, so an online
 * rotation re-wraps to its VAULT_MASTER_KEY; VAULT_MASTER_KEY_NEW (an offline rotation) needs it stopped.
 */
async function runThroughGateway(call: AdminCall, command: string, options: Options, keys: VaultKeyConfig, io: VaultCommandIo, dataDir: string): Promise<unknown> {
  switch (command) {
    case 'vault status':
      return call('GET', '/admin/vault/status');
    case 'vault rotate-key':
      if (keys.newMasterKeyHex) throw new VaultUsageError(`VAULT_MASTER_KEY_NEW is an offline rotation: stop the gateway that holds ${dataDir}, run it, then start it again`);
      return call('POST', '/admin/vault/rotate-key', {});
    default: {
      const number = (await io.readSecret()).trim();
      if (number === '') throw new VaultUsageError('vault find-card reads the number from standard input');
      return call('POST', '/admin/vault/find-card', { kind: fingerprintKind(options), number });
    }
  }
}

/** Runs one `vault …` command against the database, or through the gateway that holds it; returns what to print. */
export async function runVaultCommand(command: string, options: Options, config: Config, io: VaultCommandIo): Promise<unknown> {
  if (!['vault status', 'vault rotate-key', 'vault find-card'].includes(command)) throw new VaultUsageError(`unknown command: ${command}`);
  if (command === 'vault find-card') fingerprintKind(options);
  const keys = loadVaultConfig(io.env, config);
  const gateway = runningGatewayAdmin(config);
  if (gateway) return runThroughGateway(gateway, command, options, keys, io, config.dataDir);
  const storage = await openMigratedStorage(config);
  try {
    return await runOn(storage, command, options, keys, io);
  } finally {
    await storage.close();
  }
}

/** Standard input, whole, for `vault find-card`. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
