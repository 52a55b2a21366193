import type { FastifyInstance, FastifyRequest } from 'fastify';
import { echoRequest } from '../../catalogue/index.js';
import { createPayment } from '../../operations/payments/create-payment.js';
import { findPaymentByIdempotencyClaim, getPayment } from '../../operations/payments/get-payment.js';
import type { PaymentDeps } from '../../operations/deps.js';
import { isUniqueViolation } from '../../storage/errors.js';
import { IDEMPOTENCY_CLAIM_INDEX } from '../../storage/repositories/transactions.js';
import type { PaymentView } from '../../operations/payments/payment-response.js';
import { referencePayment } from '../../operations/payments/reference-payment.js';
import { observeRefusal, type RefusedRequest } from '../../operations/payments/observe-payment.js';
import { resultCode } from '../../results/catalogue.js';
import { respondIdempotently, type HandlerResponse, type IdempotentHandler } from '../idempotency.js';
import { merchantPaymentView } from '../merchant-view.js';
import { sendWithEnvelope } from '../reply.js';
import { loggableId, noteTransaction } from '../request-log-facts.js';
import { paymentIdFrom, validatedParameters } from '../validate-request.js';
import { shopperContext } from '../shopper-context.js';

const merchantApi = { config: { auth: 'entity' as const } };

/** Success and pending answer 200; a decline 400, as the specification's Errors section says. */
function asResponse(view: PaymentView): HandlerResponse {
  return { status: resultCode(view.result.code).httpStatus, body: view.body, result: view.result, storedJson: view.storedJson };
}

/**
 * A payment handler under an Idempotency-Key: the transaction it writes carries the key's claim,
 * so a retry that takes over the key of a dead request answers that request's payment. A request
 * refused before its payment had an answer (validation in `run` included) is counted here; the
 * operation counts the answers it returns (observe-payment.ts), and a taken-over key's answer was
 * counted by the request that made it.
 */
export function idempotentPayment(deps: PaymentDeps, request: FastifyRequest, run: (claimId: string | undefined) => Promise<PaymentView>): IdempotentHandler {
  const entityId = request.entityId!;
  const isClaimConflict = (error: unknown) => isUniqueViolation(error, IDEMPOTENCY_CLAIM_INDEX);
  return {
    run: async (claimId) => {
      try {
        return asResponse(await merchantPaymentView(request, await run(claimId)));
      } catch (error) {
        if (!isClaimConflict(error)) observeRefusal(deps.observe, refusedRequestOf(request), error);
        throw error;
      }
    },
    recover: async (claimId) => {
      const view = await findPaymentByIdempotencyClaim(deps, entityId, claimId);
      return view && asResponse(await merchantPaymentView(request, view));
    },
    isClaimConflict,
    answersWithPayment: true,
  };
}

/** What a refused payment request said of itself, for its labels. */
export function refusedRequestOf(request: FastifyRequest): RefusedRequest {
  const body = request.body as Record<string, unknown> | undefined;
  return { entityId: request.entityId, paymentType: body?.['paymentType'], paymentBrand: body?.['paymentBrand'] };
}

/** POST /v1/payments (PA, DB, CD), POST /v1/payments/{id} (CP, RF, RV), GET /v1/payments/{id}. */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const deps = app.gateway.payments;

  app.post('/v1/payments', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, idempotentPayment(deps, request, (idempotencyClaimId) => {
      const parameters = validatedParameters('payment', request);
      return createPayment(deps, { entityId: request.entityId!, request: parameters, echo: echoRequest(parameters), idempotencyClaimId, ...shopperContext(request) });
    })),
  );

  app.post<{ Params: { id: string } }>('/v1/payments/:id', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, idempotentPayment(deps, request, (idempotencyClaimId) => {
      const parentId = paymentIdFrom(request.params.id);
      // A refusal names the parent too (an RF over the refundable amount), not only an approval.
      noteTransaction(request, { referencedId: loggableId(parentId) });
      const parameters = validatedParameters('referencing', request);
      return referencePayment(deps, { entityId: request.entityId!, parentId, request: parameters, echo: echoRequest(parameters), idempotencyClaimId });
    })),
  );

  app.get<{ Params: { id: string } }>('/v1/payments/:id', merchantApi, async (request, reply) => {
    const id = paymentIdFrom(request.params.id);
    noteTransaction(request, { id: loggableId(id) });
    const view = await merchantPaymentView(request, await getPayment(deps, request.entityId!, id));
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
}
