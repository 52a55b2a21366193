import type { TestApp } from './test-app.js';

/** One series' value in the app's own registry (the sum over the series whose labels include `labels`). */
export function metricValue(t: TestApp, name: string, labels: Record<string, string> = {}): Promise<number> {
  const metrics = t.app.gateway.metrics;
  if (!metrics) throw new Error('the app records no metrics (METRICS_ENABLED=false)');
  return metrics.value(name, labels);
}

/** Reads a series now; the function it answers tells how much it moved since. */
export async function watchMetric(t: TestApp, name: string, labels: Record<string, string> = {}): Promise<() => Promise<number>> {
  const start = await metricValue(t, name, labels);
  return async () => (await metricValue(t, name, labels)) - start;
}

/** Several series at once: `moved()` answers each one's change since, by the key it was given. */
export async function watchMetrics<K extends string>(t: TestApp, series: Record<K, readonly [string, Record<string, string>]>): Promise<() => Promise<Record<K, number>>> {
  const entries = Object.entries(series) as [K, readonly [string, Record<string, string>]][];
  const watches = await Promise.all(entries.map(async ([key, [name, labels]]) => [key, await watchMetric(t, name, labels)] as const));
  return async () => Object.fromEntries(await Promise.all(watches.map(async ([key, moved]) => [key, await moved()] as const))) as Record<K, number>;
}

/** The payments counter's series of one answer. */
export function paymentSeries(paymentType: string, brand: string, connector: string, outcome: string): readonly [string, Record<string, string>] {
  return ['gateway_payments_total', { payment_type: paymentType, brand, connector, outcome }];
}
