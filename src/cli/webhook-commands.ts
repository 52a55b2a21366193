import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { AdminApiError } from './http-admin.js';
import { httpWebhooks } from './http-webhooks.js';
import type { WebhookPort } from './webhook-port.js';
import { UsageError } from './usage.js';

/** A missing or malformed option of a webhook command; the dispatcher shows the help (exit 2). */
export class WebhookUsageError extends UsageError {}

type Options = Readonly<Record<string, string | boolean | undefined>>;

export function isWebhookCommand(command: string): boolean {
  return command === 'webhook' || command.startsWith('webhook ');
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new WebhookUsageError(`--${name} is required`);
  return value;
}

function optionalText(options: Options, name: string): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new WebhookUsageError(`--${name} needs a value`);
  return value;
}

function optionalLimit(options: Options): number | undefined {
  const value = options['limit'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[0-9]{1,6}$/.test(value)) throw new WebhookUsageError('--limit must be a whole number');
  return Number(value);
}

/** Runs one `webhook …` command on a port; returns what to print. */
export async function runWebhookCommandOn(port: WebhookPort, command: string, options: Options): Promise<unknown> {
  switch (command) {
    case 'webhook create':
      return port.createWebhook({ entityId: required(options, 'entity'), url: required(options, 'url'), types: optionalText(options, 'types') });
    case 'webhook list':
      return port.listWebhooks(typeof options['entity'] === 'string' ? options['entity'] : undefined);
    case 'webhook activate':
      return port.activateWebhook(required(options, 'webhook'));
    case 'webhook deactivate':
      return port.deactivateWebhook(required(options, 'webhook'));
    case 'webhook delete':
      return port.deleteWebhook(required(options, 'webhook'));
    case 'webhook test':
      return port.testWebhook(required(options, 'webhook'));
    case 'webhook attempts':
      return port.listAttempts(required(options, 'webhook'), optionalLimit(options));
    case 'webhook resend':
      return port.resendDelivery(required(options, 'delivery'));
    case 'webhook local-receivers': {
      const entityId = required(options, 'entity');
      return typeof options['set'] === 'string' ? port.setLocalReceivers(entityId, options['set']) : port.showLocalReceivers(entityId);
    }
    default:
      throw new WebhookUsageError(`unknown command: ${command}`);
  }
}

/** Where the commands run: the database itself, or the running gateway that holds PGlite. */
export async function connectWebhooks(config: Config): Promise<WebhookPort> {
  if (config.databaseUrl === undefined) {
    const running = runningGateway(config.dataDir);
    if (running) {
      const token = config.adminToken ?? localAdminToken(config.dataDir, false);
      if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
      return httpWebhooks(adminUrlOf(running), token);
    }
  }
  // Loaded only here: the operations and database drivers are most of a command's start-up.
  return (await import('./direct-webhooks.js')).openDirectWebhooks(config);
}

/** The dispatcher's entry: connect, run one `webhook …` command, close. */
export async function runWebhookCommand(config: Config, command: string, options: Options): Promise<unknown> {
  const port = await connectWebhooks(config);
  try {
    return await runWebhookCommandOn(port, command, options);
  } finally {
    await port.close();
  }
}
