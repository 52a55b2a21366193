import { asynchronousBrand } from '../../domain/payment-brands.js';
import type { CompletionRequest, ConnectorOutcome, PaymentConnectorRequest, StatusRequest } from '../connector.js';
import type { SimulatorFlavour } from './tables.js';

/**
 * The simulated providers of asynchronous methods (PayPal, Sofort, iDEAL …): the first answer
 * sends the shopper to a page the gateway serves (test system only), where the shopper picks
 * the outcome; the gateway's return endpoint then asks `complete` with that choice. The
 * simulator keeps no ledger: the choice the shopper brings back is the provider's decision.
 */

/** Where the gateway serves the simulated provider page of a redirect. */
export const PROVIDER_PAGE_PATH = '/v1/simulator/provider';

export function providerPageUrl(gatewayBaseUrl: string, reference: string): string {
  return `${gatewayBaseUrl}${PROVIDER_PAGE_PATH}/${reference}`;
}

/** The shopper's choices on the provider page, and what each makes of the payment. */
export const PROVIDER_CHOICES = [
  { outcome: 'approve', kind: 'success', code: 'SUCCESS', acquirerResponse: '00', meaning: 'the shopper pays' },
  { outcome: 'decline', kind: 'declined', code: '800.100.152', acquirerResponse: '05', meaning: 'the provider declines (e.g. no funds)' },
  { outcome: 'cancel', kind: 'declined', code: '100.396.101', acquirerResponse: '17', meaning: 'the shopper cancels' },
] as const;

export type ProviderChoice = (typeof PROVIDER_CHOICES)[number]['outcome'];

/** The pending first answer with its redirect; declined when the request gives no way back for the shopper. */
export function providerRedirect(request: PaymentConnectorRequest, flavour: SimulatorFlavour, generatedId: string): ConnectorOutcome {
  const reference = `${flavour.referencePrefix}-${generatedId}`;
  const entry = asynchronousBrand(request.brand);
  if (!request.shopperReturn || !entry) {
    return { kind: 'declined', code: '100.370.101', resultDetails: { ConnectorTxID1: reference, ExtendedDescription: 'No shopperResultUrl to send the shopper back to' } };
  }
  return {
    kind: 'pending',
    code: '000.200.000',
    resultDetails: { ConnectorTxID1: reference, clearingInstituteName: flavour.clearingInstituteName, ExtendedDescription: `Waiting for the shopper at ${entry.name}` },
    redirect: {
      url: providerPageUrl(request.shopperReturn.gatewayBaseUrl, request.shopperReturn.reference),
      method: entry.redirectMethod,
      // What a real provider's page would be given: its own reference and the brand.
      parameters: [
        { name: 'reference', value: reference },
        { name: 'brand', value: entry.brand },
      ],
    },
  };
}

/** The shopper came back: the choice decides; anything else leaves the payment pending. */
export function providerCompletion(request: CompletionRequest, flavour: SimulatorFlavour): ConnectorOutcome {
  const choice = PROVIDER_CHOICES.find((c) => c.outcome === request.returned['outcome']);
  const reference = request.connectorReferences['ConnectorTxID1'] ?? '';
  if (!choice) return { kind: 'pending', code: '000.200.000', resultDetails: { ConnectorTxID1: reference } };
  return {
    kind: choice.kind,
    code: choice.code === 'SUCCESS' ? flavour.successCode : choice.code,
    resultDetails: {
      ConnectorTxID1: reference,
      AcquirerResponse: choice.acquirerResponse,
      clearingInstituteName: flavour.clearingInstituteName,
      ExtendedDescription: `Simulated provider: ${choice.meaning}`,
    },
  };
}

/** A payment of an asynchronous brand: the simulated provider, not the card table, answers for it later. */
export function isProviderPayment(request: StatusRequest): boolean {
  return asynchronousBrand(request.brand) !== undefined;
}

/**
 * What the simulated provider knows of a payment whose shopper left its page without coming back
 * to the gateway, when the gateway asks (its status, after the redirect expired) or tells it to
 * give up (its cancel, before a new widget attempt). The simulator keeps no ledger, so the amount
 * decides, as it does for the first answers: 9.99 stands for a shopper who paid at the provider
 * and closed the window, 9.97 for a provider that cannot tell yet.
 */
export interface ProviderLaterRow {
  readonly amountMinor: bigint | null;
  readonly kind: 'success' | 'declined' | 'pending';
  /** A catalogue code, or SUCCESS for the flavour's success code. */
  readonly statusCode: string;
  readonly cancelCode: string;
  readonly meaning: string;
}

export const PROVIDER_LATER_ROWS: readonly ProviderLaterRow[] = [
  { amountMinor: 999n, kind: 'success', statusCode: 'SUCCESS', cancelCode: 'SUCCESS', meaning: 'the shopper paid at the provider and never came back: the status says paid, and a cancel comes too late' },
  { amountMinor: 997n, kind: 'pending', statusCode: '000.200.000', cancelCode: '000.200.000', meaning: 'the provider cannot tell yet and cannot cancel: the payment stays pending (the status checks ask until their horizon)' },
  { amountMinor: null, kind: 'declined', statusCode: '100.396.104', cancelCode: '100.396.101', meaning: 'the shopper never paid: the provider ends the payment' },
];

const LATER_ACQUIRER_RESPONSES = { success: '00', declined: '17', pending: '91' } as const;

/** The provider's answer to a status query (`cancel` false) or a cancel (`cancel` true) of a payment its shopper left. */
export function providerLaterAnswer(request: StatusRequest, flavour: SimulatorFlavour, cancel: boolean): ConnectorOutcome {
  const row = PROVIDER_LATER_ROWS.find((r) => r.amountMinor === request.amountMinor) ?? PROVIDER_LATER_ROWS[PROVIDER_LATER_ROWS.length - 1]!;
  const code = cancel ? row.cancelCode : row.statusCode;
  return {
    kind: row.kind,
    code: code === 'SUCCESS' ? flavour.successCode : code,
    resultDetails: {
      ...request.connectorReferences,
      AcquirerResponse: LATER_ACQUIRER_RESPONSES[row.kind],
      clearingInstituteName: flavour.clearingInstituteName,
      ExtendedDescription: `Simulated provider, ${cancel ? 'cancel' : 'status query'}: ${row.meaning}`,
    },
  };
}
