import { context, propagation, ROOT_CONTEXT, trace, type Context, type Span } from '@opentelemetry/api';
import type { ClaimedJob } from '../../storage/repositories/jobs.js';
import { gatewayTracer, tracingOn } from './state.js';
import { failSpan, SpanKind } from './with-span.js';

/**
 * The active trace context as a W3C `traceparent`, to be written with a job (jobs.trace_parent)
 * in the transaction of the request that causes it; undefined without tracing, so an untraced
 * gateway writes NULL and builds nothing.
 */
export function currentTraceParent(): string | undefined {
  if (!tracingOn) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'];
}

const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The context a job's span starts in: the request's that wrote it, when it was traced. */
function parentOf(job: ClaimedJob): Context {
  const traceParent = job.traceParent;
  if (!traceParent || !TRACEPARENT.test(traceParent)) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent: traceParent });
}

const jobContexts = new WeakMap<ClaimedJob, Context>();

/** Runs fn in the job's span: a handler's per-job work (a delivery) nests under it. */
export function inJobContext<T>(job: ClaimedJob, fn: () => T): T {
  if (!tracingOn) return fn();
  const jobContext = jobContexts.get(job);
  return jobContext ? context.with(jobContext, fn) : fn();
}

function endJobSpan(span: Span, error?: unknown): void {
  if (error !== undefined) failSpan(span, error);
  span.end();
}

/**
 * A consumer span per job of a batch, each the child of the request that wrote its job, ended
 * when its job settles. `start` (the handler's) runs in the job's context when the batch holds
 * one job; a handler's per-job work can enter its job's with inJobContext.
 */
export function startTracedBatch(jobs: readonly ClaimedJob[], start: () => Promise<unknown>[]): Promise<unknown>[] {
  if (!tracingOn) return start();
  const spans = jobs.map((job) => {
    const parent = parentOf(job);
    const attributes = { 'gateway.job.kind': job.kind, 'gateway.job.id': job.id, 'gateway.job.failure_count': job.failureCount };
    const span = gatewayTracer().startSpan(`job ${job.kind}`, { kind: SpanKind.CONSUMER, attributes }, parent);
    jobContexts.set(job, trace.setSpan(parent, span));
    return span;
  });
  let running: Promise<unknown>[];
  try {
    running = context.with(jobs.length === 1 ? jobContexts.get(jobs[0]!)! : ROOT_CONTEXT, start);
  } catch (error) {
    for (const span of spans) endJobSpan(span, error);
    throw error;
  }
  return spans.map((span, index) => {
    const promise = running[index];
    if (!promise) {
      // As the worker itself says of a job its handler answered nothing for.
      const error = new Error(`handler ${jobs[index]!.kind} returned no result`);
      endJobSpan(span, error);
      return Promise.reject(error);
    }
    return promise.then(
      (value) => {
        endJobSpan(span);
        return value;
      },
      (error: unknown) => {
        endJobSpan(span, error);
        throw error;
      },
    );
  });
}
