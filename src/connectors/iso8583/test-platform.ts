import type { Connector, PaymentConnectorRequest, ReferencingConnectorRequest, StatusRequest } from '../connector.js';
import { cardBrand } from '../../domain/card.js';

/**
 * testMode=EXTERNAL on the test system: the processor's test platform. Card payments go over
 * ISO 8583 to the acquirer host; what an ISO 8583 acquirer does not carry (bank accounts,
 * asynchronous methods with provider pages, wallets, virtual accounts) stays with the
 * built-in stub. Follow-ups go where their parent went: the stub's references start with its
 * prefix. The id stays the stub's, so transactions stored before keep their connector.
 * Settlement: the stub's feed settles what the stub answered (createDefaultConnectors hands it
 * only the transactions with its references), the acquirer host's file the card payments.
 */
export function createTestPlatformConnector(options: { readonly iso: Connector; readonly stub: Connector; readonly stubReferencePrefix: string }): Connector {
  const { iso, stub, stubReferencePrefix } = options;
  const isStubs = (references: Readonly<Record<string, string>>): boolean => (references['ConnectorTxID1'] ?? '').startsWith(stubReferencePrefix);
  const forPayment = (request: PaymentConnectorRequest): Connector => (request.method.kind === 'card' ? iso : stub);
  const forReference = (request: ReferencingConnectorRequest): Connector => (isStubs(request.parent.connectorReferences) ? stub : iso);
  // A pending card payment has no references (its answer never came) and a card brand.
  const forStatus = (request: StatusRequest): Connector => (isStubs(request.connectorReferences) || (request.parent && isStubs(request.parent.connectorReferences)) || !isCardBrand(request.brand) ? stub : iso);
  return {
    id: stub.id,
    policy: iso.policy,
    liveCapable: false,
    authorize: (request) => forPayment(request).authorize(request),
    debit: (request) => forPayment(request).debit(request),
    credit: (request) => forPayment(request).credit(request),
    capture: (request) => forReference(request).capture(request),
    refund: (request) => forReference(request).refund(request),
    reverse: (request) => forReference(request).reverse(request),
    status: (request) => {
      const connector = forStatus(request);
      return connector.status ? connector.status(request) : Promise.resolve({ kind: 'unknown', code: '900.100.300', resultDetails: {} });
    },
    ...(stub.complete ? { complete: stub.complete.bind(stub) } : {}),
    // Two feeds, each read once: what the stub answered is in the stub's own feed (the caller gives
    // it only the stub's transactions); the card payments are in the acquirer host's file.
    ...(stub.settlement ? { settlement: stub.settlement.bind(stub) } : {}),
    ...(iso.settlement ? { settledInFeedOf: iso.id } : {}),
  };
}

function isCardBrand(brand: string): boolean {
  return cardBrand(brand) !== undefined;
}
