/**
 * Which of the standard OTEL_* variables turn tracing on. The SDK reads the rest itself
 * (OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES through the resource's env detector,
 * OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*, OTEL_EXPORTER_OTLP_*_HEADERS and _TIMEOUT); this only
 * decides whether anything of it is loaded at all.
 */
export type TracingSettings =
  | { readonly on: false }
  | { readonly on: true; readonly exporter: 'otlp' | 'console' };

export class TracingConfigError extends Error {
  override readonly name = 'TracingConfigError';
}

const value = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const text = env[name]?.trim();
  return text ? text : undefined;
};

/**
 * Off unless an exporter has somewhere to send: an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), or OTEL_TRACES_EXPORTER=console. OTEL_SDK_DISABLED=true and
 * OTEL_TRACES_EXPORTER=none turn it off whatever else is set. Only OTLP over HTTP with JSON is
 * built in (the installed exporter): another OTEL_EXPORTER_OTLP_PROTOCOL is refused at start
 * rather than sending bodies the collector cannot read.
 */
export function tracingSettingsOf(env: NodeJS.ProcessEnv): TracingSettings {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return { on: false };
  const exporters = (value(env, 'OTEL_TRACES_EXPORTER') ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  if (exporters.includes('none')) return { on: false };
  const unsupported = exporters.filter((name) => name !== 'otlp' && name !== 'console');
  if (unsupported.length > 0) throw new TracingConfigError(`OTEL_TRACES_EXPORTER=${unsupported.join(',')}: only otlp, console or none`);
  if (exporters.includes('console')) return { on: true, exporter: 'console' };
  if (!value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') && !value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')) return { on: false };
  const protocol = value(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? value(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/json') {
    throw new TracingConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: traces are exported as OTLP over HTTP with JSON only (http/json)`);
  }
  return { on: true, exporter: 'otlp' };
}
