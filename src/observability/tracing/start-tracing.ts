import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { markTracingOff, markTracingOn } from './state.js';
import { tracingSettingsOf } from './settings.js';

/** What a process keeps to flush and stop its tracing when it stops. */
export interface TracingHandle {
  /** Exports what is still queued (bounded by the exporter's timeout), then stops recording. */
  shutdown(): Promise<void>;
}

export interface TracingIdentity {
  /** service.name when OTEL_SERVICE_NAME does not say otherwise. */
  readonly serviceName: string;
  readonly serviceVersion?: string | undefined;
  /** gateway, worker, or a GATEWAY_PROCESSES process: which program of the node this is. */
  readonly role: string;
}

/**
 * Starts tracing when the OTEL_* variables ask for it; otherwise loads nothing of the SDK and
 * answers undefined, so a gateway without them pays neither the modules' memory nor a hook.
 * Throws TracingConfigError for variables it cannot honour.
 */
export async function startTracing(env: NodeJS.ProcessEnv, identity: TracingIdentity): Promise<TracingHandle | undefined> {
  const settings = tracingSettingsOf(env);
  if (!settings.on) return undefined;
  const { BatchSpanProcessor, ConsoleSpanExporter } = await import('@opentelemetry/sdk-trace-base');
  let exporter: SpanExporter;
  if (settings.exporter === 'console') exporter = new ConsoleSpanExporter();
  else {
    // The exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS and _TIMEOUT itself.
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    exporter = new OTLPTraceExporter();
  }
  // Batched and exported off the request path: a payment never waits on the collector, and a
  // collector that is away costs dropped spans (OTEL_BSP_MAX_QUEUE_SIZE), never a slower payment.
  return installTracing([new BatchSpanProcessor(exporter)], identity);
}

/**
 * Registers a provider with these processors as the process's tracing: startTracing's batch
 * exporter, or a test's in-memory one.
 */
export async function installTracing(processors: SpanProcessor[], identity: TracingIdentity): Promise<TracingHandle> {
  const [{ NodeTracerProvider }, { W3CTraceContextPropagator }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
  ]);
  const own = resources.resourceFromAttributes({
    'service.name': identity.serviceName,
    ...(identity.serviceVersion ? { 'service.version': identity.serviceVersion } : {}),
    'process.pid': process.pid,
    'gateway.process.role': identity.role,
  });
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override the gateway's own names.
  const resource = resources.defaultResource().merge(own).merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: processors });
  // Trace context only: W3C baggage from a caller is not taken in.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  markTracingOn();
  return {
    async shutdown() {
      markTracingOff();
      await provider.shutdown().catch(() => undefined);
    },
  };
}
