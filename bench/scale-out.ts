/**
 * Scale-out check: two gateway processes on one PostgreSQL schema under the same load, each
 * taking half the connections; then both capture and refund the same few parents far beyond
 * what those hold, and SQL checks that no money was invented: no duplicate ids, no parent
 * captured or refunded above its amount, parents' totals equal to their successful children,
 * and as many successes stored as were answered.
 *
 *   npm run bench:scale-out        (or npm run bench -- --scale-out)
 *
 * Environment: as npm run bench (BENCH_DATABASE_URL, BENCH_CONNECTIONS, BENCH_DURATION_SECONDS …).
 * Writes bench/results/<yyyy-mm-dd>-scale-out.json when run on its own.
 */
import { pathToFileURL } from 'node:url';
import { describePhase, formRequest, runPhase, type PhaseResult } from './load.js';
import { startGatewayProcess } from './support/gateway.js';
import { CARD_PAYMENT, paymentPhase, type Merchant } from './support/gateway-phases.js';
import { countByTypeAndStatus, runLedgerChecks } from './support/ledger-checks.js';
import type { NodeProcess } from './support/node-process.js';
import { createBenchSchema, createMerchant, serverVersion, type BenchSchema } from './support/postgres.js';
import { describeMachine, machineLine, updatePerformanceDoc, writeResults } from './support/report.js';
import { combine, renderScaleOutTable, type ScaleOutRecord, type TwoProcessResult } from './support/scale-out-record.js';

export interface ScaleOutSettings {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly warmUpSeconds: number;
  readonly poolSize: number;
}

/** Parents of the contention phase, 10.00 each: 10 captures or refunds of 1.00 use one up. */
const CONTENDED_PARENTS = 10;
const PARENT_AMOUNT = '10.00';
const PARENT_AMOUNT_MINOR = 1000;
const CHILD_AMOUNT_MINOR = 100;

async function createParent(gateway: NodeProcess, merchant: Merchant, paymentType: 'PA' | 'DB'): Promise<string> {
  const response = await fetch(`${gateway.url}/v1/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${merchant.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ entityId: merchant.entityId, paymentType, ...CARD_PAYMENT, amount: PARENT_AMOUNT }),
  });
  const body = (await response.json()) as { id?: string };
  if (response.status !== 200 || !body.id) throw new Error(`parent ${paymentType} failed: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

async function onBoth(gateways: readonly NodeProcess[], phase: (gateway: NodeProcess, connections: number) => Promise<PhaseResult>, connections: number): Promise<TwoProcessResult> {
  const results = await Promise.all(gateways.map((gateway) => phase(gateway, Math.max(1, Math.floor(connections / gateways.length)))));
  results.forEach((r) => console.log(describePhase(r)));
  return combine(results);
}

/** Every request is a CP of one of the PAs or an RF of one of the DBs, 1.00 each, from both processes. */
async function contentionPhase(gateways: readonly NodeProcess[], merchant: Merchant, settings: ScaleOutSettings) {
  const pas = await Promise.all(Array.from({ length: CONTENDED_PARENTS }, () => createParent(gateways[0]!, merchant, 'PA')));
  const dbs = await Promise.all(Array.from({ length: CONTENDED_PARENTS }, () => createParent(gateways[1]!, merchant, 'DB')));
  const result = await onBoth(gateways, (gateway, connections) => runPhase({
    name: `contention on ${CONTENDED_PARENTS}+${CONTENDED_PARENTS} parents, port ${new URL(gateway.url).port}`,
    url: gateway.url,
    connections,
    durationSeconds: Math.max(3, Math.round(settings.durationSeconds / 2)),
    pid: gateway.pid,
    request: (i) => {
      const capture = i % 2 === 0;
      const parent = (capture ? pas : dbs)[Math.floor(i / 2) % CONTENDED_PARENTS]!;
      return formRequest(`/v1/payments/${parent}`, merchant.accessToken, { entityId: merchant.entityId, paymentType: capture ? 'CP' : 'RF', amount: '1.00', currency: 'EUR' });
    },
  }), settings.connections);
  return { result, parentIds: [...pas, ...dbs] };
}

async function storedChildSuccesses(schema: BenchSchema, parentIds: readonly string[]): Promise<number> {
  const { rows } = await schema.admin.query<{ n: string }>(
    `SELECT count(*) AS n FROM transactions WHERE parent_id = ANY($1::char(32)[]) AND status = 'success'`, [parentIds]);
  return Number(rows[0]?.n ?? 0);
}

async function measure(schema: BenchSchema, gateways: readonly NodeProcess[], settings: ScaleOutSettings): Promise<ScaleOutRecord> {
  const merchant = await createMerchant(schema.url);
  const phase = (gateway: NodeProcess, connections: number, durationSeconds: number, name: string) =>
    paymentPhase(name, { url: gateway.url, connections, durationSeconds, pid: gateway.pid }, merchant, 'DB');
  await onBoth(gateways, (g, c) => phase(g, c, settings.warmUpSeconds, 'warm-up (not counted)'), settings.connections);
  const onePaymentProcess = await phase(gateways[0]!, settings.connections, settings.durationSeconds, 'DB, one process');
  console.log(describePhase(onePaymentProcess));
  const twoPaymentProcesses = await onBoth(gateways, (g, c) => phase(g, c, settings.durationSeconds, `DB, two processes, port ${new URL(g.url).port}`), settings.connections);
  console.log(`two processes together: ${twoPaymentProcesses.requestsPerSecond.toFixed(0)} payments/s (one process: ${onePaymentProcess.requestsPerSecond.toFixed(0)})`);
  const { result, parentIds } = await contentionPhase(gateways, merchant, settings);
  const answeredSuccess = result.perProcess.reduce((sum, p) => sum + (p.statusCodes['200'] ?? 0), 0);
  const serverErrors = result.perProcess.reduce((sum, p) => sum + Object.entries(p.statusCodes).filter(([code]) => code >= '500').reduce((n, [, c]) => n + c, 0), 0);
  const contention = {
    ...result,
    parents: parentIds.length,
    answeredSuccess,
    storedSuccess: await storedChildSuccesses(schema, parentIds),
    expectedSuccess: (parentIds.length * PARENT_AMOUNT_MINOR) / CHILD_AMOUNT_MINOR,
    serverErrors,
  };
  const ledger = await runLedgerChecks(schema.admin);
  const correct = Object.values(ledger).every((n) => n === 0) && contention.errors === 0 && serverErrors === 0 &&
    answeredSuccess === contention.storedSuccess && contention.storedSuccess === contention.expectedSuccess &&
    twoPaymentProcesses.errors === 0 && twoPaymentProcesses.non2xx === 0;
  return { onePaymentProcess, twoPaymentProcesses, contention, ledger, rows: await countByTypeAndStatus(schema.admin), correct };
}

export async function runScaleOut(settings: ScaleOutSettings): Promise<ScaleOutRecord> {
  const schema = await createBenchSchema('bench_scale');
  const gateways: NodeProcess[] = [];
  try {
    // One after the other: the first start runs the migrations.
    gateways.push(await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize }));
    gateways.push(await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize }));
    const machine = machineLine(describeMachine(await serverVersion(schema.admin)));
    const record = await measure(schema, gateways, settings);
    if (!updatePerformanceDoc('scale-out', renderScaleOutTable(record, new Date().toISOString(), machine))) console.warn('docs/performance.md has no scale-out markers');
    const { contention: c } = record;
    console.log(`contention: ${c.answeredSuccess} answered 200, ${c.storedSuccess} stored as success, ${c.expectedSuccess} expected; ` +
      `server errors ${c.serverErrors}; ledger ${JSON.stringify(record.ledger)} → ${record.correct ? 'correct' : 'NOT CORRECT'}`);
    return record;
  } finally {
    await Promise.all(gateways.map((g) => g.stop()));
    await schema.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
  const record = await runScaleOut({
    connections: env('BENCH_CONNECTIONS', 64),
    durationSeconds: env('BENCH_DURATION_SECONDS', 10),
    warmUpSeconds: env('BENCH_WARMUP_SECONDS', 3),
    poolSize: env('BENCH_POOL_SIZE', 10),
  });
  console.log(`written to ${writeResults({ date: new Date().toISOString(), scaleOut: record }, '-scale-out')}`);
  if (!record.correct) process.exitCode = 1;
}
