import { Readable } from 'node:stream';
import type { AcquirerSettings } from '../../config/acquirer-settings.js';
import type { AcquirerHost } from '../../../emulators/acquirer-host/server.js';
import { ISO8583_DEFAULTS } from './connector.js';

type EmulatorModule = typeof import('../../../emulators/acquirer-host/server.js');

/** The gateway's own copy of the processor test platform, and the link settings that reach it. */
export interface EmbeddedAcquirerHost {
  readonly settings: AcquirerSettings;
  readonly host: AcquirerHost;
  close(): Promise<void>;
}

/** Two connections: one process, one emulator on loopback. */
const EMBEDDED_POOL_SIZE = 2;
const DAY_MS = 86_400_000;
/** The table's slow answers must come after the gateway gave up (a timeout, then a reversal advice). */
const SLOW_BEYOND_TIMEOUT_MS = 5_000;

/**
 * Where the emulator's code is: its sources beside src/ when the gateway runs from a checkout
 * (tsx), the bundle the build writes into dist/ otherwise (scripts/build.mjs).
 */
function emulatorModuleUrl(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  return new URL(fromSources ? '../../../emulators/acquirer-host/server.ts' : '../../emulators/acquirer-host.js', import.meta.url).href;
}

export interface EmbeddedHostOptions {
  readonly clock: () => Date;
  readonly connectorTimeoutMs: number;
  /** Also serve the ledger and settlement files over HTTP on a loopback port of their own (port 0). */
  readonly queryPort?: boolean;
}

/**
 * Starts the acquirer host emulator (emulators/acquirer-host) inside this process, on a loopback
 * port of its own (port 0), on the gateway's clock, so that testMode=EXTERNAL card payments go
 * over ISO 8583 through the real connector. Its settlement file is rendered from its ledger on
 * demand. `responseTimeoutMs` must stay shorter than CONNECTOR_TIMEOUT_MS (as ACQUIRER_HOST_TIMEOUT_MS).
 */
export async function startEmbeddedAcquirerHost(options: EmbeddedHostOptions): Promise<EmbeddedAcquirerHost> {
  const { startAcquirerHost } = (await import(emulatorModuleUrl())) as EmulatorModule;
  const responseTimeoutMs = Math.min(ISO8583_DEFAULTS.responseTimeoutMs, Math.floor(options.connectorTimeoutMs / 2));
  const host = await startAcquirerHost({
    port: 0,
    host: '127.0.0.1',
    clock: options.clock,
    slowMs: responseTimeoutMs + SLOW_BEYOND_TIMEOUT_MS,
    // Its ledger starts empty at each start: the milliseconds of the day keep a gateway restarted
    // that day from reusing the RRNs (settlement's references) the previous run handed out.
    firstSequence: options.clock().getTime() % DAY_MS,
    ...(options.queryPort ? { queryPort: 0 } : {}),
  });
  const settings: AcquirerSettings = Object.freeze({
    host: '127.0.0.1',
    port: host.port,
    tls: false,
    caPem: undefined,
    responseTimeoutMs,
    poolSize: EMBEDDED_POOL_SIZE,
    settlementSource: (date: string) => Readable.from([host.settlementFile(date)]),
  });
  return { settings, host, close: () => host.close() };
}

/**
 * GATEWAY_PROCESSES > 1: the primary runs the one emulator every process reaches, so that they
 * share its ledger; the processes get it as ACQUIRER_HOST_URL (and its settlement files over the
 * query port as ACQUIRER_HOST_SETTLEMENT), as if the operator had set them.
 */
export function acquirerVariablesOf(embedded: EmbeddedAcquirerHost): Record<string, string> {
  return {
    ACQUIRER_HOST_URL: `tcp://127.0.0.1:${embedded.host.port}`,
    ACQUIRER_HOST_TIMEOUT_MS: String(embedded.settings.responseTimeoutMs),
    ...(embedded.host.queryPort !== undefined ? { ACQUIRER_HOST_SETTLEMENT: `http://127.0.0.1:${embedded.host.queryPort}/settlement/{date}` } : {}),
  };
}
