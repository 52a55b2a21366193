import type { TestApp } from './test-app.js';
import type { GatewayMetrics } from '../../src/observability/metrics.js';

/** The app's metrics (METRICS_ENABLED is on by default in tests). */
export function metricsOf(t: TestApp): GatewayMetrics {
  const { metrics } = t.app.gateway;
  if (!metrics) throw new Error('the test app has no metrics');
  return metrics;
}

/** A series' value (the sum over the series whose labels include `labels`); a histogram's count. */
export function valueOf(t: TestApp, name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
  return metricsOf(t).value(name, labels);
}

/** Values of several series at once: take one before an event and one after, and compare. */
export async function valuesOf(t: TestApp, wanted: Readonly<Record<string, readonly [name: string, labels?: Readonly<Record<string, string>>]>>): Promise<Record<string, number>> {
  const entries = await Promise.all(Object.entries(wanted).map(async ([key, [name, labels]]) => [key, await valueOf(t, name, labels ?? {})] as const));
  return Object.fromEntries(entries);
}

/** What changed between two readings of valuesOf, key by key. */
export function deltas(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((key) => [key, Number(((after[key] ?? 0) - (before[key] ?? 0)).toFixed(6))]));
}

export interface HistogramReading {
  readonly count: number;
  readonly sum: number;
  /** Observations at or below each upper bound, by bound as Prometheus writes it ("5", "+Inf"). */
  readonly buckets: Readonly<Record<string, number>>;
}

/** One histogram's series whose labels include `labels`, summed. */
export async function histogramOf(t: TestApp, name: string, labels: Readonly<Record<string, string>> = {}): Promise<HistogramReading> {
  const metric = metricsOf(t).registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  const { values } = await metric.get();
  const matching = values.filter((v) => Object.entries(labels).every(([label, wanted]) => String((v.labels as Record<string, unknown>)[label]) === wanted));
  const buckets: Record<string, number> = {};
  let count = 0;
  let sum = 0;
  for (const v of matching) {
    const metricName = (v as { metricName?: string }).metricName;
    if (metricName === `${name}_count`) count += v.value;
    else if (metricName === `${name}_sum`) sum += v.value;
    else if (metricName === `${name}_bucket`) {
      const le = String((v.labels as Record<string, unknown>)['le']);
      buckets[le] = (buckets[le] ?? 0) + v.value;
    }
  }
  return { count, sum, buckets };
}
