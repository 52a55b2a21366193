import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { startTracing } from '../../../src/observability/tracing/start-tracing.js';
import * as state from '../../../src/observability/tracing/state.js';
import { TracingConfigError } from '../../../src/observability/tracing/settings.js';

const identity = { serviceName: 'payment-gateway', role: 'test' };
const loadedSdk = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /@opentelemetry\/(sdk-trace|exporter|otlp|resources)/.test(path));

describe('starting tracing', () => {
  it('without OTEL_* variables loads nothing of the SDK and leaves the instrumentation off', async () => {
    assert.equal(await startTracing({}, identity), undefined);
    assert.equal(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' }, identity), undefined);
    assert.equal(state.tracingOn, false);
    assert.deepEqual(loadedSdk(), []);
  });

  it('refuses an OTLP protocol it cannot speak before loading anything', async () => {
    await assert.rejects(startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, identity), TracingConfigError);
    assert.deepEqual(loadedSdk(), []);
  });

  it('with an endpoint loads the SDK, turns the instrumentation on, and off again at shutdown', async () => {
    const handle = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, identity);
    assert.ok(handle);
    assert.equal(state.tracingOn, true);
    assert.ok(loadedSdk().some((path) => path.includes('sdk-trace-node')), 'the node tracer provider');
    assert.ok(loadedSdk().some((path) => path.includes('exporter-trace-otlp-http')), 'the OTLP exporter');
    await handle.shutdown();
    assert.equal(state.tracingOn, false);
  });
});
