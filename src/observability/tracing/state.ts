import { trace, type Tracer } from '@opentelemetry/api';

/**
 * Whether this process records spans. Checked before any attribute is built, so that with tracing
 * off (no OTEL_* endpoint: the default) the instrumented code costs one boolean read. An ES module
 * binding, read live by every importer.
 */
export let tracingOn = false;

let tracer: Tracer = trace.getTracer('payment-gateway');

/** The gateway's tracer: the registered provider's once tracing is on, the API's no-op one before. */
export function gatewayTracer(): Tracer {
  return tracer;
}

/** Called once the provider is registered (start-tracing.ts, or a test's in-memory set-up). */
export function markTracingOn(): void {
  tracer = trace.getTracer('payment-gateway');
  tracingOn = true;
}

export function markTracingOff(): void {
  tracingOn = false;
  tracer = trace.getTracer('payment-gateway');
}
