import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { loadVaultConfig } from '../config/vault-config.js';
import { cliActor } from './cli-actor.js';
import { randomIds, systemClock } from '../domain/ids.js';
import { createOperator, type CreatedOperator } from '../operations/people/create-operator.js';
import { masterKeyRingOf, openVault } from '../operations/registrations/open-vault.js';
import { openMigratedStorage } from '../storage/open-storage.js';
import { adminApiCaller } from './admin-api-call.js';
import { AdminApiError } from './admin-api-call.js';
import { UsageError } from './usage.js';

type Options = Readonly<Record<string, string | boolean | undefined>>;
type Input = { email: string; role?: string | undefined; password?: string | undefined };

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
  if (command !== 'users create-operator') throw new UsageError(`unknown command: ${command}`);
  const email = options['email'];
  if (typeof email !== 'string' || email === '') throw new UsageError('--email is required');
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
