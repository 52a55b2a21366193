import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resultOf, type ResultBody } from '../envelope.js';
import { sendWithEnvelope } from '../reply.js';
import { GatewayError, type ParameterError } from '../../results/gateway-error.js';
import { isCommitUncertain, isDatabaseUnavailable } from '../../storage/errors.js';
import { maskPanLikeDigits, maskPanLikeDigitsInUrl } from '../../domain/redact.js';

const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

interface FrameworkError {
  readonly code: string;
  readonly status: number;
  /** The field to name; never the URL or query as sent, which may carry card data. */
  readonly parameterError?: (request: FastifyRequest) => ParameterError;
}

function headerValue(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return maskPanLikeDigits(String(value ?? '')).slice(0, 64);
}

const badUrl: FrameworkError = {
  code: '200.100.103',
  status: 400,
  parameterError: () => ({ name: 'path', value: '', message: 'must be a valid URL with correct percent-encoding' }),
};

/**
 * Every client-side error Fastify raises (FST_ERR_* with a 4xx status), each with a catalogue
 * code and the field at fault; a test lists Fastify's errors and checks none is missing.
 */
export const FASTIFY_ERRORS: Readonly<Record<string, FrameworkError>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: '200.100.103',
    status: 413,
    parameterError: (request) => ({ name: 'body', value: headerValue(request, 'content-length'), message: `must be at most ${request.routeOptions.bodyLimit} bytes` }),
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: '200.100.101',
    status: 415,
    parameterError: (request) => ({ name: 'Content-Type', value: headerValue(request, 'content-type'), message: `must be ${FORM_MEDIA_TYPE}` }),
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: '200.100.103',
    status: 400,
    parameterError: (request) => ({ name: 'Content-Length', value: headerValue(request, 'content-length'), message: 'must be the length of the body' }),
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: '200.100.101', status: 415 },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: '200.100.101', status: 415 },
  FST_ERR_BAD_URL: badUrl,
  FST_ERR_INVALID_URL: badUrl,
  FST_ERR_MAX_PARAM_LENGTH: {
    code: '200.100.103',
    status: 414,
    parameterError: () => ({ name: 'path', value: '', message: 'each path segment must be at most 100 characters' }),
  },
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: {
    code: '200.100.101',
    status: 415,
    parameterError: () => ({ name: 'Content-Type', value: '', message: `is required: ${FORM_MEDIA_TYPE}` }),
  },
  FST_ERR_ROUTE_MISSING_CONTENT: { code: '200.100.103', status: 400, parameterError: () => ({ name: 'body', value: '', message: 'is required' }) },
  FST_ERR_VALIDATION: { code: '200.300.404', status: 400 },
  FST_ERR_NOT_FOUND: { code: '200.300.404', status: 404 },
  // The work may still finish (a connector may have moved money): the outcome is uncertain,
  // and GET or an Idempotency-Key replay finds it.
  FST_ERR_HANDLER_TIMEOUT: { code: '900.100.300', status: 504 },
  // Fastify's errors for the server's own set-up (500) are bugs of ours: 900.100.203 below.
};

/** 900.100.300 (timeout, uncertain result), with the status of the handler timeout's uncertain answer. */
export function uncertainOutcome(): GatewayError {
  return new GatewayError('900.100.300', { httpStatus: 504 });
}

/** Whether an answer says the outcome is unknown (GET or an Idempotency-Key replay finds it later). */
export function isUncertainAnswer(error: unknown): boolean {
  return isCommitUncertain(error) || (error instanceof GatewayError && error.code === '900.100.300');
}

function toGatewayError(error: FastifyError | Error, request: FastifyRequest): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  const mapped = FASTIFY_ERRORS[(error as FastifyError).code ?? ''];
  if (mapped) {
    const parameterErrors = mapped.parameterError ? [mapped.parameterError(request)] : undefined;
    return new GatewayError(mapped.code, { httpStatus: mapped.status, ...(parameterErrors ? { parameterErrors } : {}) });
  }
  const status = (error as FastifyError).statusCode;
  // Any other client error met while reading the request (a body the client aborted, bad framing).
  if (status !== undefined && status >= 400 && status < 500) return new GatewayError('200.100.103', { httpStatus: 400 });
  // A write whose answer the database never gave: what it holds is found later, never guessed.
  if (isCommitUncertain(error)) return uncertainOutcome();
  if (isDatabaseUnavailable(error)) return new GatewayError('999.999.888');
  return undefined;
}

/** The status and body an error answers with; also stored for Idempotency-Key replays. */
export function errorResponse(error: FastifyError | Error, request: FastifyRequest): { status: number; result: ResultBody; headers?: Record<string, string> } {
  const known = toGatewayError(error, request);
  if (!known) {
    request.log.error({ err: error }, 'unexpected error');
    return { status: 500, result: resultOf('900.100.203') };
  }
  if (known.httpStatus >= 500) request.log.warn({ code: known.code, err: error }, 'request failed: system unavailable');
  const result = resultOf(known.code, known.parameterErrors ? { parameterErrors: known.parameterErrors.map(maskedParameterError) } : {});
  return { status: known.httpStatus, result, ...(known.headers ? { headers: { ...known.headers } } : {}) };
}

/**
 * The last word on what an error shows: whatever code built it (the catalogue masks by field;
 * authentication, admin and webhook errors quote what was sent), a run of 12 or more digits in
 * a name or value leaves as first six, stars, last four.
 */
function maskedParameterError(error: ParameterError): ParameterError {
  return { name: maskPanLikeDigits(error.name), value: maskPanLikeDigits(error.value), message: error.message };
}

function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { status, result, headers } = errorResponse(error, request);
  if (headers) reply.headers(headers);
  return sendWithEnvelope(request, reply, status, {}, result);
}

/**
 * Fastify's `frameworkErrors`: errors met before routing (a malformed URL) that would otherwise
 * be answered with Fastify's bare JSON, which repeats the URL, query string and all. No hook
 * has run for them, so the security headers are set here.
 */
export function frameworkErrorHandler(headers: Readonly<Record<string, string>>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => handleError(error, request, reply.headers(headers));
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
      parameterErrors: [{ name: 'path', value: maskPanLikeDigitsInUrl(path).slice(0, 256), message: 'no such endpoint' }],
    }));
  });
}
