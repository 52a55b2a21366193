import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatNdc, resultOf, withEnvelope, withErrorId, type EnvelopeContext, type ResultBody } from './envelope.js';
import { noteResult } from './request-log-facts.js';

/** The envelope fields of this request's answer: build number, now, ndc. */
export function envelopeContext(request: FastifyRequest): EnvelopeContext {
  const deps = request.server.gateway;
  return { buildNumber: deps.buildNumber, now: deps.clock.now(), ndc: formatNdc(request.id, request.entityId), ignoredParameters: request.ignoredParameters };
}

/** Sends a body with the envelope fields every response carries (and an error's id: withErrorId). */
export function sendWithEnvelope(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: object,
  result: ResultBody | string,
): FastifyReply {
  const resultBody = typeof result === 'string' ? resultOf(result) : result;
  noteResult(request, resultBody);
  return reply.code(status).send(withEnvelope(withErrorId(status, body, request.id), resultBody, envelopeContext(request)));
}
