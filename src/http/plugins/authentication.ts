import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ENTITY_ID_PATTERN } from '../../domain/ids.js';
import { GatewayError } from '../../results/gateway-error.js';
import type { Observer } from '../../observability/observer.js';
import { fieldValue, LEGACY_ENTITY_ID, legacyFieldsOf, removeLegacyFields, type LegacyFields } from '../legacy-fields.js';

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

/** entityId and the legacy fields come from the form body on POST and from the query string on GET and DELETE. */
function parameterSource(request: FastifyRequest): Record<string, unknown> | undefined {
  return (request.method === 'POST' ? request.body : request.query) as Record<string, unknown> | undefined;
}

function checkEntityIdFormat(name: string, value: string | string[]): string {
  const message = Array.isArray(value) ? 'must be sent once' : ENTITY_ID_PATTERN.test(value) ? undefined : 'must match ^[a-f0-9]{32}$';
  if (message === undefined) return value as string;
  const shown = Array.isArray(value) ? value.join(',') : value;
  throw new GatewayError('200.300.404', { parameterErrors: [{ name, value: shown.slice(0, 64), message }] });
}

/**
 * authentication.entityId plays the role of entityId; when both are sent they must name the same
 * entity (a request for two entities is malformed, not a question of permission).
 */
function requestedEntityId(source: Record<string, unknown> | undefined): string {
  const plain = fieldValue(source, 'entityId');
  const legacy = fieldValue(source, LEGACY_ENTITY_ID);
  if (plain === undefined && legacy === undefined) {
    throw new GatewayError('200.300.404', { parameterErrors: [{ name: 'entityId', value: '', message: 'is required' }] });
  }
  const entityId = plain === undefined ? undefined : checkEntityIdFormat('entityId', plain);
  const legacyEntityId = legacy === undefined ? undefined : checkEntityIdFormat(LEGACY_ENTITY_ID, legacy);
  if (entityId !== undefined && legacyEntityId !== undefined && entityId !== legacyEntityId) {
    throw new GatewayError('200.300.404', { parameterErrors: [{ name: LEGACY_ENTITY_ID, value: legacyEntityId, message: 'must equal entityId' }] });
  }
  return (entityId ?? legacyEntityId)!;
}

type FailureReason = Parameters<Observer['authenticationFailed']>[0];

/** Every refusal with 800.120.100 here is a throttled request too (gateway_throttled_requests_total). */
function throttled(request: FastifyRequest, waitMs: number): GatewayError {
  request.server.gateway.observer.throttled();
  return new GatewayError('800.120.100', { headers: { 'retry-after': String(Math.ceil(waitMs / 1000)) } });
}

/**
 * A failed authentication counts against the client's address, whatever token it tried, so
 * rotating tokens does not escape the limit; the failure that goes over it answers 429 already.
 * The metrics count it by what was wrong (missing: no usable credential, invalid: an unknown or
 * refused one, admin: a wrong admin token), whatever it answers.
 */
async function refuse(request: FastifyRequest, error: GatewayError, reason: FailureReason): Promise<never> {
  request.server.gateway.observer.authenticationFailed(reason);
  const waitMs = await request.server.gateway.authFailures.recordFailure(request.ip);
  throw waitMs > 0 ? throttled(request, waitMs) : error;
}

const FORM = /^application\/x-www-form-urlencoded(?:\s*;|$)/i;

/**
 * Before anything is read or looked up: an address over its failure limit costs nothing more, and
 * a request that can carry no credential is refused before its body is read. Without an
 * Authorization header, an entity route's credential may be the legacy fields: in the query string
 * on GET and DELETE (checked here), in a form body on POST (checked once it is parsed).
 */
export async function checkCredentialsPresent(request: FastifyRequest, legacyAllowed: boolean): Promise<void> {
  const waitMs = request.server.gateway.authFailures.retryAfterMs(request.ip);
  if (waitMs > 0) {
    // Refused unread: the address is over its limit of failures.
    request.server.gateway.observer.authenticationFailed('locked_out');
    throw throttled(request, waitMs);
  }
  try {
    if (legacyAllowed && request.headers.authorization === undefined) {
      if (request.method === 'POST' ? FORM.test(request.headers['content-type'] ?? '') : legacyFieldsOf(parameterSource(request)).kind !== 'absent') return;
    }
    bearerToken(request);
  } catch (error) {
    await refuse(request, error as GatewayError, 'missing');
  }
}

/**
 * The token that authenticates the request: the Bearer header's, the legacy fields', or, when a
 * request carries both, the one they both name. Fields that name another credential than the
 * header are refused: the gateway never chooses between two credentials.
 */
async function presentedToken(request: FastifyRequest, fields: LegacyFields): Promise<string> {
  const header = request.headers.authorization === undefined ? undefined : bearerToken(request);
  if (fields.kind === 'incomplete') return refuse(request, new GatewayError('800.900.300', { httpStatus: 401 }), 'missing');
  if (fields.kind === 'absent') return header ?? refuse(request, new GatewayError('800.900.300', { httpStatus: 401 }), 'missing');
  if (fields.kind === 'credential' && (header === undefined || sameSecret(header, fields.token))) return fields.token;
  return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }), 'invalid');
}

async function authenticateEntityRequest(request: FastifyRequest): Promise<void> {
  const resolver = request.server.gateway.principals;
  const source = parameterSource(request);
  const fields = legacyFieldsOf(source);
  const token = await presentedToken(request, fields);
  const principal = await resolver.principalOf(token);
  if (!principal) return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }), 'invalid');
  const viaFields = fields.kind === 'credential';
  // Switched off for the credential's entity: the fields are refused like a wrong password.
  if (viaFields && !principal.legacyAuth) return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }), 'invalid');
  request.principal = principal;
  // A PSP or division groups merchants for reporting; it has no account to pay into.
  if ((principal.entityKind === 'psp' || principal.entityKind === 'division') && request.routeOptions.config.hierarchyRead !== true) throw new GatewayError('800.900.301');
  const entityId = requestedEntityId(source);
  if (!(await resolver.mayActFor(principal, entityId))) throw new GatewayError('800.900.301');
  // ... and for the entity acted for, when a merchant's credential acts for its channel.
  if (viaFields && !(await resolver.legacyAuthAllowedFor(principal, entityId))) {
    return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }), 'invalid');
  }
  removeLegacyFields(source, entityId);
  request.entityId = entityId;
}

export async function authenticateAdminRequest(request: FastifyRequest): Promise<void> {
  const token = bearerToken(request);
  const expected = request.server.gateway.adminToken;
  if (!expected || !sameSecret(token, expected)) return refuse(request, new GatewayError('800.900.300', { httpStatus: 403 }), 'admin');
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
    if (auth !== 'public') await checkCredentialsPresent(request, auth === 'entity');
  });
  app.addHook('preHandler', async (request) => {
    const auth = request.routeOptions.config.auth ?? 'public';
    if (auth === 'entity') await authenticateEntityRequest(request);
    else if (auth === 'admin') await authenticateAdminRequest(request);
  });
}
