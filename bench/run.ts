/**
 * `npm run bench`: the gateway under load, in its own process on PostgreSQL, beside two floors
 * measured at the same concurrency: a bare Fastify form POST (the HTTP floor) and a plain `pg`
 * pool inserting payment-sized rows (the database floor).
 *
 *   npm run bench [-- --profile] [-- --scale-out] [-- --ha]
 *
 * Environment: BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local test database),
 * BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10 per phase), BENCH_WARMUP_SECONDS (3),
 * BENCH_POOL_SIZE (10, the gateway's default DATABASE_POOL_SIZE; the insert floor uses the same),
 * BENCH_PA_COUNT (2000 PAs created for the capture phase), BENCH_PENDING_COUNT (2000 pending DBs
 * the resolution phase ends by status checks), BENCH_SCHEDULES_ACTIVE and BENCH_SCHEDULES_DUE (10000
 * schedules, 2000 due in one second: the scheduled-runs row), BENCH_SCHEDULES_MINUTE_DUE (100000 due in one
 * minute, on a schema of their own: the second scheduled-runs row; 0 leaves it out), BENCH_RISK_ATTEMPTS, BENCH_RISK_LIST_ENTRIES and BENCH_RISK_CHECKS
 * (the risk rows, bench/risk.ts), BENCH_SETTLEMENT_RECORDS (1000000: the settlement rows, ingest+matching
 * and the merchant's file of the day), BENCH_SETTLEMENT_FILE_RECORDS (3000000: the acquirer host's settlement
 * file through the ISO 8583 feed, time and peak RSS), BENCH_GATEWAY_PROCESSES (2: the DB phase again
 * with GATEWAY_PROCESSES=2; 1 leaves it out).
 * BENCH_OBSERVABILITY_ROUNDS (8 rounds of payments with metrics and tracing off, metrics on, and
 * every request traced: the observability rows, bench/observability.ts).
 * BENCH_WIDGET_LOADS (20 cold loads of the payment widget in Chromium per layout: its rows).
 * BENCH_CONSOLE_ROWS (10000000: the console search rows, bench/console-search.ts; measured only when
 * `npm run bench:console` has seeded them, and with them the A/B write cost of migration 048 over
 * BENCH_CONSOLE_ROUNDS rounds); the console overview rows (bench/console-overview.ts) over the same seed
 * or the overview's own (`npm run bench:console-overview` seeds it).
 * --ha: DB payments through HAProxy to the synchronous three-node cluster of ops/ha/ beside the
 * single PostgreSQL (bench/ha.ts; BENCH_HA_ROUNDS, 2); left out when patroni, etcd or haproxy is missing.
 * Writes bench/results/<yyyy-mm-dd>.json and the table in docs/performance.md.
 */
import { parseArgs } from 'node:util';
import { measureHttpFloor } from './floors/http-floor.js';
import { measureInsertFloor } from './floors/insert-floor.js';
import { describePhase, type PhaseResult } from './load.js';
import { describeProfile, type ProfileSummary } from './support/cpu-profile.js';
import { startGatewayProcess } from './support/gateway.js';
import { asyncPaymentPhase, cardPaymentBody, completionPhase, getPhase, openRedirectIds, paymentPhase, referencePhase, roundTripOf, checkoutPhase, openCheckoutIds, widgetPaymentPhase, storedPaymentRow, successfulIds, type Merchant, type PhaseSettings } from './support/gateway-phases.js';
import { challengeCompletionPhase, challengeStartPhase } from './support/challenge-phase.js';
import { largestMemoryOf } from './support/node-process.js';
import { createBenchSchema, createMerchant, serverVersion, type BenchSchema } from './support/postgres.js';
import { profileGateway } from './support/profile-run.js';
import { describeMachine, writeResults } from './support/report.js';
import { checkTargets, renderBenchmarkTable, type BenchRecord } from './support/bench-record.js';
import { runScaleOut } from './scale-out.js';
import { runHaBench } from './ha.js';
import { resolutionPhase } from './support/resolution-phase.js';
import { schedulePhase } from './support/schedule-phase.js';
import { minuteSettings, scheduleRow, scheduleSettings } from './schedules.js';
import { riskPhases } from './risk.js';
import { describeWidget, measureWidget } from './widget.js';
import { iso8583Settings } from './iso8583.js';
import { describeInFlight, iso8583Phases } from './support/iso8583-phase.js';
import { threeDsPhases } from './support/three-ds-phase.js';
import { settlementPhases } from './support/settlement-phase.js';
import { settlementSettings } from './settlement.js';
import { observabilityPhases } from './observability.js';
import { consoleSearchBench, consoleSettings, consoleSummary } from './console-search.js';
import { consoleOverviewBench, overviewSummary } from './console-overview.js';
import { measureOverviewPathCost } from './support/overview-path-cost.js';
import { measureWriteCost } from './support/console-write-cost.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export const settings = {
  connections: envNumber('BENCH_CONNECTIONS', 64),
  durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10),
  warmUpSeconds: envNumber('BENCH_WARMUP_SECONDS', 3),
  poolSize: envNumber('BENCH_POOL_SIZE', 10),
  paCount: envNumber('BENCH_PA_COUNT', 2000),
  /** Pending payments (9.99) the resolution phase makes and resolves. */
  pendingCount: envNumber('BENCH_PENDING_COUNT', 2000),
  /** GATEWAY_PROCESSES of the extra DB phase; 1 leaves that phase out. */
  gatewayProcesses: envNumber('BENCH_GATEWAY_PROCESSES', 2),
};

const { values: flags } = parseArgs({ options: { profile: { type: 'boolean', default: false }, 'scale-out': { type: 'boolean', default: false }, ha: { type: 'boolean', default: false } } });

function report(phase: PhaseResult): PhaseResult {
  console.log(describePhase(phase));
  return phase;
}

let checkpointRefused = false;

/**
 * A CHECKPOINT before each measured phase: a phase writes hundreds of MB of WAL, so the checkpoint
 * it forces (max_wal_size) would otherwise land in the next phase, typically the insert floor that
 * is measured right after the DB phase, and flatter the ratio. Needs superuser or pg_checkpoint;
 * without it the phases run as they come, and the run says so.
 */
async function checkpoint(schema: BenchSchema): Promise<void> {
  if (checkpointRefused) return;
  try {
    await schema.admin.query('CHECKPOINT');
  } catch (error) {
    checkpointRefused = true;
    console.log(`no CHECKPOINT between phases (${(error as Error).message}): phases may pay for each other's checkpoints`);
  }
}

/**
 * VACUUM (ANALYZE) of the schema's tables, then a CHECKPOINT, after phases that wrote hundreds of
 * thousands of rows (the risk rounds, a million settlement records): otherwise what those rows
 * still cost lands in the next phase (with autovacuum its insert-driven runs; without it, as on
 * the machines this was measured on, hint bits set by the first reads and statistics of tables
 * far smaller). The ISO 8583 rows measured p99 60–84 ms after the risk rounds without it, 43–55
 * ms with it, 42–45 ms alone (docs/performance.md, tenth session).
 */
async function settleDatabase(schema: BenchSchema): Promise<void> {
  const { rows } = await schema.admin.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename');
  for (const { tablename } of rows) await schema.admin.query(`VACUUM (ANALYZE) ${schema.admin.escapeIdentifier(tablename)}`);
  await checkpoint(schema);
}

async function measureInsert(schema: BenchSchema, label: string): Promise<PhaseResult> {
  await checkpoint(schema);
  const template = await storedPaymentRow(schema.admin);
  return measureInsertFloor({ url: schema.url, concurrency: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds, template, label });
}

async function measureGateway(schema: BenchSchema): Promise<{ phases: PhaseResult[]; peakRssMiB: number; merchant: Merchant; insertFloor: PhaseResult }> {
  const gateway = await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize });
  try {
    const merchant = await createMerchant(schema.url);
    const phase: PhaseSettings = { url: gateway.url, connections: settings.connections, durationSeconds: settings.durationSeconds, pid: gateway.pid };
    // JIT, pool connections and the token cache warm up first, as on a gateway that has been running.
    report(await paymentPhase('warm-up (not counted)', { ...phase, durationSeconds: settings.warmUpSeconds }, merchant, 'DB'));
    await checkpoint(schema);
    const phases = [report(await paymentPhase('POST /v1/payments DB', phase, merchant, 'DB'))];
    // The floor the DB phase is compared with, measured right after it (the gateway idle), so
    // that the host's speed, which drifts over minutes on a shared machine, is the same for both.
    const insertFloor = report(await measureInsert(schema, ', after the DB phase'));
    const dbIds = await successfulIds(schema.admin, 'DB');
    await checkpoint(schema);
    phases.push(report(await getPhase(phase, merchant, dbIds)));
    report(await paymentPhase(`setup: ${settings.paCount} PAs (not counted)`, phase, merchant, 'PA', settings.paCount));
    const paIds = await successfulIds(schema.admin, 'PA');
    await checkpoint(schema);
    phases.push(report(await referencePhase('POST /v1/payments/{id} CP', phase, merchant, 'CP', paIds)));
    await checkpoint(schema);
    phases.push(report(await referencePhase('POST /v1/payments/{id} RF', phase, merchant, 'RF', dbIds)));
    // Asynchronous payments: the first answer (pending with a redirect) against the DB phase, and
    // the shopper's completion of each redirect made.
    await checkpoint(schema);
    const start = report(await asyncPaymentPhase('POST /v1/payments DB PAYPAL (redirect)', phase, merchant));
    phases.push(start);
    const redirectIds = await openRedirectIds(schema.admin);
    await checkpoint(schema);
    const complete = report(await completionPhase(phase, redirectIds));
    phases.push(complete, report(roundTripOf(start, complete)));
    // Checkouts: the merchant server's creation, then the widget's card payment of each.
    await checkpoint(schema);
    phases.push(report(await checkoutPhase(phase, merchant)));
    const checkoutIds = await openCheckoutIds(schema.admin);
    await checkpoint(schema);
    phases.push(report(await widgetPaymentPhase(phase, checkoutIds)));
    // 3-D Secure challenges: the payments' first answers (a redirect to the simulated ACS), then the shopper's code on its page.
    await checkpoint(schema);
    report(await challengeStartPhase(phase, merchant));
    const challengeIds = await openRedirectIds(schema.admin, 'challenge');
    await checkpoint(schema);
    phases.push(report(await challengeCompletionPhase(phase, challengeIds)));
    const peakRssMiB = largestMemoryOf(gateway.pid)?.peakRssMiB ?? 0;
    console.log(`gateway peak RSS (VmHWM): ${peakRssMiB.toFixed(0)} MiB`);
    return { phases, peakRssMiB, merchant, insertFloor };
  } finally {
    await gateway.stop();
  }
}

/** The DB phase again with GATEWAY_PROCESSES processes on the same port (PostgreSQL only). */
async function measureProcesses(schema: BenchSchema, merchant: Merchant): Promise<{ phase: PhaseResult; peakRssMiB: number; insertFloor: PhaseResult }> {
  const gateway = await startGatewayProcess({ databaseUrl: schema.url, poolSize: settings.poolSize, env: { GATEWAY_PROCESSES: String(settings.gatewayProcesses) } });
  try {
    const phase: PhaseSettings = { url: gateway.url, connections: settings.connections, durationSeconds: settings.durationSeconds, pid: gateway.pid };
    report(await paymentPhase('warm-up (not counted)', { ...phase, durationSeconds: settings.warmUpSeconds }, merchant, 'DB'));
    await checkpoint(schema);
    const result = report(await paymentPhase(`POST /v1/payments DB, ${settings.gatewayProcesses} processes`, phase, merchant, 'DB'));
    const peakRssMiB = largestMemoryOf(gateway.pid)?.peakRssMiB ?? 0;
    const insertFloor = report(await measureInsert(schema, `, after the DB phase of ${settings.gatewayProcesses} processes`));
    return { phase: result, peakRssMiB, insertFloor };
  } finally {
    await gateway.stop();
  }
}

async function measureHttp(merchant: Merchant): Promise<PhaseResult> {
  const body = new URLSearchParams(cardPaymentBody(merchant, 'DB', 0)).toString();
  return report(await measureHttpFloor({ connections: settings.connections, durationSeconds: settings.durationSeconds, body }));
}

async function main(): Promise<void> {
  const schema = await createBenchSchema('bench_gateway');
  try {
    const machine = describeMachine(await serverVersion(schema.admin));
    console.log(`gateway benchmark: ${settings.connections} connections, ${settings.durationSeconds} s per phase, pool ${settings.poolSize}, schema ${schema.name}`);
    const gateway = await measureGateway(schema);
    await checkpoint(schema);
    // A gateway of its own, with status checks due a second after creation (errors: rows left pending).
    const resolution = report(await resolutionPhase({ schemaUrl: schema.url, admin: schema.admin, merchant: gateway.merchant, connections: settings.connections, poolSize: settings.poolSize, count: settings.pendingCount }));
    gateway.phases.push(resolution);
    await checkpoint(schema);
    // A gateway of its own whose job worker makes the runs of schedules due in one second.
    gateway.phases.push(report(await schedulePhase({ schemaUrl: schema.url, admin: schema.admin, merchant: gateway.merchant, connections: settings.connections, poolSize: settings.poolSize, ...scheduleSettings })));
    // A subscription business's first of the month: a hundred thousand runs due in one minute (a schema of its own).
    if (minuteSettings.due > 0) gateway.phases.push(report(await scheduleRow(minuteSettings, { connections: settings.connections, poolSize: settings.poolSize })));
    await checkpoint(schema);
    // Payments with the default risk rules against risk disabled, and the velocity check's cost.
    gateway.phases.push(...(await riskPhases(schema, gateway.merchant, { connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds })).map(report));
    // What metrics and tracing cost a payment: off, metrics, metrics and full-sampling traces, side by side.
    await checkpoint(schema);
    const observability = await observabilityPhases(schema.url, gateway.merchant, { connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds });
    gateway.phases.push(...observability.phases.map(report));
    // Issue 31: the console search over the seeded ten million rows (when seeded), and its indexes' write cost.
    await checkpoint(schema);
    const consoleBench = await consoleSearchBench(console.log, false);
    const consoleWriteCost = consoleBench ? await measureWriteCost({ rounds: consoleSettings.rounds, connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds }) : undefined;
    // Issue 32: the console overview over the same seed (when seeded): page p95, rollup fill times.
    const overviewBench = await consoleOverviewBench(console.log, false);
    // Issue 32: what the overview's rollup job costs a payment (its CPU per payment rolled up).
    await checkpoint(schema);
    const overviewPathCost = await measureOverviewPathCost({ rounds: 3, connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds });
    // The payment widget in Chromium: its gzipped size and the time from script to usable form, a row per layout.
    for (const widget of await measureWidget()) {
      console.log(describeWidget(widget));
      gateway.phases.push(widget.phase);
    }
    // ISO 8583: payments through the acquirer host emulator beside the simulator path, and the connector's pool alone.
    await settleDatabase(schema);
    for (const phase of await iso8583Phases({ schemaUrl: schema.url, merchant: gateway.merchant, connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds, ...iso8583Settings })) {
      gateway.phases.push(report(phase));
      if (phase.messagesInFlight) console.log(describeInFlight(phase));
    }
    // 3-D Secure (issue 37): authenticated payments through the EMV 3DS connector to the emulator, beside the simulation.
    await settleDatabase(schema);
    gateway.phases.push(...(await threeDsPhases({ schemaUrl: schema.url, merchant: gateway.merchant, connections: settings.connections, poolSize: settings.poolSize, durationSeconds: settings.durationSeconds })).map(report));
    // Settlement of a day: ingest and matching, then a merchant's reconciliation file (this process).
    await checkpoint(schema);
    gateway.phases.push(...(await settlementPhases({ schemaUrl: schema.url, admin: schema.admin, merchantId: gateway.merchant.entityId, ...settlementSettings })).map(report));
    await settleDatabase(schema);
    const processes = settings.gatewayProcesses > 1 ? await measureProcesses(schema, gateway.merchant) : undefined;
    const floors = { http: await measureHttp(gateway.merchant), insert: gateway.insertFloor };
    let profile: ProfileSummary | undefined;
    if (flags.profile) {
      profile = await profileGateway(schema.url, gateway.merchant, settings);
      console.log(describeProfile(profile));
    }
    const record: BenchRecord = {
      date: new Date().toISOString(),
      machine,
      settings,
      gateway: { phases: gateway.phases, peakRssMiB: gateway.peakRssMiB },
      floors,
      ...checkTargets(gateway.phases[0]!, floors, gateway.peakRssMiB, gateway.phases),
      ...(processes ? { processes: { count: settings.gatewayProcesses, ...processes, ...checkTargets(processes.phase, { ...floors, insert: processes.insertFloor }, processes.peakRssMiB) } } : {}),
      ...(profile ? { profile } : {}),
      observability: observability.cost,
      ...(consoleBench && consoleWriteCost ? { consoleSearch: { ...consoleSummary(consoleBench), writeCost: consoleWriteCost } } : {}),
      ...(overviewBench ? { consoleOverview: overviewSummary(overviewBench) } : {}),
      consoleOverviewPathCost: { fewerPaymentsPerSecondByCpu: overviewPathCost.fewerPaymentsPerSecondByCpu, rounds: overviewPathCost.rounds.length },
    };
    if (flags['scale-out']) record.scaleOut = await runScaleOut(settings);
    if (flags.ha) record.ha = await runHaBench({ ...settings, rounds: envNumber('BENCH_HA_ROUNDS', 2) });
    const file = writeResults(record);
    const table = renderBenchmarkTable(record);
    console.log(`\n${table}\n\nwritten to ${file}`);
  } finally {
    await schema.drop();
  }
}

await main();
