import type { FastifyInstance } from 'fastify';
import { queryTransaction, queryTransactions } from '../../operations/query/query-transactions.js';
import { merchantPayments } from '../merchant-view.js';
import { sendWithEnvelope } from '../reply.js';
import { loggableId, noteTransaction } from '../request-log-facts.js';
import { paymentIdFrom, validatedParameters } from '../validate-request.js';

const merchantApi = { config: { auth: 'entity' as const } };

/** GET /v1/query and GET /v1/query/{id}: `{"result": 000.000.100, "payments": [ … ]}`. */
export function registerQueryRoutes(app: FastifyInstance): void {
  const { reads } = app.gateway;
  app.get('/v1/query', merchantApi, async (request, reply) => {
    const parameters = validatedParameters('query', request);
    const payments = await merchantPayments(request, await queryTransactions({ reads }, request.entityId!, parameters));
    return sendWithEnvelope(request, reply, 200, { payments }, '000.000.100');
  });
  app.get<{ Params: { id: string } }>('/v1/query/:id', merchantApi, async (request, reply) => {
    const parameters = validatedParameters('query', request);
    const id = paymentIdFrom(request.params.id);
    noteTransaction(request, { id: loggableId(id) });
    const payments = await merchantPayments(request, await queryTransaction({ reads }, request.entityId!, id, parameters.includeLinkedTransactions ?? false));
    return sendWithEnvelope(request, reply, 200, { payments }, '000.000.100');
  });
}
