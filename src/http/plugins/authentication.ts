import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';

// The scheme is case-insensitive (RFC 7235 section 2.1): `bearer x` and `BEARER x` are `Bearer x`.
const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{16,512})$/i;

/** The bearer token of the request, or a 401 when the header is absent or malformed. */
export function bearerToken(request: FastifyRequest): string {
  const match = BEARER.exec(request.headers.authorization ?? '');
  if (!match?.[1]) throw new GatewayError('800.900.300', { httpStatus: 401 });
  return match[1];
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** entityId comes from the form body on POST and from the query string on GET and DELETE. */
function requestedEntityId(request: FastifyRequest): string | string[] | undefined {
  const source = (request.method === 'POST' ? request.body : request.query) as Record<string, unknown> | undefined;
  const value = source?.['entityId'];
  return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
}

function checkEntityIdFormat(value: string | string[] | undefined): string {
  const message =
    value === undefined ? 'is required' : Array.isArray(value) ? 'must be sent once' : ENTITY_ID_PATTERN.test(value) ? undefined : 'must match ^[a-f0-9]{32}$';
  if (message === undefined) return value as string;
  const shown = Array.isArray(value) ? value.join(',') : (value ?? '');
  throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'entityId', value: shown.slice(0, 64), message }] });
}

function throttled(waitMs: number): GatewayError {
  return new GatewayError('800.120.100', { headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } });
}

/**
 * A failed authentication counts against the client's address, whatever token it tried, so
 * rotating tokens does not escape the limit; the failure that goes over it answers 429 already.
 */
async function refuse(request: FastifyRequest, error: GatewayError): Promise<never> {
  const waitMs = await request.server.gateway.authFailures.recordFailure(request.ip);
  throw waitMs > 0 ? throttled(waitMs) : error;
}

// Before anything is read or looked up: an address over its failure limit costs nothing more.
async function checkCredentialsPresent(request: FastifyRequest): Promise<void> {
  const waitMs = request.server.gateway.authFailures.retryAfterMs(request.ip);
  if (waitMs > 0) throw throttled(waitMs);
  try {
    bearerToken(request);
  } catch (error) {
    await refuse(request, error as GatewayError);
  }
}

async function authenticateEntityRequest(request: FastifyRequest): Promise<void> {
  const resolver = request.server.gateway.principals;
  const principal = await resolver.principalOf(bearerToken(request));
  if (!principal) return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }));
  request.principal = principal;
  const entityId = checkEntityIdFormat(requestedEntityId(request));
  if (!(await resolver.mayActFor(principal, entityId))) throw new GatewayError('800.900.301');
  request.entityId = entityId;
}

async function authenticateAdminRequest(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  const expected = request.server.gateway.adminToken;
  if (!expected || !sameSecret(token, expected)) return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }));
}

/**
 * Each route declares who may call it (config.auth); this is the one place that checks it.
 * The check runs after the body is parsed because POST requests carry entityId in the form.
 */
export function registerAuthentication(app: FastifyInstance): void {
  app.decorateRequest('principal', undefined);
  app.decorateRequest('entityId', undefined);
  app.addHook('onRequest', async (request) => {
    // Reject a missing or malformed header before reading a body we would throw away.
    const auth = request.routeOptions.config.auth ?? 'public';
    if (auth !== 'public') await checkCredentialsPresent(request);
  });
  app.addHook('preHandler', async (request) => {
    const auth = request.routeOptions.config.auth ?? 'public';
    if (auth === 'entity') await authenticateEntityRequest(request);
    else if (auth === 'admin') await authenticateAdminRequest(request);
  });
}
