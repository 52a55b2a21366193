import { METRICS, type MetricArea, type MetricDefinition } from './metric-catalogue.js';

const AREAS: readonly MetricArea[] = ['HTTP', 'Payments', 'Connectors', '3-D Secure and redirects', 'Notifications and jobs', 'Schedules, pending payments and settlement', 'Database and process'];

function row(metric: MetricDefinition): string {
  const name = metric.otelName ? `\`${metric.name}\`<br>(OTel \`${metric.otelName}\`)` : `\`${metric.name}\``;
  const labels = metric.labels.length > 0 ? metric.labels.map((l) => `\`${l}\``).join(', ') : '—';
  return `| ${name} | ${metric.type} | ${labels} | ${metric.help.replace(/\|/g, '\\|')} |`;
}

/** docs/metrics.md: every metric of the catalogue, by area (npm run docs). */
export function renderMetricsMarkdown(): string {
  const all = Object.values(METRICS) as MetricDefinition[];
  const sections = AREAS.map((area) => [`## ${area}`, '', '| Metric | Type | Labels | Meaning |', '|---|---|---|---|', ...all.filter((m) => m.area === area).map(row), ''].join('\n'));
  return [
    '# Metrics',
    '',
    '<!-- Generated from src/observability/metric-catalogue.ts by `npm run docs`; do not edit. -->',
    '',
    'What `GET /metrics` exports (Prometheus text format). How to scrape it, the alerts built on these',
    'series and what to do about each are in [observability.md](observability.md) and',
    '[operations.md](operations.md). Besides these, every process exports prom-client\'s process',
    'defaults (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `nodejs_eventloop_lag_seconds`,',
    '`nodejs_heap_size_used_bytes`, …), summed over the processes of a node.',
    '',
    ...sections,
  ].join('\n');
}
