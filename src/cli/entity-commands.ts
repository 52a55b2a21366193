import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import type { MerchantBankAccountInput } from '../operations/admin/set-merchant-bank-account.js';
import type { AdminPort } from './admin-port.js';
import { required, type Options } from './command-line.js';
import { AdminApiError, httpAdmin } from './http-admin.js';
import { UsageError } from './usage.js';

/** Where the commands run: the database itself, or a running gateway that holds PGlite. */
async function connect(config: Config): Promise<AdminPort> {
  if (config.databaseUrl === undefined) {
    const running = runningGateway(config.dataDir);
    if (running) {
      const token = config.adminToken ?? localAdminToken(config.dataDir, false);
      if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
      return httpAdmin(adminUrlOf(running), token);
    }
  }
  // Loaded only here: the operations and database drivers are most of a command's start-up.
  return (await import('./direct-admin.js')).openDirectAdmin(config);
}

function onOrOff(options: Options): boolean {
  if (options['on'] === true && options['off'] !== true) return true;
  if (options['off'] === true && options['on'] !== true) return false;
  throw new UsageError('give exactly one of --on and --off');
}

function bankAccountOf(options: Options): MerchantBankAccountInput | null {
  const text = (name: string) => (typeof options[name] === 'string' ? (options[name] as string) : undefined);
  if (options['remove'] === true) return null;
  return { holder: required(options, 'holder'), number: text('number'), bic: text('bic'), country: text('country') };
}

function runOn(port: AdminPort, command: string, options: Options): Promise<unknown> {
  switch (command) {
    case 'entity create':
      return port.createEntity({
        name: required(options, 'name'),
        merchantId: options['merchant'] as string | undefined,
        kind: options['kind'] as 'psp' | 'division' | undefined,
        parentId: options['parent'] as string | undefined,
      });
    case 'entity list':
      return port.listEntities();
    case 'entity legacy-auth':
      return port.setLegacyAuth(required(options, 'entity'), onOrOff(options));
    case 'entity unknown-parameters':
      return port.setUnknownParameters(required(options, 'entity'), required(options, 'mode'));
    case 'entity three-d-secure':
      return port.setThreeDSecure(required(options, 'entity'), required(options, 'requirement'));
    case 'entity connector-details':
      return port.setConnectorDetails(required(options, 'entity'), onOrOff(options));
    case 'entity bank-account':
      return port.setBankAccount(required(options, 'entity'), bankAccountOf(options));
    case 'token create':
      return port.createToken(required(options, 'entity'));
    case 'token revoke':
      return port.revokeToken(required(options, 'token-id'));
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

/** `entity …` and `token …`: connect, run one command, close. */
export async function runEntityCommand(config: Config, command: string, options: Options): Promise<unknown> {
  // Checked before connecting: a usage error should not wait for the database.
  if (command === 'entity legacy-auth' || command === 'entity connector-details') onOrOff(options);
  const port = await connect(config);
  try {
    return await runOn(port, command, options);
  } finally {
    await port.close();
  }
}
