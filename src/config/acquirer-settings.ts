import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { readInteger, readOptional, readUrl, type Env } from './env-readers.js';

/**
 * The ISO 8583 acquirer host (the emulator of emulators/acquirer-host, or a real acquirer's test
 * or live host): where it is, how long it may take, where its settlement files are. Unset URL on
 * the test system: the gateway embeds the emulator on a loopback port of its own (app.ts, or the
 * cluster's primary in main.ts), or, where it cannot (a separate worker), refuses
 * testMode=EXTERNAL card payments.
 */
export interface AcquirerSettings {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly caPem: string | undefined;
  readonly responseTimeoutMs: number;
  readonly poolSize: number;
  /**
   * Path or URL of the daily settlement file; `{date}` stands for YYYY-MM-DD. The embedded
   * emulator (connectors/iso8583/embedded-host.ts) gives an opener of its rendered file instead.
   */
  readonly settlementSource: string | ((date: string) => Readable | Promise<Readable>) | undefined;
}

export const ACQUIRER_VARIABLES = [
  ['ACQUIRER_HOST_URL', '(unset)', 'tcp://host:port or tls://host:port of the ISO 8583 acquirer host (`npm run acquirer-host` listens on tcp://127.0.0.1:8583). Set: testMode=EXTERNAL card payments go there, and routes may name the connector `acquirer-host`. Unset on the test system: the gateway runs the emulator itself on a loopback port (in its process, or with GATEWAY_PROCESSES > 1 in the primary) and EXTERNAL card payments go to it over ISO 8583; with WORKERS_IN_GATEWAY=false they are refused with 600.200.700.'],
  ['ACQUIRER_HOST_CA_FILE', '(unset)', 'PEM of the CA that signed the host\'s TLS certificate (with tls://); unset trusts the system\'s CAs.'],
  ['ACQUIRER_HOST_TIMEOUT_MS', '10000', 'An ISO 8583 request without answer after this long is pending and reversed by advice. Must be shorter than CONNECTOR_TIMEOUT_MS.'],
  ['ACQUIRER_HOST_POOL_SIZE', '4', 'Connections kept open to the acquirer host.'],
  ['ACQUIRER_HOST_SETTLEMENT', '(unset)', 'Path or http(s) URL of the host\'s daily settlement file, `{date}` for the day (e.g. http://127.0.0.1:8584/settlement/{date}); unset: no settlement feed.'],
] as const;

export function collectAcquirerSettings(env: Env, problems: string[]): AcquirerSettings | undefined {
  const url = readUrl(env, 'ACQUIRER_HOST_URL', ['tcp:', 'tls:'], problems);
  const responseTimeoutMs = readInteger(env, 'ACQUIRER_HOST_TIMEOUT_MS', 10_000, 100, 600_000, problems);
  const poolSize = readInteger(env, 'ACQUIRER_HOST_POOL_SIZE', 4, 1, 64, problems);
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!parsed.hostname || !parsed.port) problems.push('ACQUIRER_HOST_URL must name a host and a port');
  const caFile = readOptional(env, 'ACQUIRER_HOST_CA_FILE');
  let caPem: string | undefined;
  try {
    caPem = caFile === undefined ? undefined : readFileSync(caFile, 'utf8');
  } catch {
    problems.push(`ACQUIRER_HOST_CA_FILE=${JSON.stringify(caFile)} cannot be read`);
  }
  return Object.freeze({
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port),
    tls: parsed.protocol === 'tls:',
    caPem,
    responseTimeoutMs,
    poolSize,
    settlementSource: readOptional(env, 'ACQUIRER_HOST_SETTLEMENT'),
  });
}
