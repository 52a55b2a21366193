import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startGateway, type GatewayProcess } from '../support/gateway-process.js';
import { SAMPLE_CARD } from '../support/payments.js';
import { freePort } from '../support/free-port.js';

/**
 * Debian's Prometheus scrapes a gateway of two processes (GATEWAY_PROCESSES=2, PostgreSQL) the way
 * ops/prometheus/prometheus.yml says (the admin token as a bearer credentials file), and its HTTP
 * API answers the payments made: one scrape of the node sums both processes.
 */
const PROMETHEUS = '/usr/bin/prometheus';
const url = process.env['TEST_DATABASE_URL'];
const PAYMENTS = 12;
const ROOT = new URL('../../', import.meta.url);
const skip = !existsSync(PROMETHEUS) ? `${PROMETHEUS} is missing (Debian package prometheus)` : !url ? 'TEST_DATABASE_URL not set: GATEWAY_PROCESSES needs PostgreSQL' : false;


/** A POST on a connection of its own (no keep-alive), so the cluster hands each to the next process. */
function postOnNewConnection(target: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(target, { method: 'POST', agent: false, headers: { ...headers, 'content-length': Buffer.byteLength(body), connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Sample { readonly metric: Record<string, string>; readonly value: [number, string] }

/** Polls until `accept` takes a value (slow hosts: a generous deadline, no fixed sleeps). */
async function eventually<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastError: unknown;
  for (;;) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms (last: ${JSON.stringify(last)}${lastError ? `, ${String(lastError)}` : ''})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('Prometheus scraping a gateway of two processes', { skip, timeout: 240_000 }, () => {
  const schema = `prometheus_${randomBytes(6).toString('hex')}`;
  const adminToken = randomBytes(24).toString('hex');
  const admin = new pg.Client({ connectionString: url });
  const storage = mkdtempSync(join(tmpdir(), 'gateway-prometheus-'));
  let gateway: GatewayProcess | undefined;
  let prometheus: ChildProcess | undefined;
  let prometheusLog = '';
  let prometheusUrl = '';
  let merchant: { entityId: string; accessToken: string };

  const query = async (promql: string): Promise<Sample[]> => {
    const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await response.json()) as { status: string; data?: { result: Sample[] }; error?: string };
    if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
    return body.data!.result;
  };
  const pay = async (amount: string) => {
    const headers = { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams({ entityId: merchant.entityId, paymentType: 'DB', amount, currency: 'EUR', ...SAMPLE_CARD }).toString();
    const answer = await postOnNewConnection(`${gateway!.url}/v1/payments`, headers, body);
    assert.equal(answer.status, 200, answer.body);
  };
  const scalar = (samples: Sample[]) => (samples.length === 0 ? undefined : Number(samples[0]!.value[1]));

  before(async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const databaseUrl = `${url}${url!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    gateway = await startGateway({ DATABASE_URL: databaseUrl, GATEWAY_PROCESSES: '2', ADMIN_TOKEN: adminToken });
    const output = gateway.output();
    merchant = { entityId: /entityId:\s+(\w+)/.exec(output)![1]!, accessToken: /accessToken:\s+(\S+)/.exec(output)![1]! };

    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    writeFileSync(join(storage, 'admin-token'), adminToken, { mode: 0o600 });
    writeFileSync(
      join(storage, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, scrape_timeout: 1s, evaluation_interval: 1s }',
        `rule_files: ['${new URL('ops/prometheus/alerts.yml', ROOT).pathname}']`,
        'scrape_configs:',
        '  - job_name: gateway',
        '    authorization: { type: Bearer, credentials_file: admin-token }',
        `    static_configs: [{ targets: ['${new URL(gateway.url).host}'] }]`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(PROMETHEUS, [`--config.file=${join(storage, 'prometheus.yml')}`, `--storage.tsdb.path=${join(storage, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
    prometheus.stdout!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    prometheus.stderr!.on('data', (chunk: Buffer) => (prometheusLog += chunk.toString()));
    prometheus.once('exit', (code) => (prometheusLog += `\n[prometheus exited with ${code}]`));
    await eventually('Prometheus ready', () => fetch(`${prometheusUrl}/-/ready`).then((r) => r.status), (status) => status === 200).catch((error: Error) => {
      throw new Error(`${error.message}\n${prometheusLog}`);
    });
  });

  after(async () => {
    if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
      const exited = once(prometheus, 'exit');
      prometheus.kill('SIGTERM');
      const timer = setTimeout(() => prometheus?.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await gateway?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
    rmSync(storage, { recursive: true, force: true });
  });

  it('reads the node\'s payments, from both processes, through the HTTP API of Prometheus', async () => {
    const up = await eventually('up == 1', () => query('up{job="gateway"}').then(scalar), (value) => value === 1).catch((error: Error) => {
      throw new Error(`${error.message}\n${prometheusLog}`);
    });
    assert.equal(up, 1);

    for (let n = 1; n <= PAYMENTS; n++) await pay(`${n}.00`);
    // Each connection went to the next process: both served payments (pino's lines carry the pid).
    const servedBy = new Set(gateway!.output().split('\n').filter((line) => line.includes('/v1/payments')).map((line) => /"pid":(\d+)/.exec(line)?.[1]).filter(Boolean));
    assert.equal(servedBy.size, 2, `the payments were served by two processes (${[...servedBy].join(', ')})`);
    assert.ok(!servedBy.has(String(gateway!.child.pid)), 'not by the primary');

    const requests = await eventually(
      'the payments in Prometheus',
      () => query('sum(http_server_request_duration_seconds_count{job="gateway", http_route="/v1/payments"})').then(scalar),
      (value) => value !== undefined && value >= PAYMENTS,
    );
    assert.equal(requests, PAYMENTS, 'one scrape of the node counts every payment of both processes, once');
    assert.equal(scalar(await query('sum(http_server_request_duration_seconds_count{job="gateway", http_route="/v1/payments", http_response_status_code="200"})')), PAYMENTS);

    // The payment series, through Prometheus: every payment of both processes, once, with its labels.
    assert.equal(scalar(await query('sum(gateway_payments_total{job="gateway"})')), PAYMENTS);
    assert.equal(scalar(await query('sum(gateway_payments_total{job="gateway", payment_type="DB", outcome="success"})')), PAYMENTS);
    // 1.00 + 2.00 + … + 12.00, in the currency's major unit.
    assert.equal(scalar(await query('sum(gateway_payment_amount_total{job="gateway", currency="EUR", payment_type="DB"})')), (PAYMENTS * (PAYMENTS + 1)) / 2);

    const build = await query('gateway_build_info{job="gateway"}');
    const version = (JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string }).version;
    assert.equal(build.length, 1, 'one build series for the node');
    assert.equal(build[0]!.metric['version'], version);
    assert.equal(build[0]!.value[1], '1');
  });

  it('evaluates every rule of ops/prometheus/alerts.yml without error, on the gateway\'s real series', async () => {
    // Prometheus takes a series' first sample as its start: rates need increases it has seen.
    for (let n = 1; n <= 3; n++) await pay(`${n}.50`);
    type Rule = { name: string; type: string; health: string; lastError?: string };
    const rules = await eventually(
      'every rule evaluated',
      async () => {
        const body = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as { data: { groups: { rules: Rule[] }[] } };
        return body.data.groups.flatMap((group) => group.rules);
      },
      (all) => all.length > 0 && all.every((rule) => rule.health !== 'unknown'),
    );
    assert.deepEqual(rules.filter((rule) => rule.health !== 'ok').map((rule) => `${rule.name}: ${rule.lastError}`), []);
    assert.ok(rules.filter((rule) => rule.type === 'alerting').length >= 15);
    // A recording rule over the real request counts: the rules name what the gateway exports.
    const requests = await eventually('job:http_server_requests:rate5m', () => query('job:http_server_requests:rate5m{job="gateway"}').then(scalar), (value) => value !== undefined && value > 0);
    assert.ok(requests! > 0);
    assert.deepEqual(await query('ALERTS{alertstate="firing"}'), [], 'a healthy gateway fires nothing');
  });

  it('answers every query of the Grafana dashboard, and the request panels show the payments', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('ops/grafana/gateway-dashboard.json', ROOT), 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const asGrafana = (expr: string) =>
      expr.replaceAll('$job', 'gateway').replaceAll('$instance', '.*').replaceAll('$connector', '.*').replaceAll('$__rate_interval', '1m').replaceAll('$__range', '10m');
    const targets = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ title: panel.title, expr: asGrafana(target.expr) })));
    assert.ok(targets.length >= 40);
    // Every query parses and runs (query() throws on Prometheus's error answer).
    for (const target of targets) await query(target.expr);
    const panelQuery = (title: string) => targets.find((target) => target.title === title)!.expr;
    await pay('4.75');
    const byRoute = await eventually('payments in "Requests per second by route"', () => query(panelQuery('Requests per second by route')), (samples) =>
      samples.some((sample) => sample.metric['http_route'] === '/v1/payments' && Number(sample.value[1]) > 0),
    );
    assert.ok(byRoute.length >= 1);
    assert.equal((await query(panelQuery('Build'))).length, 1);
  });
});
