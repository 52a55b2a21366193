import { readFileSync } from 'node:fs';
import type { Config } from '../config/load-config.js';
import { systemClock } from '../domain/ids.js';
import { dayBounds, hasEnded, isSettlementDay } from '../domain/settlement/days.js';
import { UsageError } from './usage.js';
import { runningGatewayAdmin, type AdminCall } from './running-gateway.js';

export class SettlementUsageError extends UsageError {}

export function isSettlementCommand(command: string): boolean {
  return command === 'settlement' || command.startsWith('settlement ');
}

export type Options = Readonly<Record<string, string | boolean | undefined>>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new SettlementUsageError(`--${name} is required`);
  return value;
}

export interface SettlementCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The push target's password (standard input). */
  readSecret(): Promise<string>;
}

/** The day of `settlement run`: a real day that has ended (checked before the database is opened). */
function dayToRun(options: Options, now: Date): string {
  const day = required(options, 'date');
  if (!isSettlementDay(day)) throw new SettlementUsageError('--date must be a day as YYYY-MM-DD');
  if (!hasEnded(day, now)) throw new SettlementUsageError(`settlement day ${day} has not ended yet (it ends at ${dayBounds(day).to.toISOString()}): a day is settled once it has ended`);
  return day;
}

/** The options of a settlement command, checked before anything is opened. */
function inputOf(command: string, options: Options, now: Date): Record<string, string | undefined> {
  switch (command) {
    case 'settlement run':
      return { day: dayToRun(options, now), rewriteFiles: options['rewrite-files'] === true ? 'true' : undefined };
    case 'settlement sftp-key':
      return { merchant: required(options, 'merchant'), keyFile: required(options, 'key-file') };
    case 'settlement push-target':
      return { merchant: required(options, 'merchant'), url: required(options, 'url') };
    case 'settlement fees':
      return { merchant: required(options, 'merchant'), fixed: required(options, 'fixed'), rateBp: required(options, 'rate-bp'), currency: options['currency'] as string | undefined };
    default:
      throw new SettlementUsageError(`unknown command: ${command}`);
  }
}

/** Through a running gateway's /admin API (it holds the embedded database): the same operations, run there. */
async function runThroughGateway(call: AdminCall, command: string, input: Record<string, string | undefined>, io: SettlementCommandIo): Promise<unknown> {
  const merchant = `/admin/entities/${encodeURIComponent(input['merchant'] ?? '')}`;
  switch (command) {
    case 'settlement run':
      return call('POST', `/admin/settlement/days/${encodeURIComponent(input['day']!)}/run`, { 'rewrite-files': input['rewriteFiles'] });
    case 'settlement sftp-key':
      return call('POST', `${merchant}/sftp-keys`, { key: readFileSync(input['keyFile']!, 'utf8').trim() });
    case 'settlement push-target':
      return call('PUT', `${merchant}/settlement-push-target`, { url: input['url'], password: (await io.readSecret()).trim() });
    default:
      return call('PUT', `${merchant}/settlement-fees`, { fixed: input['fixed'], 'rate-bp': input['rateBp'], currency: input['currency'] });
  }
}

/** On the database itself, or through the gateway that holds the embedded one. */
export async function runSettlementCommand(config: Config, command: string, options: Options, io: SettlementCommandIo): Promise<unknown> {
  const input = inputOf(command, options, systemClock.now());
  const gateway = runningGatewayAdmin(config);
  if (gateway) return runThroughGateway(gateway, command, input, io);
  // Loaded only here: the connectors and database drivers are most of a command's start-up.
  return (await import('./settlement-direct.js')).runSettlementDirect(config, command, input, io);
}
