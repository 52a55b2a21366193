import type { Config } from '../config/load-config.js';
import { adminUrlOf, localAdminToken, runningGateway } from '../config/runtime-file.js';
import { adminApiCaller } from './admin-api-call.js';
import { AdminApiError } from './http-admin.js';
import { UsageError } from './usage.js';

export class RiskUsageError extends UsageError {}

type Options = Readonly<Record<string, string | boolean | undefined>>;

interface ListArgs { entityId: string; list: string; kind: string; value: string; reason?: string | undefined; changedBy: string }

export interface RiskPort {
  setRules(entityId: string, rules: string, changedBy: string): Promise<unknown>;
  restoreRules(entityId: string, version: string, changedBy: string): Promise<unknown>;
  importList(input: { entityId: string; list: string; csv: string; changedBy: string }): Promise<unknown>;
  showRules(entityId: string): Promise<unknown>;
  add(input: ListArgs): Promise<unknown>;
  remove(input: ListArgs): Promise<unknown>;
  list(entityId: string, list: string): Promise<unknown>;
  transaction(transactionId: string): Promise<unknown>;
  close(): Promise<void>;
}

export function isRiskCommand(command: string): boolean {
  return command.split(' ')[0] === 'risk';
}


function openHttp(baseUrl: string, token: string): RiskPort {
  const call = adminApiCaller(baseUrl, token);
  const entity = (id: string) => `/admin/entities/${encodeURIComponent(id)}/risk`;
  const listForm = (i: ListArgs) => ({ kind: i.kind, value: i.value, reason: i.reason, by: i.changedBy });
  return {
    setRules: (entityId, rules, by) => call('PUT', `${entity(entityId)}/rules`, { rules, by }),
    showRules: (entityId) => call('GET', `${entity(entityId)}/rules`),
    restoreRules: (entityId, version, by) => call('POST', `${entity(entityId)}/rules/restore`, { version, by }),
    importList: (i) => call('POST', `${entity(i.entityId)}/lists/${encodeURIComponent(i.list)}/import`, { csv: i.csv, by: i.changedBy }),
    add: (i) => call('POST', `${entity(i.entityId)}/lists/${encodeURIComponent(i.list)}`, listForm(i)),
    remove: (i) => call('POST', `${entity(i.entityId)}/lists/${encodeURIComponent(i.list)}/remove`, listForm(i)),
    list: (entityId, list) => call('GET', `${entity(entityId)}/lists/${encodeURIComponent(list)}`),
    transaction: (id) => call('GET', `/admin/transactions/${encodeURIComponent(id)}/risk`),
    close: async () => undefined,
  };
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new RiskUsageError(`--${name} is required`);
  return value;
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function valueFrom(readSecret: () => Promise<string>): Promise<string> {
  const value = (await readSecret()).trim();
  if (value === '' || value.includes('\n')) throw new RiskUsageError('the value must be given on standard input, one line (never as an argument)');
  return value;
}

async function runOn(port: RiskPort, words: readonly string[], options: Options, io: { readSecret(): Promise<string>; actor: string }): Promise<unknown> {
  const [group, action] = words;
  const changedBy = optional(options, 'by') ?? io.actor;
  if (group === 'rules' && action === 'set') return port.setRules(required(options, 'entity'), await io.readSecret(), changedBy);
  if (group === 'rules' && action === 'show') return port.showRules(required(options, 'entity'));
  if (group === 'rules' && action === 'restore') return port.restoreRules(required(options, 'entity'), required(options, 'version'), changedBy);
  if (group === 'transaction') return port.transaction(required(options, 'transaction'));
  if (group === 'blacklist' || group === 'whitelist') {
    const list = group === 'blacklist' ? 'black' : 'white';
    const entityId = required(options, 'entity');
    if (action === 'list') return port.list(entityId, list);
    // The CSV on standard input (it may hold card numbers: never an argument).
    if (action === 'import') return port.importList({ entityId, list, csv: await io.readSecret(), changedBy });
    if (action === 'add' || action === 'remove') {
      const input = { entityId, list, kind: required(options, 'kind'), value: await valueFrom(io.readSecret), reason: optional(options, 'reason'), changedBy };
      return action === 'add' ? port.add(input) : port.remove(input);
    }
  }
  throw new RiskUsageError(`unknown command: risk ${words.join(' ')}`);
}

/**
 * `risk …` commands: on the database itself, or through a running gateway's /admin API when it
 * holds the embedded database. Who changed what is --by, else the operating system's user.
 */
export async function runRiskCommand(
  config: Config,
  words: readonly string[],
  options: Options,
  io: { readonly env: Readonly<Record<string, string | undefined>>; readSecret(): Promise<string> },
): Promise<unknown> {
  const running = config.databaseUrl === undefined ? runningGateway(config.dataDir) : undefined;
  let port: RiskPort;
  if (running) {
    const token = config.adminToken ?? localAdminToken(config.dataDir, false);
    if (!token) throw new AdminApiError(`a gateway holds ${config.dataDir}; set ADMIN_TOKEN to reach it`);
    port = openHttp(adminUrlOf(running), token);
  } else {
    // Loaded only here: the operations and database drivers are most of a command's start-up.
    port = await (await import('./risk-direct.js')).openRiskDirect(config, io.env);
  }
  try {
    return await runOn(port, words, options, { readSecret: io.readSecret, actor: `cli:${io.env['USER'] ?? 'unknown'}` });
  } finally {
    await port.close();
  }
}
