import type { FastifyRequest } from 'fastify';
import { paymentForMerchant } from '../domain/responses/connector-details.js';
import type { PaymentView } from '../operations/payments/payment-response.js';

/**
 * Where a payment is rendered for its merchant (POST and GET answers, the query API), the
 * entity's setting decides whether resultDetails show the connector's details; the stored
 * response keeps them (domain/responses/connector-details.ts). Webhooks apply the same rule when
 * their body is built (operations/webhooks/notification-message.ts).
 */
export async function showsConnectorDetails(request: FastifyRequest, entityId = request.entityId): Promise<boolean> {
  if (entityId === undefined) return true;
  return request.server.gateway.principals.connectorDetailsShownFor(entityId);
}

/** The view as the entity is shown it; a filtered view drops its pre-serialised form (storedJson). */
export async function merchantPaymentView(request: FastifyRequest, view: PaymentView, entityId = request.entityId): Promise<PaymentView> {
  if (await showsConnectorDetails(request, entityId)) return view;
  const body = paymentForMerchant(view.body, false);
  return body === view.body ? view : { body, result: view.result };
}

/** A list of stored payment objects (the query API) as the entity is shown them. */
export async function merchantPayments(request: FastifyRequest, payments: readonly Readonly<Record<string, unknown>>[]): Promise<readonly Readonly<Record<string, unknown>>[]> {
  if (await showsConnectorDetails(request)) return payments;
  return payments.map((payment) => paymentForMerchant(payment, false));
}
