import { readFileSync } from 'node:fs';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { METRICS, type MetricDefinition, type MetricKey } from './metric-catalogue.js';

type Catalogue = typeof METRICS;
type KeyOfType<Type extends MetricDefinition['type']> = { [K in MetricKey]: Catalogue[K]['type'] extends Type ? K : never }[MetricKey];
export type CounterKey = KeyOfType<'counter'>;
export type GaugeKey = KeyOfType<'gauge'>;
export type HistogramKey = KeyOfType<'histogram'>;
export type LabelsOf<K extends MetricKey> = { readonly [L in Catalogue[K]['labels'][number]]: string };

/** One gauge value read when Prometheus scrapes: a pool's connections, the jobs due. */
export interface GaugeReading<K extends GaugeKey> {
  readonly labels: LabelsOf<K>;
  readonly value: number;
}

const PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

function build(definition: MetricDefinition, registry: Registry): AnyMetric {
  const common = { name: definition.name, help: definition.help, labelNames: [...definition.labels], registers: [registry], aggregator: definition.aggregate ?? 'sum' };
  if (definition.type === 'counter') return new Counter(common);
  if (definition.type === 'gauge') return new Gauge(common);
  return new Histogram({ ...common, buckets: [...(definition.buckets ?? [])] });
}

/**
 * The gateway's metrics on a registry of their own (one per process; tests make one per app).
 * Recording is synchronous and in memory: nothing on the payment path waits for a scrape.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #metrics = new Map<MetricKey, AnyMetric>();

  constructor(options: { readonly processDefaults?: boolean } = {}) {
    for (const [key, definition] of Object.entries(METRICS) as [MetricKey, MetricDefinition][]) this.#metrics.set(key, build(definition, this.registry));
    // CPU, memory, event-loop lag, heap, handles, GC: once per process, not per test app.
    if (options.processDefaults) collectDefaultMetrics({ register: this.registry });
  }

  /** gateway_build_info: the package's version and the build number (commit and time) of every response. */
  describeBuild(buildNumber: string, system: string): void {
    (this.#metrics.get('buildInfo') as Gauge<string>).reset();
    this.set('buildInfo', { version: PACKAGE_VERSION, build_number: buildNumber, system }, 1);
  }

  inc<K extends CounterKey>(key: K, labels: LabelsOf<K>, value = 1): void {
    (this.#metrics.get(key) as Counter<string>).inc(labels as Record<string, string>, value);
  }

  observe<K extends HistogramKey>(key: K, labels: LabelsOf<K>, value: number): void {
    (this.#metrics.get(key) as Histogram<string>).observe(labels as Record<string, string>, value);
  }

  set<K extends GaugeKey>(key: K, labels: LabelsOf<K>, value: number): void {
    (this.#metrics.get(key) as Gauge<string>).set(labels as Record<string, string>, value);
  }

  /**
   * Reads a gauge's values when Prometheus scrapes instead of on every change. Several sources
   * may feed one gauge (a pool per acquirer host); the values of one scrape replace the last.
   */
  sample<K extends GaugeKey>(key: K, read: () => readonly GaugeReading<K>[] | Promise<readonly GaugeReading<K>[]>): void {
    const gauge = this.#metrics.get(key) as Gauge<string> & { collect?: () => Promise<void> };
    const sources = ((gauge as unknown as { gatewaySources?: typeof read[] }).gatewaySources ??= []);
    sources.push(read);
    gauge.collect = async () => {
      gauge.reset();
      // A gauge without labels comes back from reset() at 0: a scrape whose source failed must leave it out, not say 0.
      if (METRICS[key].labels.length === 0) gauge.remove();
      for (const source of sources) {
        // A source that fails (the database away) leaves its series out of this scrape rather than failing the scrape.
        const readings = await Promise.resolve().then(source).catch(() => []);
        for (const reading of readings) gauge.set(reading.labels as Record<string, string>, reading.value);
      }
    };
  }

  /** The text a scrape answers, this process alone. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** One series' value, for tests: the sum over the series whose labels include `labels`. */
  async value(name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
    const metric = this.registry.getSingleMetric(name);
    if (!metric) throw new Error(`no metric ${name}`);
    const { values } = await metric.get();
    return values
      .filter((v) => Object.entries(labels).every(([label, wanted]) => String((v.labels as Record<string, unknown>)[label]) === wanted))
      .filter((v) => !('metricName' in v) || v.metricName === name || v.metricName === `${name}_count`)
      .reduce((sum, v) => sum + v.value, 0);
  }
}
