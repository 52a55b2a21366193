/**
 * The console overview rows of `npm run bench`, on their own:
 *
 *   npm run bench:console-overview
 *
 * BENCH_CONSOLE_ROWS (10 million) transactions over 90 days: the console search's seed
 * (console_search_seed) when it holds that many, or else a seed of the same shape in a schema of
 * this benchmark's own (console_overview_seed_<rows>; bench/support/console-seed.ts, reused by
 * later runs). Then, through the operations the page and the job use:
 *
 * - the rollup's first fill of the whole history (the job's steps, a day each), and one more day;
 * - p50/p95 of the overview for an operator (30 days, 7 days, one day; one merchant), for
 *   merchants' people (the biggest and the smallest merchant), with the watermark a whole day
 *   behind (what the page reads live when the job has stalled a day) and caught up, and the page
 *   rendered through app.inject. Target: p95 under 500 ms at ten million;
 * - the same figures read from transactions alone (no rollup), the alternative the rollup replaces.
 *
 * The payment path itself writes nothing for the overview (the job reads behind it), so its cost
 * in payments/s is that of the job's work per payment: `-- --payment-path` measures it
 * (bench/support/overview-path-cost.ts).
 * BENCH_CONSOLE_SAMPLES (20) samples a row.
 */
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import pg from 'pg';
import type { Visibility } from '../src/domain/access/actor.js';
import { parseOverviewForm, type OverviewRequest } from '../src/domain/overview/overview-period.js';
import { registerConsole } from '../src/console/console-plugin.js';
import { registerOverview } from '../src/console/areas/overview.js';
import { loadOverview } from '../src/operations/overview/load-overview.js';
import { OVERVIEW_LAG_MS, rollUpOverview } from '../src/operations/overview/roll-up-overview.js';
import { loadConfig } from '../src/config/load-config.js';
import { randomIds } from '../src/domain/ids.js';
import { migrate } from '../src/storage/migrate.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import type { Queryable, Storage } from '../src/storage/port.js';
import { overviewCells } from '../src/storage/repositories/overview-rollup.js';
import { benchDatabaseUrl } from './support/postgres.js';
import { findSeededSchema, SEED_MERCHANTS, seededSchema, type SeededSchema } from './support/console-seed.js';
import { describeMachine, writeResults } from './support/report.js';
import { measureOverviewPathCost } from './support/overview-path-cost.js';
import { percentile, round } from './support/stats.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const overviewSettings = {
  rows: envNumber('BENCH_CONSOLE_ROWS', 10_000_000),
  samples: envNumber('BENCH_CONSOLE_SAMPLES', 20),
};

/** The seed's last day is 2026-10-29 (90 days from 2026-08-01); "now" is the morning after. */
const SEED_END = new Date('2026-10-30T00:00:00Z');
const NOW = new Date(SEED_END.getTime() + 6 * 3_600_000);
const OPERATOR: Visibility = { kind: 'all' };

export interface OverviewRow { readonly name: string; readonly p50Ms: number; readonly p95Ms: number; readonly maxMs: number }
export interface OverviewBench {
  readonly rows: number;
  readonly schema: string;
  readonly firstFillSeconds: number;
  readonly lastDaySeconds: number;
  readonly rollupRows: number;
  readonly behind: OverviewRow[];
  readonly caughtUp: OverviewRow[];
  readonly withoutRollup: OverviewRow;
}

async function timed(name: string, samples: number, run: () => Promise<unknown>): Promise<OverviewRow> {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = process.hrtime.bigint();
    await run();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  ms.sort((a, b) => a - b);
  const row = { name, p50Ms: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)), maxMs: round(ms[ms.length - 1]!) };
  console.log(`  ${name}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms, max ${row.maxMs} ms`);
  return row;
}

const period = (query: Record<string, string>): OverviewRequest => {
  const parsed = parseOverviewForm(query, new Date(SEED_END.getTime() - 1));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.request;
};

const CASES: ReadonlyArray<readonly [string, Record<string, string>, Visibility]> = [
  ['operator, 30 days', { period: '30d' }, OPERATOR],
  ['operator, 7 days', { period: '7d' }, OPERATOR],
  ['operator, one day', { period: 'today' }, OPERATOR],
  ['operator, 30 days, one merchant (the smallest)', { period: '30d', merchant: SEED_MERCHANTS[3].id }, OPERATOR],
  ['merchant person (biggest merchant), 30 days', { period: '30d' }, { kind: 'merchant', merchantId: SEED_MERCHANTS[0].id }],
  ['merchant person (smallest merchant), 30 days', { period: '30d' }, { kind: 'merchant', merchantId: SEED_MERCHANTS[3].id }],
  ['operator, 90 days (custom)', { period: 'custom', from: '2026-08-01', to: '2026-10-29' }, OPERATOR],
];

async function measureCases(storage: Storage, samples: number, label: string): Promise<OverviewRow[]> {
  const rows: OverviewRow[] = [];
  for (const [name, query, who] of CASES) rows.push(await timed(`${name} (${label})`, samples, () => loadOverview({ storage }, who, period(query))));
  return rows;
}

/** The page as a person gets it: the console's overview route, an operator signed in, rendered. */
async function measurePage(storage: Storage, samples: number): Promise<OverviewRow> {
  const app = Fastify();
  await app.register(formbody);
  app.decorate('gateway', { storage, config: loadConfig({}), clock: { now: () => new Date(SEED_END.getTime() - 1) }, ids: randomIds, payments: {} } as never);
  app.addHook('onRequest', async (request) => {
    request.consoleUser = { id: 'b'.repeat(32), email: 'operator@example.com', role: 'operator-read-only', merchantId: null, sessionId: 's' };
  });
  await registerConsole(app, [registerOverview]);
  try {
    return await timed('GET /console/overview?period=30d (operator, app.inject, rendered)', samples, async () => {
      const response = await app.inject({ method: 'GET', url: '/console/overview?period=30d' });
      if (response.statusCode !== 200) throw new Error(`page answered ${response.statusCode}`);
    });
  } finally {
    await app.close();
  }
}

/** The figures from transactions alone: the rollup emptied and the watermark unset, inside a transaction rolled back. */
async function measureWithoutRollup(url: string): Promise<OverviewRow> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const db: Queryable = { query: async (sql, params) => { const r = await client.query(sql, params as unknown[]); return { rows: r.rows, rowCount: r.rowCount ?? 0 }; } };
  try {
    await client.query('BEGIN');
    await client.query('DELETE FROM overview_daily');
    await client.query('UPDATE overview_watermark SET rolled_until = NULL');
    const request = period({ period: '30d' });
    return await timed('operator, 30 days, from transactions alone (no rollup)', 3, () => overviewCells(db, { from: request.from, to: request.to, entityIds: null }));
  } finally {
    await client.query('ROLLBACK');
    await client.end();
  }
}

const OWN_SCHEMA = `console_overview_seed_${overviewSettings.rows}`;

/** The console search's seed, or this benchmark's own; seeded now when neither is there and `seedWhenMissing`. */
async function seeded(log: (line: string) => void, seedWhenMissing: boolean): Promise<SeededSchema | undefined> {
  const base = benchDatabaseUrl();
  const found = (await findSeededSchema(base, overviewSettings.rows)) ?? (await findSeededSchema(base, overviewSettings.rows, OWN_SCHEMA));
  if (found || !seedWhenMissing) return found;
  return seededSchema(base, overviewSettings.rows, log, OWN_SCHEMA);
}

export async function consoleOverviewBench(log: (line: string) => void = console.log, seedWhenMissing = true): Promise<OverviewBench | undefined> {
  const schema = await seeded(log, seedWhenMissing);
  if (!schema) {
    log(`console overview rows left out: no seeded schema of ${overviewSettings.rows} transactions; \`npm run bench:console-overview\` (or bench:console) seeds one`);
    return undefined;
  }
  log(`console overview over ${schema.rows.toLocaleString('en')} transactions (schema ${schema.name})`);
  const storage = createPgStorage({ connectionString: schema.url, poolSize: 4 });
  try {
    await migrate(storage); // the console search's seed predates migration 054
    await storage.query('TRUNCATE overview_daily, overview_open');
    await storage.query('UPDATE overview_watermark SET rolled_until = NULL');
    // The whole history but the last day, as the job would catch up (a day a step), then measured a day behind.
    const dayBehind = { now: () => new Date(SEED_END.getTime() - 86_400_000 + OVERVIEW_LAG_MS) };
    let started = Date.now();
    while (!(await rollUpOverview({ storage, clock: dayBehind })).caughtUp);
    const firstFillSeconds = round((Date.now() - started) / 1000, 1);
    log(`  rollup of every day but the last: ${firstFillSeconds} s`);
    await storage.query('ANALYZE overview_daily');
    const behind = [...(await measureCases(storage, overviewSettings.samples, 'a day behind'))];
    started = Date.now();
    while (!(await rollUpOverview({ storage, clock: { now: () => NOW } })).caughtUp);
    const lastDaySeconds = round((Date.now() - started) / 1000, 2);
    log(`  rollup of the last day (and the hours after it): ${lastDaySeconds} s`);
    const rollupRows = Number((await storage.query<{ n: string }>('SELECT count(*) AS n FROM overview_daily')).rows[0]!.n);
    log(`  rollup rows: ${rollupRows.toLocaleString('en')}`);
    const caughtUp = [...(await measureCases(storage, overviewSettings.samples, 'caught up')), await measurePage(storage, overviewSettings.samples)];
    const withoutRollup = await measureWithoutRollup(schema.url);
    return { rows: schema.rows, schema: schema.name, firstFillSeconds, lastDaySeconds, rollupRows, behind, caughtUp, withoutRollup };
  } finally {
    await storage.close();
  }
}

/** The rows for docs/performance.md. */
export function describeOverviewBench(bench: OverviewBench): string {
  const row = (r: OverviewRow) => `| ${r.name} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${r.p95Ms < 500 ? 'met' : '**not met**'} |`;
  return [
    `| Console overview, ${bench.rows.toLocaleString('en')} transactions | p50 ms | p95 ms | max ms | p95 < 500 ms |`,
    '|---|---|---|---|---|',
    ...bench.behind.map(row), ...bench.caughtUp.map(row), row(bench.withoutRollup),
    '',
    `Rollup: ${bench.rollupRows.toLocaleString('en')} rows; the first fill of 89 days took ${bench.firstFillSeconds} s, the last day ${bench.lastDaySeconds} s.`,
  ].join('\n');
}

/** The summary for `npm run bench`'s record: the slowest page. */
export function overviewSummary(bench: OverviewBench) {
  const worst = [...bench.behind, ...bench.caughtUp].reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
  return { rows: bench.rows, worstP95Ms: worst.p95Ms, worstName: worst.name, firstFillSeconds: bench.firstFillSeconds, lastDaySeconds: bench.lastDaySeconds, withoutRollupP95Ms: bench.withoutRollup.p95Ms };
}

async function main(): Promise<void> {
  if (process.argv.includes('--payment-path')) {
    const cost = await measureOverviewPathCost({ rounds: envNumber('BENCH_CONSOLE_ROUNDS', 5), connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    console.log(`wrote ${writeResults({ machine: describeMachine(''), overviewPathCost: cost }, '-console-overview-path')}`);
    return;
  }
  const bench = (await consoleOverviewBench())!;
  console.log(`wrote ${writeResults({ machine: describeMachine(''), ...bench }, '-console-overview')}`);
  console.log(describeOverviewBench(bench));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
