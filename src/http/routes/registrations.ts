import type { FastifyInstance, FastifyRequest } from 'fastify';
import { echoRequest } from '../../catalogue/index.js';
import type { PaymentView } from '../../operations/payments/payment-response.js';
import { createRegistration } from '../../operations/registrations/create-registration.js';
import { deleteRegistration } from '../../operations/registrations/delete-registration.js';
import { getRegistration } from '../../operations/registrations/get-registration.js';
import { payWithRegistration } from '../../operations/registrations/pay-with-registration.js';
import { shopperContext } from '../shopper-context.js';
import type { RegistrationView } from '../../operations/registrations/registration-record.js';
import { resultCode } from '../../results/catalogue.js';
import { GatewayError } from '../../results/gateway-error.js';
import { respondIdempotently, type HandlerResponse } from '../idempotency.js';
import { idempotentPayment } from './payments.js';
import { sendWithEnvelope } from '../reply.js';
import { validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };
const REGISTRATION_ID = /^[a-zA-Z0-9]{32}$/;

/** A registration id from the path: 32 alphanumerics, else 100.150.101. */
export function registrationIdFrom(value: string): string {
  if (!REGISTRATION_ID.test(value)) throw new GatewayError('100.150.101');
  return value;
}

/** Success and pending answer 200, anything else 400, as for payments. */
function asResponse(view: PaymentView | RegistrationView): HandlerResponse {
  return { status: resultCode(view.result.code).httpStatus, body: view.body, result: view.result };
}

function testModeOf(request: FastifyRequest): 'INTERNAL' | 'EXTERNAL' | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.['testMode'];
  return value === 'INTERNAL' || value === 'EXTERNAL' ? value : undefined;
}

/**
 * POST /v1/registrations, GET and DELETE /v1/registrations/{id}, POST /v1/registrations/{id}/payments.
 */
export function registerRegistrationRoutes(app: FastifyInstance): void {
  const deps = app.gateway.payments;

  app.post('/v1/registrations', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, {
      run: async () => {
        const parameters = validatedParameters('registration', request);
        return asResponse(await createRegistration(deps, { entityId: request.entityId!, request: parameters, echo: echoRequest(parameters) }));
      },
    }),
  );

  app.get<{ Params: { id: string } }>('/v1/registrations/:id', merchantApi, async (request, reply) => {
    const view = await getRegistration(deps, request.entityId!, registrationIdFrom(request.params.id));
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });

  app.delete<{ Params: { id: string } }>('/v1/registrations/:id', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, {
      run: async () => {
        const id = registrationIdFrom(request.params.id);
        return asResponse(await deleteRegistration(deps, { entityId: request.entityId!, id, testMode: testModeOf(request) }));
      },
    }),
  );

  app.post<{ Params: { id: string } }>('/v1/registrations/:id/payments', merchantApi, (request, reply) =>
    respondIdempotently(request, reply, idempotentPayment(deps, request, (idempotencyClaimId) => {
      const registrationId = registrationIdFrom(request.params.id);
      const parameters = validatedParameters('registrationPayment', request);
      return payWithRegistration(deps, { entityId: request.entityId!, registrationId, request: parameters, echo: echoRequest(parameters), idempotencyClaimId, ...shopperContext(request) });
    })),
  );
}
