import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatNdc, resultOf, withEnvelope, type ResultBody } from './envelope.js';

/** Sends a body with the envelope fields every response carries. */
export function sendWithEnvelope(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: object,
  result: ResultBody | string,
): FastifyReply {
  const deps = request.server.gateway;
  const context = { buildNumber: deps.buildNumber, now: deps.clock.now(), ndc: formatNdc(request.id, request.entityId) };
  return reply.code(status).send(withEnvelope(body, typeof result === 'string' ? resultOf(result) : result, context));
}
