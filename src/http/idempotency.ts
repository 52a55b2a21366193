import type { FastifyReply, FastifyRequest } from 'fastify';
import { CARD_NUMBER_CODE, CARD_NUMBER_MESSAGE } from '../catalogue/card-number-fields.js';
import { containsCardNumber } from '../domain/card-numbers-in-text.js';
import { maskPanLikeDigits } from '../domain/redact.js';
import { requestFingerprint } from '../domain/request-fingerprint.js';
import { GatewayError } from '../results/gateway-error.js';
import { claimIdempotencyKey, completeIdempotencyKey, renewIdempotencyLease, type IdempotencyClaim } from '../storage/repositories/idempotency-keys.js';
import { JSON_MEDIA_TYPE, withEnvelope, withEnvelopeJson, withErrorId, type ResultBody } from './envelope.js';
import { errorResponse, isUncertainAnswer } from './plugins/error-handling.js';
import { envelopeContext } from './reply.js';
import { noteResult, noteTransaction } from './request-log-facts.js';

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

/**
 * A money-moving handler run under an Idempotency-Key. `run` gets the key's claim id, which it
 * stores with what it writes (a transaction's idempotency_claim_id, unique); `recover` finds what
 * an earlier holder of the same claim wrote, for a retry that took over a dead request's key or
 * lost the race to it. Without `recover`, a handler has nothing it could write twice.
 */
export interface IdempotentHandler {
  run(claimId: string | undefined): Promise<HandlerResponse>;
  recover?(claimId: string): Promise<HandlerResponse | undefined>;
  /** Whether an error of run() says that another request wrote under this claim first. */
  isClaimConflict?(error: unknown): boolean;
  /** The answer's body is a payment: its id and referencedId name it on the request's log line. */
  readonly answersWithPayment?: boolean;
}

/** The answer with its envelope; an error that names no resource gets the request's id (withErrorId). */
function envelope(request: FastifyRequest, response: { status: number; body: object; result: ResultBody }) {
  return withEnvelope(withErrorId(response.status, response.body, request.id), response.result, envelopeContext(request));
}

/** What the request's log line names: the answer's result and, for a payment, its ids (a replay's too). */
function noteAnswer(request: FastifyRequest, handler: IdempotentHandler, body: Readonly<Record<string, unknown>>, result: unknown): void {
  if (typeof (result as ResultBody | undefined)?.code === 'string') noteResult(request, result as ResultBody);
  if (handler.answersWithPayment) noteTransaction(request, body);
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw new GatewayError('200.300.404', {
      parameterErrors: [{ name: 'Idempotency-Key', value: String(raw).slice(0, 64), message: 'must be 1 to 255 printable ASCII characters, sent once' }],
    });
  }
  // The key is stored as sent (idempotency_keys.key), so it is held to the rule of every free-text value.
  if (containsCardNumber(raw)) {
    throw new GatewayError(CARD_NUMBER_CODE, { parameterErrors: [{ name: 'Idempotency-Key', value: maskPanLikeDigits(raw).slice(0, 64), message: CARD_NUMBER_MESSAGE }] });
  }
  return raw;
}

/** Keeps the claim's lease alive while its request runs, so no retry takes over a request that is only slow. */
function keepLeaseAlive(request: FastifyRequest, key: string, claim: IdempotencyClaim): () => void {
  const { storage, clock, config } = request.server.gateway;
  const leaseMs = config.resolution.idempotencyLeaseMs;
  const timer = setInterval(() => {
    const leaseUntil = new Date(clock.now().getTime() + leaseMs);
    renewIdempotencyLease(storage, { entityId: request.entityId!, key, claimId: claim.claimId, leaseUntil }).catch((error: unknown) => {
      request.log.warn({ err: { type: (error as Error).name } }, 'idempotency lease not renewed');
    });
  }, Math.max(250, Math.floor(leaseMs / 3)));
  timer.unref();
  return () => clearInterval(timer);
}

async function runClaimed(request: FastifyRequest, handler: IdempotentHandler, key: string, claim: IdempotencyClaim): Promise<HandlerResponse> {
  if (claim.takenOver && handler.recover) {
    const earlier = await handler.recover(claim.claimId);
    if (earlier) return earlier;
  }
  const stopRenewing = keepLeaseAlive(request, key, claim);
  try {
    return await handler.run(claim.claimId);
  } catch (error) {
    // The earlier holder of a taken-over claim wrote after all: its transaction is the answer.
    if (handler.recover && handler.isClaimConflict?.(error)) {
      const earlier = await handler.recover(claim.claimId);
      if (earlier) return earlier;
    }
    throw error;
  } finally {
    stopRenewing();
  }
}

/**
 * Runs a money-moving handler at most once per Idempotency-Key and entity. The same key with
 * the same request replays the stored answer (from any gateway process, since it is in the
 * database); with another request it is a conflict; while the first is still running (its lease
 * renewed), a retry is told so instead of running it twice. Once the first request is gone (its
 * process died: the lease ran out), a retry takes the key over and answers what the first wrote,
 * or runs the request itself when it wrote nothing; the transactions' unique claim index makes
 * sure that only one of them ever writes.
 */
export async function respondIdempotently(request: FastifyRequest, reply: FastifyReply, handler: IdempotentHandler): Promise<FastifyReply> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) {
    const response = await handler.run(undefined);
    noteAnswer(request, handler, response.body as Record<string, unknown>, response.result);
    if (response.storedJson === undefined) return reply.code(response.status).send(envelope(request, response));
    return reply.code(response.status).type(JSON_MEDIA_TYPE).send(withEnvelopeJson(response.storedJson, envelopeContext(request)));
  }
  const { storage, clock, ids, config } = request.server.gateway;
  const entityId = request.entityId!;
  const now = clock.now();
  const requestHash = requestFingerprint(request.method, request.url.split('?')[0] ?? '', (request.body ?? {}) as Record<string, unknown>);
  const claim = await claimIdempotencyKey(storage, {
    entityId,
    key,
    requestHash,
    now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS),
    leaseUntil: new Date(now.getTime() + config.resolution.idempotencyLeaseMs),
    claimId: ids.id(),
  });
  if (!claim.claimed) {
    const { holder } = claim;
    if (holder.requestHash !== requestHash) throw new GatewayError('200.200.106', { httpStatus: 409 });
    if (holder.state === 'in_flight') throw new GatewayError('800.120.402', { httpStatus: 409 });
    if (holder.responseBody) noteAnswer(request, handler, holder.responseBody, holder.responseBody['result']);
    return reply.code(holder.responseStatus ?? 200).header('idempotent-replayed', 'true').send(holder.responseBody);
  }
  let status: number;
  let body: Record<string, unknown>;
  let uncertain = false;
  try {
    const response = await runClaimed(request, handler, key, claim);
    status = response.status;
    body = envelope(request, response);
    noteAnswer(request, handler, response.body as Record<string, unknown>, response.result);
  } catch (error) {
    // Even a system error is stored: the connector may have moved money before it, so a retry
    // must not run the request again. The client finds the outcome with GET or the query API.
    uncertain = isUncertainAnswer(error);
    const failed = errorResponse(error as Error, request);
    status = failed.status;
    body = envelope(request, { status, body: {}, result: failed.result });
    noteResult(request, failed.result);
  }
  // An uncertain answer (a write whose commit was never acknowledged) is not what a replay should
  // repeat: the key is let go instead, so that a retry takes it over at once and answers what this
  // request wrote (handler.recover), or runs it when nothing was written.
  if (uncertain) {
    await renewIdempotencyLease(storage, { entityId, key, claimId: claim.claimId, leaseUntil: clock.now() }).catch(() => undefined);
    return reply.code(status).send(body);
  }
  // When even this write fails (no leader within the failover wait) the answer is still this
  // request's: the key stays in flight until its lease runs out, and a retry then takes it over
  // and answers the transaction this request wrote (handler.recover).
  await completeIdempotencyKey(storage, { entityId, key, claimId: claim.claimId, status, body }).catch((error: unknown) => {
    request.log.warn({ err: { type: (error as Error).name, code: (error as { code?: unknown }).code } }, 'idempotency key not completed: a retry takes it over once its lease runs out');
  });
  return reply.code(status).send(body);
}
