import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { GatewayError } from '../results/gateway-error.js';
import type { MerchantBankAccountInput } from '../operations/admin/set-merchant-bank-account.js';
import type { AdminPort } from './admin-port.js';
import { openDirectAdmin } from './direct-admin.js';
import { AdminApiError, httpAdmin } from './http-admin.js';
import { isVaultCommand, readStandardInput, runVaultCommand, VAULT_HELP, VAULT_OPTIONS, VaultUsageError } from './vault-commands.js';
import { isWebhookCommand, runWebhookCommand, WEBHOOK_HELP, WEBHOOK_OPTIONS, WebhookUsageError } from './webhook-commands.js';
import { isRiskCommand, RISK_HELP, RISK_OPTIONS, RiskUsageError, runRiskCommand } from './risk-commands.js';
import { isRoutingCommand, ROUTING_HELP, ROUTING_OPTIONS, RoutingUsageError, runRoutingCommand } from './routing-commands.js';
import { isSettlementCommand, runSettlementCommand, SETTLEMENT_HELP, SETTLEMENT_OPTIONS, SettlementUsageError } from './settlement-commands.js';
import { isUsersCommand, runUsersCommand, USERS_HELP, USERS_OPTIONS, UsersUsageError } from './user-commands.js';

const HELP = `Usage: npm run gateway -- <command> [options]

Commands:
  entity create --name <name> [--merchant <merchantId>] [--kind psp|division] [--parent <id>]
                          create a merchant (or, with --merchant, a channel of it) and its
                          first access token; prints {"entityId", "accessToken", ...}. With
                          --kind, a PSP or a division (under --parent, a PSP); a merchant's
                          --parent is its division or PSP (reconciliation files' PspId, DivisionId)
  entity list             list all entities
  entity legacy-auth --entity <entityId> --on|--off
                          accept (default) or refuse OPPWA's authentication.userId/password/
                          entityId fields for an entity; Bearer tokens work either way
  entity unknown-parameters --entity <entityId> --mode reject|ignore
                          what the entity's requests get for a parameter no endpoint knows:
                          refused naming it (reject, the default) or left out and listed in the
                          answer's ignoredParameters (ignore)
  entity three-d-secure --entity <entityId> --requirement never|if-enrolled|always|above:<amount>:<currency>
                          whether the entity's card payments must be authenticated by 3-D Secure
                          (if-enrolled, the default: enrolled cards are; always: cards that cannot
                          be are refused; above:50.00:EUR: always above that amount)
  entity connector-details --entity <entityId> --on|--off
                          show (default) or hide the connector's details (ConnectorTxID1..3,
                          AcquirerResponse, clearingInstituteName) in the entity's payment
                          answers and webhooks; stored answers keep them either way
  entity bank-account --entity <entityId> --holder <name> [--number <IBAN or account>] [--bic <BIC>] [--country <CC>]
  entity bank-account --entity <entityId> --remove
                          the account PREPAYMENT shoppers pay into, answered as
                          merchant.bankAccount.*; a channel without one uses its merchant's
  token create --entity <entityId>
                          issue another access token for an entity (shown once)
  token revoke --token-id <tokenId>
                          revoke an access token
${WEBHOOK_HELP}${VAULT_HELP}${ROUTING_HELP}${RISK_HELP}${SETTLEMENT_HELP}${USERS_HELP}
The command reads the gateway's configuration (DATABASE_URL, DATA_DIR, ADMIN_TOKEN, ...).
On PostgreSQL it works on the database directly. On the embedded database it goes through the
running gateway's administration API (its own listener with ADMIN_PORT) when a gateway holds
DATA_DIR, and opens it otherwise.
`;

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
  return openDirectAdmin(config);
}

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

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

function isUsageError(error: unknown): error is Error {
  return error instanceof UsageError || error instanceof WebhookUsageError || error instanceof VaultUsageError || error instanceof RoutingUsageError || error instanceof RiskUsageError || error instanceof SettlementUsageError || error instanceof UsersUsageError;
}

async function run(port: AdminPort, command: string, options: Options): Promise<unknown> {
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
      throw new UsageError(`unknown command: ${command || '(none)'}`);
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof GatewayError) return `${error.message} ${JSON.stringify(error.parameterErrors ?? [])}`;
  if (error instanceof ConfigError || isUsageError(error) || error instanceof AdminApiError) return error.message;
  return `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}

function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        merchant: { type: 'string' },
        entity: { type: 'string' },
        'token-id': { type: 'string' },
        on: { type: 'boolean' },
        off: { type: 'boolean' },
        mode: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...WEBHOOK_OPTIONS,
        ...VAULT_OPTIONS,
        ...ROUTING_OPTIONS,
        ...RISK_OPTIONS,
        ...SETTLEMENT_OPTIONS,
        ...USERS_OPTIONS,
        parent: { type: 'string' },
        holder: { type: 'string' },
        number: { type: 'string' },
        bic: { type: 'string' },
        country: { type: 'string' },
        remove: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv);
  if (values.help || positionals.length === 0) {
    process.stdout.write(HELP);
    return values.help ? 0 : 2;
  }
  const command = positionals.slice(0, 2).join(' ');
  const config = loadConfig(process.env);
  if (isWebhookCommand(command)) {
    process.stdout.write(`${JSON.stringify(await runWebhookCommand(config, command, values), null, 2)}\n`);
    return 0;
  }
  if (isRoutingCommand(command)) {
    const result = await runRoutingCommand(config, command, values, { env: process.env, readSecret: readStandardInput });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (isRiskCommand(command)) {
    const result = await runRiskCommand(config, positionals.slice(1), values, { env: process.env, readSecret: readStandardInput });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  if (isSettlementCommand(command)) {
    process.stdout.write(`${JSON.stringify(await runSettlementCommand(config, command, values, { env: process.env, readSecret: readStandardInput }), null, 2)}\n`);
    return 0;
  }
  if (isUsersCommand(command)) {
    process.stdout.write(`${JSON.stringify(await runUsersCommand(config, command, values, { env: process.env, readSecret: readStandardInput }), null, 2)}\n`);
    return 0;
  }
  if (isVaultCommand(command)) {
    const result = await runVaultCommand(command, values, config, { env: process.env, readSecret: readStandardInput });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  }
  const port = await connect(config);
  try {
    process.stdout.write(`${JSON.stringify(await run(port, command, values), null, 2)}\n`);
    return 0;
  } finally {
    await port.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${describeFailure(error)}\n`);
    if (isUsageError(error)) process.stderr.write(`\n${HELP}`);
    process.exit(isUsageError(error) ? 2 : 1);
  },
);
