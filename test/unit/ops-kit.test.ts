import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { METRICS, type MetricDefinition } from '../../src/observability/metric-catalogue.js';
import { headingAnchor, namesInExpression, parseRules, type ExpressionNames } from '../support/promql-names.js';

/**
 * The operations kit (ops/prometheus/alerts.yml, ops/grafana/gateway-dashboard.json) names only
 * metrics and labels the gateway exports: a metric renamed in the catalogue fails here rather than
 * in an alert that silently never fires. (promtool checks the syntax and the rules' behaviour; CI
 * runs it.)
 */
const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

const rules = parseRules(read('ops/prometheus/alerts.yml'));
const dashboard = JSON.parse(read('ops/grafana/gateway-dashboard.json')) as Dashboard;
const operationsDoc = read('docs/operations.md');

interface Panel { readonly type: string; readonly title: string; readonly datasource?: { readonly uid?: string }; readonly targets?: readonly { readonly expr?: string; readonly datasource?: { readonly uid?: string } }[]; readonly panels?: readonly Panel[] }
interface Variable { readonly name: string; readonly type: string; readonly query?: string | { readonly query?: string }; readonly datasource?: { readonly uid?: string } }
interface Dashboard { readonly schemaVersion: number; readonly panels: readonly Panel[]; readonly templating: { readonly list: readonly Variable[] } }

/** Every series name a scrape of the gateway can answer, with the labels each may be matched on. */
function exportedSeries(): Map<string, ReadonlySet<string>> {
  const series = new Map<string, ReadonlySet<string>>();
  const add = (definition: Pick<MetricDefinition, 'name' | 'type' | 'labels'>) => {
    const labels = ['job', 'instance', ...definition.labels];
    if (definition.type !== 'histogram') return void series.set(definition.name, new Set(labels));
    series.set(`${definition.name}_bucket`, new Set([...labels, 'le']));
    series.set(`${definition.name}_count`, new Set(labels));
    series.set(`${definition.name}_sum`, new Set(labels));
  };
  for (const definition of Object.values(METRICS)) add(definition);
  // prom-client's process defaults (process_cpu_seconds_total, nodejs_eventloop_lag_p99_seconds, …).
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  for (const metric of defaults.getMetricsAsArray()) {
    const { name, type, labelNames } = metric as unknown as { name: string; type: string; labelNames?: string[] };
    add({ name, type: type === 'histogram' ? 'histogram' : 'gauge', labels: labelNames ?? [] });
  }
  series.set('up', new Set(['job', 'instance']));
  return series;
}

const SERIES = exportedSeries();
const RECORDED = new Set(rules.filter((rule) => rule.kind === 'record').map((rule) => rule.name));
const ALL_LABELS = new Set([...SERIES.values()].flatMap((labels) => [...labels]));

/** What an expression names that the gateway does not export: unknown metrics, unknown labels. */
function problemsOf(where: string, names: ExpressionNames): string[] {
  const problems: string[] = [];
  for (const selector of names.selectors) {
    if (RECORDED.has(selector.metric)) continue;
    const labels = SERIES.get(selector.metric);
    if (!labels) problems.push(`${where}: ${selector.metric} is neither in the metric catalogue, a recording rule, a process default nor up`);
    else for (const label of selector.labels) if (!labels.has(label)) problems.push(`${where}: ${selector.metric} has no label ${label}`);
  }
  for (const label of names.groupingLabels) if (!ALL_LABELS.has(label)) problems.push(`${where}: no metric has a label ${label}`);
  return problems;
}

function panelsOf(panels: readonly Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
}

const variableQuery = (variable: Variable) => (typeof variable.query === 'string' ? variable.query : variable.query?.query ?? '');

describe('the PromQL name extraction the kit checks rely on', () => {
  it('finds metrics, matcher labels and grouping labels, and skips functions, strings and variables', () => {
    const names = namesInExpression('histogram_quantile(0.99, sum by (le, http_route) (rate(http_server_request_duration_seconds_bucket{job=~"$job", status="5.."}[$__rate_interval]))) > 2.5 and on (job) up offset 1d or nodejs_gc_duration_seconds_count * 1e3');
    assert.deepEqual(names.selectors, [
      { metric: 'http_server_request_duration_seconds_bucket', labels: ['job', 'status'] },
      { metric: 'up', labels: [] },
      { metric: 'nodejs_gc_duration_seconds_count', labels: [] },
    ]);
    assert.deepEqual(names.groupingLabels, ['le', 'http_route', 'job']);
  });

  it('reports a metric or a label the gateway does not export', () => {
    assert.deepEqual(problemsOf('x', namesInExpression('sum by (connector, colour) (rate(gateway_payment_total{outcome="success"}[5m])) / gateway_payments_total{currency="EUR"}')), [
      'x: gateway_payment_total is neither in the metric catalogue, a recording rule, a process default nor up',
      'x: gateway_payments_total has no label currency',
      'x: no metric has a label colour',
    ]);
  });

  it('reads a rule\'s one-line and block expressions and its fields', () => {
    const parsed = parseRules('groups:\n  - name: g\n    rules:\n      - record: a:b:rate5m\n        expr: sum(rate(x[5m]))\n      - alert: A\n        expr: |\n          a:b:rate5m\n          > 1\n        labels:\n          severity: warning\n        annotations:\n          runbook_url: "docs/operations.md#a"\n');
    assert.deepEqual(parsed, [
      { kind: 'record', name: 'a:b:rate5m', expr: 'sum(rate(x[5m]))', fields: {} },
      { kind: 'alert', name: 'A', expr: 'a:b:rate5m\n> 1', fields: { severity: 'warning', runbook_url: 'docs/operations.md#a' } },
    ]);
  });
});

describe('ops/prometheus/alerts.yml', () => {
  const alerts = rules.filter((rule) => rule.kind === 'alert');

  it('names only exported metrics and labels, or its own recording rules', () => {
    assert.ok(alerts.length >= 15 && RECORDED.size >= 10, `${alerts.length} alerts and ${RECORDED.size} recording rules read`);
    const problems = rules.flatMap((rule) => problemsOf(`${rule.kind} ${rule.name}`, namesInExpression(rule.expr)));
    assert.deepEqual(problems, []);
  });

  it('gives every alert a severity, a summary, a description and a runbook section of docs/operations.md', () => {
    const anchors = new Set([...operationsDoc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => headingAnchor(m[1]!)));
    for (const alert of alerts) {
      assert.match(alert.fields['severity'] ?? '', /^(warning|critical)$/, alert.name);
      assert.ok(alert.fields['summary'], `${alert.name} has a summary`);
      assert.match(alert.fields['description'] ?? '', /\{\{ \$(value|labels)/, `${alert.name}'s description quotes the value or labels`);
      const anchor = /^docs\/operations\.md#(.+)$/.exec(alert.fields['runbook_url'] ?? '')?.[1];
      assert.ok(anchor && anchors.has(anchor), `${alert.name}'s runbook_url ${alert.fields['runbook_url']} is a heading of docs/operations.md`);
      assert.equal(anchor, alert.name.toLowerCase(), `${alert.name}'s section is named after it`);
    }
  });
});

describe('ops/grafana/gateway-dashboard.json', () => {
  const panels = panelsOf(dashboard.panels);
  const targets = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, target })));

  it('queries only exported metrics and labels', () => {
    assert.ok(targets.length >= 40, `${targets.length} queries read`);
    const problems = targets.flatMap(({ panel, target }) => problemsOf(`panel "${panel.title}"`, namesInExpression(target.expr ?? '')));
    for (const variable of dashboard.templating.list.filter((v) => v.type === 'query')) {
      problems.push(...problemsOf(`variable ${variable.name}`, namesInExpression(variableQuery(variable).replace(/^label_values\((.*),\s*(\w+)\)$/, '$1'))));
    }
    assert.deepEqual(problems, []);
  });

  it('shows every metric of the catalogue somewhere', () => {
    const shown = new Set(targets.flatMap(({ target }) => namesInExpression(target.expr ?? '').selectors.map((s) => s.metric.replace(/_(bucket|count|sum)$/, ''))));
    const missing = Object.values(METRICS).map((m) => m.name).filter((name) => !shown.has(name));
    assert.deepEqual(missing, [], 'a metric added to the catalogue gets a panel');
  });

  it('takes its Prometheus from a datasource variable, never a fixed uid', () => {
    assert.ok(dashboard.schemaVersion >= 36);
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    assert.equal(variable?.name, 'datasource');
    assert.equal(variable?.query, 'prometheus');
    const uids = [...panels.filter((p) => p.type !== 'row').map((p) => p.datasource?.uid), ...targets.map(({ target }) => target.datasource?.uid), ...dashboard.templating.list.filter((v) => v.type === 'query').map((v) => v.datasource?.uid)];
    assert.deepEqual([...new Set(uids)], ['${datasource}']);
  });
});
