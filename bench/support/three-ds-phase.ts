/**
 * The 3-D Secure rows of `npm run bench` (and `npm run bench:three-ds` alone): authenticated DB
 * payments, frictionless, through the gateway's own EMV 3DS server connector to the directory and
 * ACS emulator (emulators/three-ds-host, in the bench's process; THREE_DS_SERVER_DS_URL), beside
 * the same payments authenticated by the in-process simulation. Each payment is one AReq/ARes over
 * HTTP before the acquirer is asked; the emulator answers Y with its eci and authenticationValue.
 */
import { startThreeDsHost } from '../../emulators/three-ds-host/server.js';
import { CARD_RANGES, exampleCard } from '../../emulators/three-ds-host/table.js';
import { formRequest, runPhase, type PhaseResult } from '../load.js';
import { startGatewayProcess } from './gateway.js';
import { CARD_PAYMENT, type Merchant } from './gateway-phases.js';
import { BROWSER } from '../../test/support/three-d-secure.js';

export interface ThreeDsPhaseSettings {
  readonly schemaUrl: string;
  readonly merchant: Merchant;
  readonly connections: number;
  readonly poolSize: number;
  readonly durationSeconds: number;
}


/** The simulator's frictionless Y card (docs/simulator.md) and the emulator's (its card table). */
const SIMULATED_FRICTIONLESS = '4200000000000091';
const EMULATED_FRICTIONLESS = exampleCard(CARD_RANGES.find((row) => row.outcome === 'frictionless' && row.transStatus === 'Y')!);

function authenticatedPayment(merchant: Merchant, pan: string, index: number): Record<string, string> {
  return { entityId: merchant.entityId, paymentType: 'DB', ...CARD_PAYMENT, ...BROWSER, shopperResultUrl: 'https://shop.example.com/result', 'card.number': pan, merchantTransactionId: `bench-3ds-${index}` };
}

/**
 * One payment first, its answer read: a run of payments that went on without authentication (a
 * connector answering 'unavailable', which an if-enrolled entity lets through) would measure the
 * wrong thing.
 */
async function assertAuthenticated(url: string, merchant: Merchant, pan: string): Promise<void> {
  const response = await fetch(`${url}/v1/payments`, { method: 'POST', headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(authenticatedPayment(merchant, pan, -1)).toString() });
  const body = await response.json() as { result?: { code?: string }; threeDSecure?: { eci?: string } };
  if (!response.ok || body.threeDSecure?.eci === undefined) throw new Error(`3-D Secure bench: the payment was not authenticated (${response.status} ${JSON.stringify(body.result)})`);
}

export async function threeDsPhases(settings: ThreeDsPhaseSettings): Promise<PhaseResult[]> {
  const phase = (url: string, pid: number) => ({ url, connections: settings.connections, durationSeconds: settings.durationSeconds, pid });
  const simulated = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize });
  let simulation: PhaseResult;
  try {
    await assertAuthenticated(simulated.url, settings.merchant, SIMULATED_FRICTIONLESS);
    simulation = await runPhase({
      name: 'POST /v1/payments DB, 3-D Secure frictionless, in-process simulation',
      ...phase(simulated.url, simulated.child.pid!),
      request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, authenticatedPayment(settings.merchant, SIMULATED_FRICTIONLESS, i)),
    });
  } finally {
    await simulated.stop('SIGTERM');
  }
  const host = await startThreeDsHost({ port: 0 });
  try {
    const gateway = await startGatewayProcess({ databaseUrl: settings.schemaUrl, poolSize: settings.poolSize, env: { THREE_DS_SERVER_DS_URL: `${host.url}/ds/areq` } });
    try {
      await assertAuthenticated(gateway.url, settings.merchant, EMULATED_FRICTIONLESS);
      const emulated = await runPhase({
        name: 'POST /v1/payments DB, 3-D Secure frictionless, EMV 3DS AReq/ARes to the emulator',
        ...phase(gateway.url, gateway.child.pid!),
        request: (i) => formRequest('/v1/payments', settings.merchant.accessToken, authenticatedPayment(settings.merchant, EMULATED_FRICTIONLESS, i)),
      });
      return [simulation, emulated];
    } finally {
      await gateway.stop('SIGTERM');
    }
  } finally {
    await host.close();
  }
}
