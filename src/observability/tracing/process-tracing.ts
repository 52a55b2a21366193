import { readBuildNumber } from '../../http/build-info.js';
import { TracingConfigError, tracingSettingsOf } from './settings.js';
import { startTracing, type TracingHandle } from './start-tracing.js';

/**
 * Tracing of one program of the node (a gateway process, a worker), from the OTEL_* variables;
 * undefined when they leave it off. Variables it cannot honour stop the start, as configuration
 * errors do. Each process of GATEWAY_PROCESSES calls it and exports its own spans.
 */
export async function startProcessTracing(role: string): Promise<TracingHandle | undefined> {
  try {
    // Nothing else (not even the build number's git look-up) when the variables leave it off.
    if (!tracingSettingsOf(process.env).on) return undefined;
    return await startTracing(process.env, { serviceName: 'payment-gateway', serviceVersion: readBuildNumber(process.env), role });
  } catch (error) {
    if (!(error instanceof TracingConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
