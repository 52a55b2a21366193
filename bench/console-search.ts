/**
 * The console search rows of `npm run bench`, on their own:
 *
 *   npm run bench:console [-- --write-cost]
 *
 * Search: ten million transactions (BENCH_CONSOLE_ROWS) seeded once into the schema
 * console_search_seed of the benchmark database (bench/support/console-seed.ts; minutes, reused
 * by later runs), then p50/p95 of every filter through the operation the page uses (an
 * operator's search, and a merchant's person's where visibility changes the plan), one page
 * through app.inject, and the CSV export of about one million rows (time, peak RSS of this
 * process). Target: p95 under 200 ms for every filter.
 *
 * --write-cost: what migration 048 costs the payment path. Two gateways, each on a schema of its
 * own, loaded one at a time in BENCH_CONSOLE_ROUNDS (6) rounds, the order alternating: one schema
 * as 048 leaves it, one without its indexes and with payment_search_terms answering NULL (the
 * payment path as before 048). The cost is the median over rounds of 1 − with ÷ without.
 * Target: under 5 % fewer payments/s. BENCH_CONNECTIONS (64), BENCH_DURATION_SECONDS (10),
 * BENCH_POOL_SIZE (10).
 */
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import formbody from '@fastify/formbody';
import type { Visibility } from '../src/domain/access/actor.js';
import { parsePaymentSearch, type PaymentSearch } from '../src/domain/payment-search/search-filter.js';
import { registerConsole } from '../src/console/console-plugin.js';
import { registerPaymentsSearch } from '../src/console/areas/payments-search.js';
import { exportPayments } from '../src/operations/console/export-payments.js';
import { searchPaymentsPage } from '../src/operations/console/search-payments.js';
import { createPgStorage } from '../src/storage/pg-storage.js';
import type { Storage } from '../src/storage/port.js';
import { benchDatabaseUrl } from './support/postgres.js';
import { channelId, findSeededSchema, SEED_MERCHANTS, seedHolder, SEED_HOLDERS, seededSchema, type SeedTimings } from './support/console-seed.js';
import { describeMachine, writeResults } from './support/report.js';
import { percentile, round } from './support/stats.js';
import { measureInsertCost, measureWriteCost, type WriteCost } from './support/console-write-cost.js';
import { leaderReads } from '../src/storage/replica/replica-reads.js';
import { loadConfig } from '../src/config/load-config.js';
import { randomIds } from '../src/domain/ids.js';

const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
export const consoleSettings = {
  rows: envNumber('BENCH_CONSOLE_ROWS', 10_000_000),
  samples: envNumber('BENCH_CONSOLE_SAMPLES', 20),
  rounds: envNumber('BENCH_CONSOLE_ROUNDS', 6),
};

const OPERATOR: Visibility = { kind: 'all' };
const BIG = SEED_MERCHANTS[0].id;
const SMALL = SEED_MERCHANTS[3].id;

/** [row name, form, who asks]: every filter of the form, common and rare values. */
const CASES: ReadonlyArray<readonly [string, Record<string, string>, Visibility]> = [
  ['no filter (newest first)', {}, OPERATOR],
  ['id', { id: '' }, OPERATOR],
  ['merchantTransactionId', { merchantTransactionId: 'order-7654321' }, OPERATOR],
  ['shortId', { shortId: '4321.0765.0000' }, OPERATOR],
  ['BIN, the most used', { bin: '400000' }, OPERATOR],
  ['BIN, a rare one', { bin: String(400000 + 499 * 37) }, OPERATOR],
  ['last four', { last4: '4242' }, OPERATOR],
  ['holder, the most frequent', { holder: seedHolder(0) }, OPERATOR],
  ['holder, a rare one', { holder: seedHolder(SEED_HOLDERS - 1) }, OPERATOR],
  ['customer e-mail', { email: 'shopper4000@example.com' }, OPERATOR],
  ['customer IP', { ip: '10.2.17.3' }, OPERATOR],
  ['amount range 100.00–100.99', { amountFrom: '100', amountTo: '100.99' }, OPERATOR],
  ['currency EUR (70 %)', { currency: 'EUR' }, OPERATOR],
  ['currency JPY (0.5 %)', { currency: 'JPY' }, OPERATOR],
  ['brand JCB (1 %)', { brand: 'JCB' }, OPERATOR],
  ['payment type CB (0.1 %)', { paymentType: 'CB' }, OPERATOR],
  ['result code 600.100.100 (0.05 %)', { result: '600.100.100' }, OPERATOR],
  ['result group declined', { result: 'declined' }, OPERATOR],
  ['result group error', { result: 'error' }, OPERATOR],
  ['status pending (0.2 %)', { status: 'pending' }, OPERATOR],
  ['channel, the smallest', { channel: channelId(3, 0) }, OPERATOR],
  ['connector acme-bank (2 %)', { connector: 'acme-bank' }, OPERATOR],
  ['date range, one day', { from: '2026-09-15', to: '2026-09-15' }, OPERATOR],
  ['sort by amount', { sort: 'amount' }, OPERATOR],
  ['sort by amount ascending, JPY', { sort: 'amount', order: 'asc', currency: 'JPY' }, OPERATOR],
  ['BIN + holder + date range', { bin: '400000', holder: seedHolder(0), from: '2026-08-01', to: '2026-09-30' }, OPERATOR],
  ['merchant person (big merchant), no filter', {}, { kind: 'merchant', merchantId: BIG }],
  ['merchant person (small merchant), no filter', {}, { kind: 'merchant', merchantId: SMALL }],
  ['merchant person (small merchant), BIN', { bin: '400000' }, { kind: 'merchant', merchantId: SMALL }],
  ['merchant person (small merchant), currency JPY', { currency: 'JPY' }, { kind: 'merchant', merchantId: SMALL }],
  ['merchant person (small merchant), sort by amount', { sort: 'amount' }, { kind: 'merchant', merchantId: SMALL }],
];

export interface SearchRowResult { readonly name: string; readonly p50Ms: number; readonly p95Ms: number; readonly maxMs: number; readonly rows: number }
export interface ConsoleBench {
  readonly rows: number;
  readonly seed: SeedTimings | null;
  readonly searches: SearchRowResult[];
  readonly nextPage: SearchRowResult;
  readonly page: SearchRowResult;
  readonly export: { readonly rows: number; readonly seconds: number; readonly bytes: number; readonly peakRssMiB: number; readonly rssBeforeMiB: number };
  readonly writeCost?: WriteCost;
}

async function timed(samples: number, run: () => Promise<number>): Promise<{ p50Ms: number; p95Ms: number; maxMs: number; rows: number }> {
  let rows = 0;
  for (let i = 0; i < 2; i += 1) rows = await run();
  const ms: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = process.hrtime.bigint();
    rows = await run();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  ms.sort((a, b) => a - b);
  return { p50Ms: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)), maxMs: round(ms[ms.length - 1]!), rows };
}

function searchOf(form: Record<string, string>): PaymentSearch {
  const parsed = parsePaymentSearch(form);
  if (!parsed.ok) throw new Error(`bench search refused: ${JSON.stringify(parsed.errors)}`);
  return parsed.search;
}

async function measureSearches(storage: Storage, samples: number): Promise<SearchRowResult[]> {
  // Through the search's own index: merchant_transaction_id has none of its own, and a scan of the
  // ten-million-row table from a cold cache can outlast the client's read timeout.
  const anyId = (await storage.query<{ id: string }>(
    `SELECT id FROM transactions WHERE search_terms @> ARRAY['mtid:order-4321765'] AND status <> 'pending' LIMIT 1`)).rows[0]?.id;
  const results: SearchRowResult[] = [];
  for (const [name, form, who] of CASES) {
    const search = searchOf(name === 'id' ? { id: anyId ?? '' } : form);
    const result = await timed(samples, async () => (await searchPaymentsPage({ reads: leaderReads(storage) }, who, search, undefined)).rows.length);
    results.push({ name, ...result });
    console.log(`  ${name}: p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, max ${result.maxMs} ms (${result.rows} rows)`);
  }
  return results;
}

/** The page as a person gets it: the console's routes on a Fastify of their own, an operator signed in. */
async function measurePage(storage: Storage, samples: number): Promise<SearchRowResult> {
  const app = Fastify();
  await app.register(formbody);
  // The console plugin reads its settings (sessions, listener) from the configuration: the defaults.
  app.decorate('gateway', { storage, reads: leaderReads(storage), config: loadConfig({}), clock: { now: () => new Date() }, ids: randomIds, payments: {} } as never);
  app.addHook('onRequest', async (request) => {
    request.consoleUser = { id: 'b'.repeat(32), email: 'operator@example.com', role: 'operator-read-only', merchantId: null, sessionId: 's' };
  });
  await registerConsole(app, [registerPaymentsSearch]);
  try {
    const result = await timed(samples, async () => {
      const response = await app.inject({ method: 'GET', url: '/console/payments?currency=JPY' });
      if (response.statusCode !== 200) throw new Error(`page answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      return (response.body.match(/<tr>/g) ?? []).length - 1;
    });
    return { name: 'GET /console/payments?currency=JPY (app.inject, rendered)', ...result };
  } finally {
    await app.close();
  }
}

async function measureExport(storage: Storage): Promise<ConsoleBench['export']> {
  // Nine days of 90: about a tenth of the rows.
  const search = searchOf({ from: '2026-09-01', to: '2026-09-09' });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100);
  let bytes = 0;
  let lines = 0;
  const started = Date.now();
  await pipeline(exportPayments({ reads: leaderReads(storage) }, OPERATOR, search), new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
      done();
    },
  }));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const mib = (value: number) => round(value / 1024 / 1024, 0);
  return { rows: lines - 1, seconds: round((Date.now() - started) / 1000, 1), bytes, peakRssMiB: mib(peak), rssBeforeMiB: mib(rssBefore) };
}

/** The search rows; seeds first when the seeded schema is missing (minutes), unless told not to. */
export async function consoleSearchBench(log: (line: string) => void = console.log, seedWhenMissing = true): Promise<ConsoleBench | undefined> {
  const seeded = seedWhenMissing
    ? await seededSchema(benchDatabaseUrl(), consoleSettings.rows, log)
    : await findSeededSchema(benchDatabaseUrl(), consoleSettings.rows);
  if (!seeded) {
    log(`console search rows left out: no seeded schema of ${consoleSettings.rows} transactions; \`npm run bench:console\` seeds it once (tens of minutes on two cores)`);
    return undefined;
  }
  const storage = createPgStorage({ connectionString: seeded.url, poolSize: 4 });
  try {
    const searches = await measureSearches(storage, consoleSettings.samples);
    const first = await searchPaymentsPage({ reads: leaderReads(storage) }, OPERATOR, searchOf({}), undefined);
    const next = await timed(consoleSettings.samples, async () => (await searchPaymentsPage({ reads: leaderReads(storage) }, OPERATOR, searchOf({}), first.next)).rows.length);
    const page = await measurePage(storage, consoleSettings.samples);
    log(`  ${page.name}: p50 ${page.p50Ms} ms, p95 ${page.p95Ms} ms`);
    const exported = await measureExport(storage);
    log(`  export: ${exported.rows} rows in ${exported.seconds} s, peak RSS ${exported.peakRssMiB} MiB (before ${exported.rssBeforeMiB} MiB)`);
    return { rows: seeded.rows, seed: seeded.timings, searches, nextPage: { name: 'no filter, second page (cursor)', ...next }, page, export: exported };
  } finally {
    await storage.close();
  }
}

/** The rows for docs/performance.md. */
export function describeConsoleBench(bench: ConsoleBench): string {
  const row = (r: SearchRowResult) => `| ${r.name} | ${r.p50Ms} | ${r.p95Ms} | ${r.maxMs} | ${r.rows} | ${r.p95Ms < 200 ? 'met' : '**not met**'} |`;
  return [
    `| Console search, ${bench.rows.toLocaleString('en')} transactions | p50 ms | p95 ms | max ms | rows | p95 < 200 ms |`,
    '|---|---|---|---|---|---|',
    ...bench.searches.map(row), row(bench.nextPage), row(bench.page),
    '',
    `CSV export: ${bench.export.rows.toLocaleString('en')} rows (${(bench.export.bytes / 1e6).toFixed(0)} MB) in ${bench.export.seconds} s, ` +
      `peak RSS ${bench.export.peakRssMiB} MiB (${bench.export.rssBeforeMiB} MiB before it started).`,
  ].join('\n');
}

/** The summary for `npm run bench`'s record: the slowest filter and the export. */
export function consoleSummary(bench: ConsoleBench) {
  const worst = [...bench.searches, bench.nextPage, bench.page].reduce((a, b) => (b.p95Ms > a.p95Ms ? b : a));
  return { rows: bench.rows, worstP95Ms: worst.p95Ms, worstName: worst.name, exportRows: bench.export.rows, exportSeconds: bench.export.seconds, exportPeakRssMiB: bench.export.peakRssMiB };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'write-cost': { type: 'boolean', default: false } } });
  const machine = describeMachine('');
  if (values['write-cost']) {
    const insertCost = await measureInsertCost(envNumber('BENCH_CONSOLE_INSERT_ROUNDS', 10));
    const cost = await measureWriteCost({ rounds: consoleSettings.rounds, connections: envNumber('BENCH_CONNECTIONS', 64), poolSize: envNumber('BENCH_POOL_SIZE', 10), durationSeconds: envNumber('BENCH_DURATION_SECONDS', 10) });
    console.log(`wrote ${writeResults({ machine, writeCost: cost, insertCost }, '-console-write-cost')}`);
    return;
  }
  const bench = await consoleSearchBench();
  console.log(`wrote ${writeResults({ machine, ...bench }, '-console-search')}`);
  if (bench) console.log(describeConsoleBench(bench));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
