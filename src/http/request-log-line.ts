import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isCheckoutId } from '../domain/checkouts/checkout-id.js';
import { ENTITY_ID_PATTERN } from '../domain/ids.js';
import { loggableId, registerRequestLogFacts, resultLogFields } from './request-log-facts.js';

/**
 * The trace and span of the context the line is written in. Without a tracer provider (tracing
 * off) the API's no-op context holds no span: nothing is logged and nothing is allocated.
 */
export function activeTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpan(context.active());
  if (span === undefined) return undefined;
  const spanContext = span.spanContext();
  return isSpanContextValid(spanContext) ? { traceId: spanContext.traceId, spanId: spanContext.spanId } : undefined;
}

function stringField(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The checkout a route names in its path or query (config.checkoutIdIn); only a well-formed id, never what else was sent there. */
function checkoutIdOf(request: FastifyRequest): string | undefined {
  const source = request.routeOptions.config?.checkoutIdIn;
  if (source === undefined) return undefined;
  const value = source === 'params' ? stringField(request.params, 'id') : stringField(request.query, 'checkoutId');
  return value !== undefined && isCheckoutId(value) ? loggableId(value) : undefined;
}

/** The entity the request was authorised for, or the one an admin path names. */
function entityIdOf(request: FastifyRequest): string | undefined {
  if (request.entityId !== undefined) return request.entityId;
  const named = stringField(request.params, 'entityId');
  return named !== undefined && ENTITY_ID_PATTERN.test(named) ? loggableId(named) : undefined;
}

const TRANSACTION_ID = /^[a-zA-Z0-9]{32}$/;

/** The payment an admin path names (/admin/transactions/:transactionId/…), when a handler noted none. */
function pathTransactionIdOf(request: FastifyRequest): string | undefined {
  const named = stringField(request.params, 'transactionId');
  return named !== undefined && TRANSACTION_ID.test(named) ? loggableId(named) : undefined;
}

/**
 * A request's one line at info: method, path, status and time as before, and what names the
 * payment (entity, transaction, checkout, result, trace). Ids are added only when known.
 */
export function requestLogFields(request: FastifyRequest, reply: FastifyReply): Record<string, unknown> {
  const fields: Record<string, unknown> = { req: request, res: reply, responseTime: reply.elapsedTime };
  const entityId = entityIdOf(request);
  if (entityId !== undefined) fields['entityId'] = entityId;
  const facts = request.logFacts;
  const transactionId = facts?.transactionId ?? pathTransactionIdOf(request);
  if (transactionId !== undefined) fields['transactionId'] = transactionId;
  if (facts?.referencedId !== undefined) fields['referencedId'] = facts.referencedId;
  const checkoutId = facts?.checkoutId ?? checkoutIdOf(request);
  if (checkoutId !== undefined) fields['checkoutId'] = checkoutId;
  if (facts?.result !== undefined) Object.assign(fields, resultLogFields(facts.result));
  const traced = facts?.trace ?? activeTraceIds();
  if (traced !== undefined) Object.assign(fields, traced);
  return fields;
}

/**
 * The request's span, read before its body: preParsing runs after every onRequest hook (whatever
 * order the tracing set-up registered its own in), while a body read from the socket may carry on
 * in another async context. A request refused before (a 401 in onRequest) is read at completion.
 */
export function registerRequestLog(app: FastifyInstance): void {
  registerRequestLogFacts(app);
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const traced = activeTraceIds();
    if (traced !== undefined) (request.logFacts ??= {}).trace = traced;
    done(null, payload);
  });
}

function infoEnabled(request: FastifyRequest): boolean {
  return (request.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') !== false;
}

/**
 * One line per request, written when it completes: the arrival line moves to debug, since the
 * completion line says all it said (a request that never completes still shows at debug).
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ ...requestLogFields(request, reply), err: error }, 'request errored');
    else if (infoEnabled(request)) reply.log.info(requestLogFields(request, reply), 'request completed');
  }
}
