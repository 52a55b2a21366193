import type { PaymentConnectorRequest, ReferencingConnectorRequest } from '../../../src/connectors/connector.js';
import { createIso8583Connector, type Iso8583Connector, type Iso8583ConnectorOptions } from '../../../src/connectors/iso8583/connector.js';
import type { PendingAdvice } from '../../../src/connectors/iso8583/reversal-advice.js';
import type { PaymentType } from '../../../src/domain/transaction.js';
import { startAcquirerHost, type AcquirerHost, type AcquirerHostOptions } from '../../../emulators/acquirer-host/server.js';

export const CARD = { number: '4200000000000000', expiryMonth: '12', expiryYear: '2030', cvv: '123' };
let counter = 0;
export const newId = (): string => `8ac7a4a2${String(++counter).padStart(8, '0')}${Math.random().toString(16).slice(2, 10)}`;

export function payment(amountMinor: bigint, overrides: Partial<PaymentConnectorRequest> = {}): PaymentConnectorRequest {
  return {
    transactionId: newId(),
    entityId: 'e'.repeat(32),
    testMode: 'EXTERNAL',
    system: 'test',
    amountMinor,
    currency: 'EUR',
    brand: 'VISA',
    method: { kind: 'card', card: CARD },
    ...overrides,
  };
}

export function referencing(parent: { transactionId: string; paymentType: PaymentType; amountMinor: bigint; resultDetails: Readonly<Record<string, string>> }, amountMinor: bigint): ReferencingConnectorRequest {
  return {
    transactionId: newId(),
    entityId: 'e'.repeat(32),
    testMode: 'EXTERNAL',
    system: 'test',
    amountMinor,
    currency: 'EUR',
    brand: 'VISA',
    final: false,
    parent: { transactionId: parent.transactionId, paymentType: parent.paymentType, amountMinor: parent.amountMinor, currency: 'EUR', connectorReferences: parent.resultDetails },
  };
}

export interface Rig {
  readonly host: AcquirerHost;
  readonly connector: Iso8583Connector;
  readonly advices: PendingAdvice[];
  close(): Promise<void>;
}

/** An emulator and a connector to it, with advices collected in memory. */
export async function rig(hostOptions: AcquirerHostOptions = {}, connectorOptions: Partial<Iso8583ConnectorOptions> = {}): Promise<Rig> {
  const host = await startAcquirerHost({ slowMs: 6_000, ...hostOptions });
  const advices: PendingAdvice[] = [];
  const connector = createIso8583Connector({
    id: 'acquirer-host',
    profile: host.profile,
    endpoint: { host: '127.0.0.1', port: host.port, tls: false },
    successCode: '000.100.112',
    liveCapable: true,
    clock: () => new Date(),
    responseTimeoutMs: 1_500,
    poolSize: 2,
    reversalAdvices: { enqueue: async (advice) => void advices.push(advice) },
    ...connectorOptions,
  });
  return {
    host,
    connector,
    advices,
    async close() {
      connector.close();
      await host.close();
    },
  };
}
