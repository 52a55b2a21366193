import type { PaymentConnectorRequest, ReferencingConnectorRequest, SchemeReferenceStore, TestMode } from '../../../src/connectors/connector.js';
import type { SimulatorExample } from '../../../src/connectors/simulator/row.js';
import { sampleCard } from '../../../src/connectors/simulator/row.js';
import { decryptWalletToken } from '../../../src/connectors/simulator/wallet-token.js';
import { createExternalTestPlatformConnector, createSimulatorConnector } from '../../../src/connectors/simulator/simulator.js';
import type { InitialPaymentType, PaymentType, ReferencingPaymentType } from '../../../src/domain/transaction.js';

export const NOW = new Date('2026-11-22T10:00:00Z');
export const ENTITY = '8a8294174b7ecb28014b9699220015ca';
export const DEFAULT_AMOUNT_MINOR = 9_200n;

/** 32-hex ids 000…1, 000…2, … */
export function sequentialIds(): () => string {
  let next = 0;
  return () => (++next).toString(16).padStart(32, '0');
}

export const fixedClock = { now: () => NOW };

export function simulator(schemeReferences?: SchemeReferenceStore) {
  return createSimulatorConnector({ clock: fixedClock, newId: sequentialIds(), ...(schemeReferences ? { schemeReferences } : {}) });
}

export function externalTestPlatform() {
  return createExternalTestPlatformConnector({ clock: fixedClock, newId: sequentialIds() });
}

export interface RequestMode {
  readonly system: 'test' | 'live';
  readonly testMode: TestMode | null;
}

export const INTERNAL_TEST: RequestMode = { system: 'test', testMode: null };

export function isInitial(operation: PaymentType): operation is InitialPaymentType {
  return operation === 'PA' || operation === 'DB' || operation === 'CD';
}

export function paymentRequestFor(example: SimulatorExample, mode: RequestMode = INTERNAL_TEST): PaymentConnectorRequest {
  return {
    transactionId: 'f'.repeat(32),
    entityId: ENTITY,
    ...mode,
    amountMinor: example.amountMinor ?? DEFAULT_AMOUNT_MINOR,
    currency: 'EUR',
    brand: 'VISA',
    method: example.method ?? sampleCard('4200000000000000'),
    ...(example.postcode ? { billing: { street1: 'Main Street 1', postcode: example.postcode, city: 'Berlin', country: 'DE' } } : {}),
    ...(example.standingInstruction ? { standingInstruction: example.standingInstruction } : {}),
  };
}

const PARENT_TYPE: Record<ReferencingPaymentType, PaymentType> = { CP: 'PA', RF: 'DB', RV: 'PA' };

/** `referencePrefix` is the connector's own: the parent looks processed by it unless the example says otherwise. */
export function referencingRequestFor(
  operation: ReferencingPaymentType,
  example: SimulatorExample,
  referencePrefix: string,
  mode: RequestMode = INTERNAL_TEST,
): ReferencingConnectorRequest {
  const amountMinor = example.amountMinor ?? DEFAULT_AMOUNT_MINOR;
  return {
    transactionId: 'e'.repeat(32),
    entityId: ENTITY,
    ...mode,
    amountMinor,
    currency: 'EUR',
    brand: 'VISA',
    final: false,
    parent: {
      transactionId: 'd'.repeat(32),
      paymentType: PARENT_TYPE[operation],
      amountMinor: operation === 'RV' ? amountMinor : DEFAULT_AMOUNT_MINOR,
      currency: 'EUR',
      connectorReferences: { ConnectorTxID1: example.foreignParent ? 'OTHERACQ-77' : `${referencePrefix}-${'0'.repeat(31)}9` },
    },
  };
}

/** The card number and CVV an example carries, to prove neither leaks into an outcome. */
export function secretsOf(example: SimulatorExample): string[] {
  const method = example.method;
  if (!method) return ['4200000000000000'];
  if (method.kind === 'card' || method.kind === 'walletDecrypted') return [method.card.number, ...(method.card.cvv ? [method.card.cvv] : [])];
  if (method.kind === 'tokenAccount') return [method.token.number];
  if (method.kind === 'walletToken') {
    const decrypted = decryptWalletToken(method.wallet, method.paymentToken);
    return decrypted.ok ? [decrypted.card.number] : [];
  }
  return [];
}

/** JSON with bigint as string, for leak checks. */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) => (typeof entry === 'bigint' ? entry.toString() : entry));
}
