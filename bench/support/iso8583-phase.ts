/**
 * The ISO 8583 rows of `npm run bench` (and `npm run bench:iso8583` alone): DB payments through
 * the gateway to the acquirer host emulator (testMode=EXTERNAL) beside the same payments on the
 * simulator, and the connector alone with its pool's messages in flight. The emulator runs in
 * the bench's process, the gateway in its own, on this machine.
 */
import { performance } from 'node:perf_hooks';
import { startAcquirerHost } from '../../emulators/acquirer-host/server.js';
import { createIso8583Connector } from '../../src/connectors/iso8583/connector.js';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { startGatewayProcess } from './gateway.js';
import { cardPaymentBody, type Merchant } from './gateway-phases.js';

export interface Iso8583PhaseSettings {
  readonly schemaUrl: string;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  readonly durationSeconds: number;
  /** Connections of the gateway's pool to the host (ACQUIRER_HOST_POOL_SIZE). */
  readonly linkPoolSize: number;
}

/** A phase result with what the connector's pool carried: requests sent and not yet answered. */
export type Iso8583PhaseResult = PhaseResult & { readonly messagesInFlight?: { readonly mean: number; readonly max: number } };

export async function iso8583Phases(settings: Iso8583PhaseSettings): Promise<Iso8583PhaseResult[]> {
  const host = await startAcquirerHost();
  try {
    const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: { ACQUIRER_HOST_URL: `tcp://127.0.0.1:${host.port}`, ACQUIRER_HOST_POOL_SIZE: String(settings.linkPoolSize) } });
    try {
      const phase = { url: gateway.url, connections: settings.connections, durationSeconds: settings.durationSeconds, pid: gateway.child.pid! };
      const simulator = await runPhase({ name: 'POST /v1/payments DB, simulator (no testMode)', ...phase, request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, cardPaymentBody(settings.merchant, 'DB', i)) });
      const external = await runPhase({
        name: `POST /v1/payments DB, testMode=EXTERNAL over ISO 8583 to the emulator (pool ${settings.linkPoolSize})`,
        ...phase,
        request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, { ...cardPaymentBody(settings.merchant, 'DB', i), merchantTransactionId: `bench-iso-${i}`, testMode: 'EXTERNAL' }),
      });
      return [simulator, external, await connectorAlone(host.port, settings)];
    } finally {
      await gateway.stop('SIGTERM');
    }
  } finally {
    await host.close();
  }
}

/** The connector without HTTP or database: `connections` callers in a loop, the pool sampled every 5 ms. */
async function connectorAlone(port: number, settings: Iso8583PhaseSettings): Promise<Iso8583PhaseResult> {
  const connector = createIso8583Connector({ id: 'bench', profile: (await import('../../src/connectors/iso8583/profile.js')).EMULATOR_PROFILE, endpoint: { host: '127.0.0.1', port, tls: false }, successCode: '000.100.112', liveCapable: false, clock: () => new Date(), poolSize: settings.linkPoolSize });
  const latencies: number[] = [];
  const samples: number[] = [];
  let failures = 0;
  const endAt = performance.now() + settings.durationSeconds * 1000;
  const sampler = setInterval(() => samples.push(connector.pool.messagesInFlight), 5);
  let n = 0;
  const caller = async (): Promise<void> => {
    while (performance.now() < endAt) {
      const started = performance.now();
      const outcome = await connector.debit({ transactionId: `bench-${(n += 1)}`, entityId: 'bench', testMode: 'EXTERNAL', system: 'test', amountMinor: 9200n, currency: 'EUR', brand: 'VISA', method: { kind: 'card', card: { number: '4200000000000000', expiryMonth: '05', expiryYear: '2034', cvv: '123' } } });
      latencies.push(performance.now() - started);
      if (outcome.kind !== 'success') failures += 1;
    }
  };
  const began = performance.now();
  await Promise.all(Array.from({ length: settings.connections }, caller));
  const seconds = (performance.now() - began) / 1000;
  clearInterval(sampler);
  connector.close();
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
  const mean = samples.length > 0 ? samples.reduce((a, b) => a + b, 0) / samples.length : 0;
  return {
    name: `ISO 8583 connector alone (${settings.connections} callers, pool ${settings.linkPoolSize})`,
    connections: settings.connections,
    durationSeconds: Math.round(seconds),
    requests: latencies.length,
    requestsPerSecond: latencies.length / seconds,
    latencyMs: { p50: at(0.5), p99: at(0.99), p99_9: at(0.999), max: at(1) },
    errors: failures,
    timeouts: 0,
    non2xx: 0,
    statusCodes: {},
    messagesInFlight: { mean: Math.round(mean * 10) / 10, max: Math.max(0, ...samples) },
  };
}

export function describeInFlight(result: Iso8583PhaseResult): string {
  return result.messagesInFlight ? `  pool messages in flight: mean ${result.messagesInFlight.mean}, max ${result.messagesInFlight.max}` : '';
}
