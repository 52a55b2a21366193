import type { FastifyInstance } from 'fastify';
import { echoRequest } from '../../catalogue/index.js';
import { createStandaloneAuthentication, getStandaloneAuthentication } from '../../operations/three-d-secure/standalone-authentication.js';
import { resultCode } from '../../results/catalogue.js';
import { sendWithEnvelope } from '../reply.js';
import { shopperContext } from '../shopper-context.js';
import { paymentIdFrom, validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };

/**
 * POST /v1/threeDSecure (authentication only, the payment parameters; paymentType may be left
 * out) and GET /v1/threeDSecure/{id}. No money moves; a later payment passes the result on.
 */
export function registerThreeDSecureRoutes(app: FastifyInstance): void {
  const deps = app.gateway.payments;
  app.post('/v1/threeDSecure', merchantApi, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    // The payment catalogue checks the request; an authentication has no payment type of its own.
    if (body['paymentType'] === undefined) request.body = { ...body, paymentType: 'PA' };
    const parameters = validatedParameters('payment', request);
    const context = shopperContext(request);
    const view = await createStandaloneAuthentication(deps, { entityId: request.entityId!, request: parameters, echo: echoRequest(parameters), gatewayBaseUrl: context.gatewayBaseUrl, locale: context.locale });
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
  app.get<{ Params: { id: string } }>('/v1/threeDSecure/:id', merchantApi, async (request, reply) => {
    const view = await getStandaloneAuthentication(deps, request.entityId!, paymentIdFrom(request.params.id));
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
}
