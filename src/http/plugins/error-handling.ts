import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resultOf, type ResultBody } from '../envelope.js';
import { sendWithEnvelope } from '../reply.js';
import { GatewayError } from '../../results/gateway-error.js';
import { isDatabaseUnavailable } from '../../storage/errors.js';
import { maskPanLikeDigits } from '../../domain/redact.js';

/** Fastify's own transport errors, each mapped to a catalogue code. */
const FASTIFY_ERRORS: Readonly<Record<string, { code: string; status: number }>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: '200.100.103', status: 413 },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: '200.100.101', status: 415 },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: '200.100.103', status: 400 },
  FST_ERR_CTP_EMPTY_TYPE: { code: '200.100.101', status: 415 },
  FST_ERR_CTP_INVALID_TYPE: { code: '200.100.101', status: 415 },
};

function toGatewayError(error: FastifyError | Error): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  const mapped = FASTIFY_ERRORS[(error as FastifyError).code ?? ''];
  if (mapped) return new GatewayError(mapped.code, { httpStatus: mapped.status });
  const status = (error as FastifyError).statusCode;
  // Any other client error Fastify detects while reading the request (malformed URL, bad framing).
  if (status !== undefined && status >= 400 && status < 500) return new GatewayError('200.100.103', { httpStatus: 400 });
  if (isDatabaseUnavailable(error)) return new GatewayError('999.999.888');
  return undefined;
}

/** The status and body an error answers with; also stored for Idempotency-Key replays. */
export function errorResponse(error: FastifyError | Error, request: FastifyRequest): { status: number; result: ResultBody; headers?: Record<string, string> } {
  const known = toGatewayError(error);
  if (!known) {
    request.log.error({ err: error }, 'unexpected error');
    return { status: 500, result: resultOf('900.100.203') };
  }
  if (known.httpStatus >= 500) request.log.warn({ code: known.code, err: error }, 'request failed: system unavailable');
  const result = resultOf(known.code, known.parameterErrors ? { parameterErrors: known.parameterErrors } : {});
  return { status: known.httpStatus, result, ...(known.headers ? { headers: { ...known.headers } } : {}) };
}

function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, result, headers } = errorResponse(error, request);
  if (headers) reply.headers(headers);
  return sendWithEnvelope(request, reply, status, {}, result);
}

function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Every error, and every unknown path, answers with the envelope and a catalogue code; a path
 * that exists under another method answers 405 with Allow.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  const routes: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ pattern: routePattern(route.url), method });
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendWithEnvelope(request, reply, 405, {}, '200.300.403');
    }
    return sendWithEnvelope(request, reply, 404, {}, resultOf('200.300.404', {
      parameterErrors: [{ name: 'path', value: maskPanLikeDigits(path.slice(0, 256)), message: 'no such endpoint' }],
    }));
  });
}
