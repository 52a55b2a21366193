import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import type { CreateRouteInput } from '../operations/routing/create-route.js';
import { adminApiCaller } from './admin-api-call.js';
import { AdminApiError } from './http-admin.js';
import { UsageError } from './usage.js';

export class RoutingUsageError extends UsageError {}

type Options = Readonly<Record<string, string | boolean | undefined>>;

const COMMANDS = ['route add', 'route list', 'route credentials', 'route disable', 'connector list', 'pending list', 'pending resolve'];

export function isRoutingCommand(command: string): boolean {
  return ['route', 'connector', 'pending'].includes(command.split(' ')[0] ?? '');
}

/** What the commands need, from the database itself or from a running gateway's /admin API. */
export interface RoutingPort {
  createRoute(input: CreateRouteInput): Promise<unknown>;
  listRoutes(): Promise<unknown>;
  rotate(routeId: string, credentials: Record<string, unknown>): Promise<unknown>;
  disable(routeId: string): Promise<unknown>;
  listConnectors(): Promise<unknown>;
  listPending(limit: number | undefined): Promise<unknown>;
  resolve(transactionId: string, outcome: string, reason: string): Promise<unknown>;
  close(): Promise<void>;
}


function credentialFields(credentials: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(credentials).map(([name, value]) => [`credentials[${name}]`, String(value)]));
}

function openHttp(baseUrl: string, token: string): RoutingPort {
  const call = adminApiCaller(baseUrl, token);
  return {
    createRoute: (input) =>
      call('POST', '/admin/routes', { system: input.system, entity: input.entityId, brand: input.brand, currency: input.currency, connector: input.connectorId, fallback: input.fallbackRouteId, ...credentialFields({ ...input.credentials }) }),
    listRoutes: async () => (await call<{ routes: unknown }>('GET', '/admin/routes')).routes,
    rotate: (routeId, credentials) => call('POST', `/admin/routes/${encodeURIComponent(routeId)}/credentials`, credentialFields(credentials)),
    disable: (routeId) => call('POST', `/admin/routes/${encodeURIComponent(routeId)}/disable`, {}),
    listConnectors: async () => (await call<{ connectors: unknown }>('GET', '/admin/connectors')).connectors,
    listPending: async (limit) => (await call<{ pending: unknown }>('GET', `/admin/pending${limit ? `?limit=${limit}` : ''}`)).pending,
    resolve: (transactionId, outcome, reason) => call('POST', `/admin/transactions/${encodeURIComponent(transactionId)}/resolve`, { outcome, reason }),
    close: async () => undefined,
  };
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new RoutingUsageError(`--${name} is required`);
  return value;
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function credentialsFrom(readSecret: () => Promise<string>): Promise<Record<string, unknown>> {
  const text = (await readSecret()).trim();
  if (text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Falls through to the usage error: the input itself is never echoed.
  }
  throw new RoutingUsageError('the credentials on standard input must be one JSON object of names and string values');
}

function limitOf(options: Options): number | undefined {
  const raw = optional(options, 'limit');
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,4}$/.test(raw)) throw new RoutingUsageError('--limit must be a whole number up to 1000');
  return Number(raw);
}

async function runOn(port: RoutingPort, command: string, options: Options, readSecret: () => Promise<string>): Promise<unknown> {
  switch (command) {
    case 'route add':
      return port.createRoute({
        connectorId: required(options, 'connector'),
        entityId: optional(options, 'entity'),
        brand: optional(options, 'brand'),
        currency: optional(options, 'currency'),
        system: optional(options, 'system'),
        fallbackRouteId: optional(options, 'fallback'),
        credentials: await credentialsFrom(readSecret),
      });
    case 'route list':
      return port.listRoutes();
    case 'route credentials':
      return port.rotate(required(options, 'route'), await credentialsFrom(readSecret));
    case 'route disable':
      return port.disable(required(options, 'route'));
    case 'connector list':
      return port.listConnectors();
    case 'pending list':
      return port.listPending(limitOf(options));
    case 'pending resolve':
      return port.resolve(required(options, 'transaction'), required(options, 'outcome'), required(options, 'reason'));
    default:
      throw new RoutingUsageError(`unknown command: ${command}`);
  }
}

/**
 * Runs one route, connector or pending command: on the database itself, or (embedded database
 * held by a running gateway) through its /admin API, like the other commands.
 */
export async function runRoutingCommand(
  config: Config,
  command: string,
  options: Options,
  io: { readonly env: Readonly<Record<string, string | undefined>>; readSecret(): Promise<string> },
): Promise<unknown> {
  if (!COMMANDS.includes(command)) throw new RoutingUsageError(`unknown command: ${command}`);
  let port: RoutingPort;
  const running = config.databaseUrl === undefined ? runningGateway(config.dataDir) : undefined;
  if (running) {
    const token = config.adminToken ?? localAdminToken(config.dataDir, false);
    if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
    port = openHttp(adminUrlOf(running), token);
  } else {
    // Loaded only here: the operations and database drivers are most of a command's start-up.
    port = await (await import('./routing-direct.js')).openRoutingDirect(config, io.env);
  }
  try {
    return await runOn(port, command, options, io.readSecret);
  } finally {
    await port.close();
  }
}
