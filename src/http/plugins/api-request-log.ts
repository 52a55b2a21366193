import type { FastifyInstance, FastifyRequest } from 'fastify';
import { maskPanLikeDigitsInUrl } from '../../domain/redact.js';
import type { RequestLogWriter } from '../../operations/request-log/request-log-writer.js';

/** A path longer than this is cut: the log row stays small whatever a client sends. */
const MAX_LOGGED_PATH_LENGTH = 200;

/** The path as the request log shows it: no query string, card-number-like digits masked. */
export function loggedPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return maskPanLikeDigitsInUrl(path).slice(0, MAX_LOGGED_PATH_LENGTH);
}

function requestRecord(request: FastifyRequest, status: number, durationMs: number, entityId: string, at: Date) {
  return {
    entityId,
    at,
    method: request.method,
    path: loggedPath(request.url),
    status,
    resultCode: request.logFacts?.result?.code ?? null,
    durationMs: Math.round(durationMs),
    requestId: String(request.id),
    transactionId: request.logFacts?.transactionId ?? null,
    tokenId: request.principal?.tokenId ?? null,
  };
}

/**
 * Every API request a merchant's credentials were accepted for goes to the request log (the
 * console's "why was this refused"). The hook only hands a record to the writer, which writes
 * batches later: the answer has already been sent.
 */
export function registerApiRequestLog(app: FastifyInstance, writer: RequestLogWriter): void {
  app.addHook('onResponse', (request, reply, done) => {
    const entityId = request.entityId;
    if (entityId !== undefined) writer.note(requestRecord(request, reply.statusCode, reply.elapsedTime, entityId, app.gateway.clock.now()));
    done();
  });
}
