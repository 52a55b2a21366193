import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import '../../http/request-log-facts.js';
import { answerAttributes, requestAttributes, serverSpanName } from './http-attributes.js';
import { gatewayTracer, tracingOn } from './state.js';

interface RequestTrace {
  readonly span: Span;
  readonly context: Context;
}

const traces = new WeakMap<FastifyRequest, RequestTrace>();

/** The incoming trace context: a caller's `traceparent` makes the request's span its child. */
const headerGetter = {
  keys: (headers: FastifyRequest['headers']) => Object.keys(headers),
  get: (headers: FastifyRequest['headers'], key: string) => headers[key],
};

function startRequestSpan(request: FastifyRequest): RequestTrace {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers, headerGetter);
  const route = request.routeOptions.url;
  const span = gatewayTracer().startSpan(serverSpanName(request.method, route), { kind: SpanKind.SERVER }, parent);
  // A request the sampler left out costs no attributes (the path's masking included).
  if (span.isRecording()) span.setAttributes(requestAttributes({ method: request.method, url: request.url, route, scheme: request.protocol }));
  return { span, context: trace.setSpan(parent, span) };
}

/**
 * Runs what follows in the request's trace context. Fastify goes on from a hook's done(): the
 * next hooks, the handler and every promise they make inherit it. Set again before validation:
 * a body arrives on the socket's events, outside the context onRequest set.
 */
function continueInTrace(request: FastifyRequest, done: HookHandlerDoneFunction): void {
  const current = traces.get(request);
  if (current) context.with(current.context, done);
  else done();
}

function endRequestSpan(request: FastifyRequest, reply: FastifyReply | undefined): void {
  const current = traces.get(request);
  if (!current) return;
  traces.delete(request);
  const { span } = current;
  if (!span.isRecording()) return;
  const facts = request.logFacts;
  span.setAttributes(answerAttributes({ entityId: request.entityId, transactionId: facts?.transactionId, referencedId: facts?.referencedId, checkoutId: facts?.checkoutId, resultCode: facts?.result?.code }));
  if (reply) {
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    span.setAttribute('error.type', 'request aborted');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/**
 * A server span per request (OpenTelemetry's HTTP conventions): `METHOD route`, the method, the
 * route's template, the path with card-number-like digits masked (never the query string, a
 * header or the body), the status, and the gateway's entity, payment, checkout and result code
 * as the request noted them for its log line (http/request-log-facts.ts). Registered only when
 * tracing is on, first, so that every later hook runs inside the span.
 */
export function registerRequestTracing(app: FastifyInstance): void {
  if (!tracingOn) return;
  app.addHook('onRequest', (request, _reply, done) => {
    traces.set(request, startRequestSpan(request));
    continueInTrace(request, done);
  });
  app.addHook('preValidation', (request, _reply, done) => continueInTrace(request, done));
  app.addHook('onResponse', (request, reply, done) => {
    endRequestSpan(request, reply);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    endRequestSpan(request, undefined);
    done();
  });
}
