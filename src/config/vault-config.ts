import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMasterKeyHex } from '../domain/vault/index.js';
import { ConfigError, type Config } from './load-config.js';

/**
 * Where the vault's master keys come from. VAULT_MASTER_KEY (or the file VAULT_MASTER_KEY_FILE
 * names) wraps every new data key; VAULT_ACCEPTED_MASTER_KEYS only unwraps, for rotations. On the
 * test system without either, a key is created once in DATA_DIR/vault-master-key (mode 600) so
 * `npm start` works with no set-up; the live system refuses to start without a configured key.
 */
export interface VaultKeyConfig {
  /** 64 hex characters. */
  readonly masterKeyHex: string;
  readonly acceptedKeysHex: readonly string[];
  /** The CLI's rotation target (`vault rotate-key`), when given. */
  readonly newMasterKeyHex: string | undefined;
  readonly source: 'VAULT_MASTER_KEY' | 'VAULT_MASTER_KEY_FILE' | 'local key file';
  readonly localKeyFile: string | undefined;
}

export const LOCAL_VAULT_KEY_FILE = 'vault-master-key';

/** Rows for the README's configuration table. */
export const VAULT_CONFIG_VARIABLES = [
  ['VAULT_MASTER_KEY', '(unset)', 'Master key of the card vault: 64 hex characters (32 random bytes, e.g. `openssl rand -hex 32`). Wraps the data keys that encrypt card and account numbers. Required on the live system (or VAULT_MASTER_KEY_FILE).'],
  ['VAULT_MASTER_KEY_FILE', '(unset)', 'A file holding the master key instead (e.g. a mounted secret). On the test system without either, DATA_DIR/vault-master-key is created (mode 600).'],
  ['VAULT_ACCEPTED_MASTER_KEYS', '(unset)', 'Comma-separated older (or next) master keys that may unwrap data keys but never wrap new ones; set during a key rotation (docs/registrations.md).'],
  ['VAULT_MASTER_KEY_NEW', '(unset)', 'Command line only: the key `vault rotate-key` re-wraps every data key to (offline rotation).'],
] as const;

type Env = Readonly<Record<string, string | undefined>>;

function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function checkedKey(name: string, value: string, problems: string[]): string {
  // Never quote the value: a wrong key may still be most of a right one.
  if (!isMasterKeyHex(value)) problems.push(`${name} must be 64 hex characters (32 bytes)`);
  return value.toLowerCase();
}

function readKeyFile(name: string, file: string, problems: string[]): string {
  try {
    return checkedKey(`the file of ${name}`, readFileSync(file, 'utf8').trim(), problems);
  } catch (error) {
    problems.push(`${name}=${JSON.stringify(file)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    return '';
  }
}

/** The test system's own key: made once, readable by the gateway's user only. */
export function localVaultKey(dataDir: string): { hex: string; file: string } {
  const file = join(dataDir, LOCAL_VAULT_KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    // 'wx': two processes starting at once cannot both write; the loser reads the winner's key.
    try {
      writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return { hex: readFileSync(file, 'utf8').trim().toLowerCase(), file };
}

function currentKey(env: Env, config: Pick<Config, 'system' | 'dataDir'>, problems: string[]): Pick<VaultKeyConfig, 'masterKeyHex' | 'source' | 'localKeyFile'> {
  const direct = present(env, 'VAULT_MASTER_KEY');
  const file = present(env, 'VAULT_MASTER_KEY_FILE');
  if (direct !== undefined && file !== undefined) problems.push('set VAULT_MASTER_KEY or VAULT_MASTER_KEY_FILE, not both');
  if (direct !== undefined) return { masterKeyHex: checkedKey('VAULT_MASTER_KEY', direct, problems), source: 'VAULT_MASTER_KEY', localKeyFile: undefined };
  if (file !== undefined) return { masterKeyHex: readKeyFile('VAULT_MASTER_KEY_FILE', file, problems), source: 'VAULT_MASTER_KEY_FILE', localKeyFile: undefined };
  if (config.system === 'live') {
    problems.push('GATEWAY_SYSTEM=live needs VAULT_MASTER_KEY or VAULT_MASTER_KEY_FILE (64 hex characters) for the card vault');
    return { masterKeyHex: '', source: 'VAULT_MASTER_KEY', localKeyFile: undefined };
  }
  const local = localVaultKey(config.dataDir);
  return { masterKeyHex: checkedKey(local.file, local.hex, problems), source: 'local key file', localKeyFile: local.file };
}

/** Reads and checks the vault keys; throws a ConfigError listing every problem. */
export function loadVaultConfig(env: Env, config: Pick<Config, 'system' | 'dataDir'>): VaultKeyConfig {
  const problems: string[] = [];
  const current = currentKey(env, config, problems);
  const accepted = (present(env, 'VAULT_ACCEPTED_MASTER_KEYS') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '')
    .map((key, index) => checkedKey(`VAULT_ACCEPTED_MASTER_KEYS (entry ${index + 1})`, key, problems));
  const newKey = present(env, 'VAULT_MASTER_KEY_NEW');
  const newMasterKeyHex = newKey === undefined ? undefined : checkedKey('VAULT_MASTER_KEY_NEW', newKey, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ ...current, acceptedKeysHex: Object.freeze(accepted), newMasterKeyHex });
}
