import { context, INVALID_SPAN_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import { gatewayTracer, tracingOn } from './state.js';

/** What fn gets without tracing: a span that records nothing. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** The parent; the active context when absent. */
  readonly parent?: Context | undefined;
  readonly links?: Link[];
}

/**
 * Runs fn inside a span named `name`, ended when fn settles. An error marks the span failed with
 * its class name only (`error.type`): a message may quote what a request carried. Without tracing,
 * fn runs as it is: callers that build attributes check `tracingOn` first.
 */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!tracingOn) return fn(NO_SPAN);
  const parent = options.parent ?? context.active();
  const span = gatewayTracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links }, parent);
  return context.with(trace.setSpan(parent, span), () => fn(span)).then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      failSpan(span, error);
      span.end();
      throw error;
    },
  );
}


/** Marks a span failed, naming the error's class only. */
export function failSpan(span: Span, error: unknown): void {
  span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/** Whether a span is recording in the active context: statements outside any traced work are not traced. */
export function insideRecordingSpan(): boolean {
  return trace.getSpan(context.active())?.isRecording() === true;
}

export { SpanKind };
