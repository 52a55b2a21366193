import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestFingerprint } from '../domain/request-fingerprint.js';
import { GatewayError } from '../results/gateway-error.js';
import { claimIdempotencyKey, completeIdempotencyKey } from '../storage/repositories/idempotency-keys.js';
import { JSON_MEDIA_TYPE, withEnvelope, withEnvelopeJson, type ResultBody } from './envelope.js';
import { errorResponse } from './plugins/error-handling.js';
import { envelopeContext } from './reply.js';

/** Keys live a day: long enough for any client retry, short enough to keep the table small. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** What a handler produces: a status, the resource fields and the result. */
export interface HandlerResponse {
  readonly status: number;
  readonly body: object;
  readonly result: ResultBody;
  /** body and result already serialised together (a payment's stored form), when the handler has it. */
  readonly storedJson?: string | undefined;
}

function envelope(request: FastifyRequest, response: { status: number; body: object; result: ResultBody }) {
  return withEnvelope(response.body, response.result, envelopeContext(request));
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'Idempotency-Key', value: String(raw).slice(0, 64), message: 'must be 1 to 255 printable ASCII characters, sent once' }],
    });
  }
  return raw;
}

/**
 * Runs a money-moving handler at most once per Idempotency-Key and entity. The same key with
 * the same request replays the stored answer (from any gateway process, since it is in the
 * database); with another request it is a conflict; while the first is still running, a retry
 * is told so instead of running it twice.
 */
export async function respondIdempotently(
  request: FastifyRequest,
  reply: FastifyReply,
  handle: () => Promise<HandlerResponse>,
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) {
    const response = await handle();
    if (response.storedJson === undefined) return reply.code(response.status).send(envelope(request, response));
    return reply.code(response.status).type(JSON_MEDIA_TYPE).send(withEnvelopeJson(response.storedJson, envelopeContext(request)));
  }
  const { storage, clock } = request.server.gateway;
  const entityId = request.entityId!;
  const now = clock.now();
  const requestHash = requestFingerprint(request.method, request.url.split('?')[0] ?? '', (request.body ?? {}) as Record<string, unknown>);
  const holder = await claimIdempotencyKey(storage, { entityId, key, requestHash, now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS) });
  if (holder) {
    if (holder.requestHash !== requestHash) throw new GatewayError('200.200.106', { httpStatus: 409 });
    if (holder.state === 'in_flight') throw new GatewayError('800.120.402', { httpStatus: 409 });
    return reply.code(holder.responseStatus ?? 200).header('idempotent-replayed', 'true').send(holder.responseBody);
  }
  let status: number;
  let body: Record<string, unknown>;
  try {
    const response = await handle();
    status = response.status;
    body = envelope(request, response);
  } catch (error) {
    // Even a system error is stored: the connector may have moved money before it, so a retry
    // must not run the request again. The client finds the outcome with GET or the query API.
    const failed = errorResponse(error as Error, request);
    status = failed.status;
    body = envelope(request, { status, body: {}, result: failed.result });
  }
  // When even this write fails (database down) the key stays in flight until it expires: retries
  // are refused rather than risk a second charge.
  await completeIdempotencyKey(storage, { entityId, key, status, body });
  return reply.code(status).send(body);
}
