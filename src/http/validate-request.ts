import type { FastifyRequest } from 'fastify';
import { validateRequest, type Endpoint } from '../catalogue/index.js';
import type { EndpointRequest } from '../catalogue/request-types.generated.js';
import type { RequestBody } from '../catalogue/types.js';
import { GatewayError } from '../results/gateway-error.js';

/**
 * Checks a request's parameters (form body on POST, query string on GET) against the catalogue;
 * the first broken rule decides the code and every broken parameter is named.
 */
export function validatedParameters<E extends Endpoint>(endpoint: E, request: FastifyRequest): EndpointRequest<E> {
  return validatedSource(endpoint, request, ((request.method === 'POST' ? request.body : request.query) ?? {}) as RequestBody);
}

/** validatedParameters for parameters the route picked from the request itself. */
export function validatedSource<E extends Endpoint>(endpoint: E, request: FastifyRequest, source: RequestBody): EndpointRequest<E> {
  const context = { now: request.server.gateway.clock.now(), unknownParameters: request.unknownParameters ?? 'reject' };
  const result = validateRequest(endpoint, source as RequestBody, context);
  if (!result.ok) throw new GatewayError(result.code, { parameterErrors: result.parameterErrors });
  if (result.ignored.length > 0) request.ignoredParameters = result.ignored;
  return result.request;
}

const RESOURCE_ID = /^[a-zA-Z0-9]{32}$/;

/** A payment id from the path; a malformed one cannot name a payment, so it is "not found". */
export function paymentIdFrom(value: string): string {
  if (!RESOURCE_ID.test(value)) throw new GatewayError('700.400.580');
  return value;
}
