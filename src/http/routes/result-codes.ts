import type { FastifyInstance } from 'fastify';
import { resultCodes } from '../../results/catalogue.js';
import { sendWithEnvelope } from '../reply.js';

/** GET /v1/resultcodes: the whole catalogue, public reference data like the docs. */
export function registerResultCodeRoutes(app: FastifyInstance): void {
  const list = [...resultCodes.values()].map(({ code, description }) => ({ code, description }));
  app.get('/v1/resultcodes', { config: { auth: 'public' } }, (request, reply) =>
    sendWithEnvelope(request, reply, 200, { resultCodes: list }, '000.000.100'),
  );
}
