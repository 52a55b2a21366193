import type { Config } from '../config/load-config.js';
import { parseCommandLine, usageErrorText, type ParsedCommandLine } from './command-line.js';
import { UsageError } from './usage.js';

/**
 * `npm run gateway -- <command>`: reads the command line against the command table (usage.ts),
 * then loads only the modules of the command's group, so a typo or `--help` answers at once.
 */
type Run = Extract<ParsedCommandLine, { kind: 'run' }>;

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function runGroup(config: Config, parsed: Run): Promise<unknown> {
  const { command, options } = parsed;
  const io = { env: process.env, readSecret: readStandardInput };
  switch (parsed.spec.group) {
    case 'entity':
      return (await import('./entity-commands.js')).runEntityCommand(config, command, options);
    case 'webhook':
      return (await import('./webhook-commands.js')).runWebhookCommand(config, command, options);
    case 'routing':
      return (await import('./routing-commands.js')).runRoutingCommand(config, command, options, io);
    case 'risk':
      return (await import('./risk-commands.js')).runRiskCommand(config, parsed.words.slice(1), options, io);
    case 'settlement':
      return (await import('./settlement-commands.js')).runSettlementCommand(config, command, options, io);
    case 'vault':
      return (await import('./vault-commands.js')).runVaultCommand(command, options, config, io);
    case 'users':
      return (await import('./user-commands.js')).runUsersCommand(config, command, options, io);
    case 'audit':
      return (await import('./audit-commands.js')).runAuditCommand(config, command);
  }
}

async function describeFailure(error: unknown): Promise<string> {
  const { GatewayError } = await import('../results/gateway-error.js');
  const { ConfigError } = await import('../config/load-config.js');
  const { AdminApiError } = await import('./admin-api-call.js');
  if (error instanceof GatewayError) return `${error.message} ${JSON.stringify(error.parameterErrors ?? [])}`;
  if (error instanceof ConfigError || error instanceof AdminApiError) return error.message;
  return `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
}

async function main(argv: string[]): Promise<number> {
  let command: string | undefined;
  try {
    const parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      process.stdout.write(parsed.text);
      return 0;
    }
    command = parsed.command;
    const { loadConfig } = await import('../config/load-config.js');
    const result = await runGroup(loadConfig(process.env), parsed);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(usageErrorText(error.command === undefined && command ? new UsageError(error.message, command) : error));
      return 2;
    }
    process.stderr.write(`gateway: ${await describeFailure(error)}\n`);
    return 1;
  }
}

// Exits once both streams are flushed: to a pipe they write asynchronously, and an exit at once
// could cut the message off. Exiting at all, because a closed pool or socket may linger.
main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.stderr.write('', () => process.exit(code))));
