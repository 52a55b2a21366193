import type { FastifyInstance } from 'fastify';
import { echoRequest } from '../../catalogue/index.js';
import { standaloneRisk } from '../../operations/risk/standalone-risk.js';
import { resultCode } from '../../results/catalogue.js';
import { sendWithEnvelope } from '../reply.js';
import { validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };

/**
 * POST /v1/risk: a standalone risk request (the payment parameters; paymentType may be left
 * out). Answers risk.score and the decision's code; no money moves and nothing is recorded.
 */
export function registerRiskRoutes(app: FastifyInstance): void {
  const deps = app.gateway.payments;
  app.post('/v1/risk', merchantApi, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body['paymentType'] === undefined) request.body = { ...body, paymentType: 'PA' };
    const parameters = validatedParameters('payment', request);
    const view = await standaloneRisk(deps, { entityId: request.entityId!, request: parameters, echo: echoRequest(parameters) });
    return sendWithEnvelope(request, reply, resultCode(view.result.code).httpStatus, view.body, view.result);
  });
}
