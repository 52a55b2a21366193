import { hostname, userInfo } from 'node:os';
import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { loadVaultConfig } from '../config/vault-config.js';
import type { Actor } from '../domain/access/actor.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { createOperator, type CreatedOperator } from '../operations/people/create-operator.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import { adminApiCaller } from './admin-api-call.js';
import { AdminApiError } from './http-admin.js';

export const USERS_HELP = `  users create-operator --email <address> [--role operator-admin|operator-support|operator-read-only] [--password-stdin]
                          a person of the console (docs/console.md); prints a one-time password
                          (or reads the password from standard input with --password-stdin),
                          changed at the first sign-in, where the authenticator app is set up
`;

export const USERS_OPTIONS = {
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean' },
} as const;

export class UsersUsageError extends Error {}

type Options = Readonly<Record<string, string | boolean | undefined>>;
type Input = { email: string; role?: string | undefined; password?: string | undefined };

export function isUsersCommand(command: string): boolean {
  return command.split(' ')[0] === 'users';
}

function cliActor(): Extract<Actor, { kind: 'cli' }> {
  let osUser = 'unknown';
  try {
    osUser = userInfo().username;
  } catch {
    // a user without a passwd entry (containers): keep 'unknown'
  }
  return { kind: 'cli', osUser, host: hostname() };
}

async function createDirectly(config: Config, env: Readonly<Record<string, string | undefined>>, input: Input): Promise<CreatedOperator> {
  const storage = await openMigratedStorage(config);
  try {
    const base = { storage, clock: systemClock, ids: randomIds };
    const deps = { ...base, vault: openVault(base, masterKeyRingOf(loadVaultConfig(env, config))) };
    return await createOperator(deps, cliActor(), input);
  } finally {
    await storage.close();
  }
}

/**
 * `users create-operator`: on PostgreSQL straight into the database; on the embedded database held
 * by a running gateway, through its admin API (the audit log still names the person at the shell).
 */
export async function runUsersCommand(
  config: Config,
  command: string,
  options: Options,
  io: { readonly env: Readonly<Record<string, string | undefined>>; readSecret(): Promise<string> },
): Promise<CreatedOperator> {
  if (command !== 'users create-operator') throw new UsersUsageError(`unknown command: ${command}`);
  const email = options['email'];
  if (typeof email !== 'string' || email === '') throw new UsersUsageError('--email is required');
  const role = typeof options['role'] === 'string' ? options['role'] : undefined;
  const password = options['password-stdin'] === true ? (await io.readSecret()).replace(/\r?\n$/, '') : undefined;
  const input = { email, role, password };
  const running = config.databaseUrl === undefined ? runningGateway(config.dataDir) : undefined;
  if (!running) return createDirectly(config, io.env, input);
  const token = config.adminToken ?? localAdminToken(config.dataDir, false);
  if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
  const actor = cliActor();
  return adminApiCaller(adminUrlOf(running), token)<CreatedOperator>('POST', '/admin/console-users', { email, role, password, cliUser: actor.osUser, cliHost: actor.host });
}
