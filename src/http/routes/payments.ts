import type { FastifyInstance } from 'fastify';
import { echoRequest } from '../../catalogue/index.js';
import { createPayment } from '../../operations/payments/create-payment.js';
import { getPayment } from '../../operations/payments/get-payment.js';
import type { PaymentView } from '../../operations/payments/payment-response.js';
import { referencePayment } from '../../operations/payments/reference-payment.js';
import { resultCode } from '../../results/catalogue.js';
import { respondIdempotently, type HandlerResponse } from '../idempotency.js';
import { sendWithEnvelope } from '../reply.js';
import { paymentIdFrom, validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };

/** Success and pending answer 200; a decline 400, as the specification's Errors section says. */
function asResponse(view: PaymentView): HandlerResponse {
  return { status: resultCode(view.result.code).httpStatus, body: view.body, result: view.result, storedJson: view.storedJson };
}

/** POST /v1/payments (PA, DB, CD), POST /v1/payments/{id} (CP, RF, RV), GET /v1/payments/{id}. */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const deps = app.gateway.payments;

  app.post('/v1/payments', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, async () => {
      const parameters = validatedParameters('payment', request);
      const view = await createPayment(deps, { entityId: request.entityId!, request: parameters, echo: echoRequest(parameters) });
      return asResponse(view);
    }),
  );

  app.post<{ Params: { id: string } }>('/v1/payments/:id', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, async () => {
      const parentId = paymentIdFrom(request.params.id);
      const parameters = validatedParameters('referencing', request);
      const view = await referencePayment(deps, { entityId: request.entityId!, parentId, request: parameters, echo: echoRequest(parameters) });
      return asResponse(view);
    }),
  );

  app.get<{ Params: { id: string } }>('/v1/payments/:id', merchantApi, async (request, reply) => {
    const view = await getPayment(deps, request.entityId!, paymentIdFrom(request.params.id));
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
}
