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

/** A redirect payment waits for its shopper: the provider cannot tell more until the shopper returns. */
export function isWaitingForShopper(request: StatusRequest): boolean {
  return asynchronousBrand(request.brand) !== undefined;
}
