/** The record of one `npm run bench`: what was measured, the floors, the ratios and the targets of issue 8. */
import type { PhaseResult } from '../load.js';
import type { ProfileSummary } from './cpu-profile.js';
import { machineLine, PHASE_TABLE_HEADER, phaseRow, updatePerformanceDoc, type Machine } from './report.js';
import { round } from './stats.js';
import type { ScaleOutRecord } from './scale-out-record.js';

export interface Targets {
  readonly ratios: { readonly gatewayToHttpFloor: number; readonly gatewayToInsertFloor: number };
  readonly targets: {
    /** Payments per second at least half the insert floor measured in the same run. */
    readonly paymentsAtLeastHalfInsertFloor: boolean;
    readonly p99Below50MsAt64Connections: boolean;
    readonly peakRssBelow300MB: boolean;
    readonly noErrorsNoNon2xx: boolean;
  };
}

export interface BenchRecord extends Targets {
  readonly date: string;
  readonly machine: Machine;
  readonly settings: Readonly<Record<string, number>>;
  readonly gateway: { readonly phases: readonly PhaseResult[]; readonly peakRssMiB: number };
  readonly floors: { readonly http: PhaseResult; readonly insert: PhaseResult };
  /** The DB phase with GATEWAY_PROCESSES > 1, and the targets it meets. */
  readonly processes?: Targets & { readonly count: number; readonly phase: PhaseResult; readonly peakRssMiB: number; readonly insertFloor: PhaseResult };
  readonly profile?: ProfileSummary;
  scaleOut?: ScaleOutRecord;
  /** Payments through HAProxy to the synchronous Patroni cluster beside the single PostgreSQL (bench/ha.ts, --ha). */
  ha?: import('../ha.js').HaRecord | undefined;
  /** Fewer payments/s with metrics on, and with every request traced, than with both off (bench/observability.ts). */
  readonly observability?: import('../observability.js').ObservabilityCost;
  /** Issue 31: the console search at ten million rows (slowest filter's p95), its export, migration 048's write cost. */
  readonly consoleSearch?: ReturnType<typeof import('../console-search.js').consoleSummary> & { readonly writeCost: import('./console-write-cost.js').WriteCost };
  /** Issue 32: the console overview over the same seed (slowest page's p95), the rollup's fill times. */
  readonly consoleOverview?: ReturnType<typeof import('../console-overview.js').overviewSummary>;
  /** Issue 32: the overview rollup job's CPU per payment, as a share of the payment's (bench/support/overview-path-cost.ts). */
  readonly consoleOverviewPathCost?: { readonly fewerPaymentsPerSecondByCpu: number; readonly rounds: number };
}

const MEGABYTE_MIB = 1e6 / 2 ** 20;

export function checkTargets(payments: PhaseResult, floors: BenchRecord['floors'], peakRssMiB: number, phases: readonly PhaseResult[] = [payments]): Targets {
  const gatewayToInsertFloor = round(payments.requestsPerSecond / floors.insert.requestsPerSecond, 2);
  return {
    ratios: { gatewayToHttpFloor: round(payments.requestsPerSecond / floors.http.requestsPerSecond, 3), gatewayToInsertFloor },
    targets: {
      paymentsAtLeastHalfInsertFloor: gatewayToInsertFloor >= 0.5,
      p99Below50MsAt64Connections: payments.latencyMs.p99 < 50,
      peakRssBelow300MB: peakRssMiB < 300 * MEGABYTE_MIB,
      noErrorsNoNon2xx: phases.every((phase) => phase.errors === 0 && phase.non2xx === 0),
    },
  };
}

const yesNo = (ok: boolean) => (ok ? 'met' : '**not met**');

/** Issue 32's target: the overview's p95 at ten million rows; the rollup adds nothing to the payment path. */
function overviewRows(summary: BenchRecord['consoleOverview']): string[] {
  if (!summary) return [];
  return [
    `| console overview p95 < 500 ms, ${summary.rows.toLocaleString('en')} transactions (issue 32) | slowest: ${summary.worstName}, ${summary.worstP95Ms} ms (without the rollup: ${summary.withoutRollupP95Ms} ms) | ${yesNo(summary.worstP95Ms < 500)} |`,
    `| overview rollup (job, not the payment path): first fill, one more day (issue 32) | ${summary.firstFillSeconds} s, ${summary.lastDaySeconds} s | — |`,
  ];
}

/** The markdown table of the latest run; also written into docs/performance.md. */
function targetRows(label: string, targets: Targets, payments: PhaseResult, peakRssMiB: number, errors: number): string[] {
  return [
    `| payments/s ≥ 0.5 × insert floor${label} | ${targets.ratios.gatewayToInsertFloor} × | ${yesNo(targets.targets.paymentsAtLeastHalfInsertFloor)} |`,
    `| p99 < 50 ms at ${payments.connections} connections (DB${label}) | ${payments.latencyMs.p99.toFixed(1)} ms | ${yesNo(targets.targets.p99Below50MsAt64Connections)} |`,
    `| RSS < 300 MB${label ? ` (largest process${label})` : ''} | ${peakRssMiB.toFixed(0)} MiB | ${yesNo(targets.targets.peakRssBelow300MB)} |`,
    `| zero errors and non-2xx${label} | ${errors} | ${yesNo(targets.targets.noErrorsNoNon2xx)} |`,
  ];
}

/** Issue 30's targets: what metrics and full-sampling traces cost the DB payment. */
function observabilityRows(cost: BenchRecord['observability']): string[] {
  if (!cost) return [];
  const percent = (fewer: number, cpuRatio: number) => `${(fewer * 100).toFixed(1)} % fewer payments/s (CPU per payment ×${cpuRatio.toFixed(2)})`;
  return [
    `| metrics on: < 3 % fewer payments/s than off (issue 30) | ${percent(cost.metricsFewer, cost.metricsCpuRatio)} | ${yesNo(cost.metricsFewer < 0.03)} |`,
    `| every request traced: < 10 % fewer than off (issue 30) | ${percent(cost.tracingFewer, cost.tracingCpuRatio)} | ${yesNo(cost.tracingFewer < 0.1)} |`,
  ];
}

/** Issue 31's targets: console search p95 at ten million rows, the export, the indexes' write cost. */
function consoleRows(summary: BenchRecord['consoleSearch']): string[] {
  if (!summary) return [];
  return [
    `| console search p95 < 200 ms for every filter, ${summary.rows.toLocaleString('en')} transactions (issue 31) | slowest: ${summary.worstName}, ${summary.worstP95Ms} ms | ${yesNo(summary.worstP95Ms < 200)} |`,
    `| CSV export of ${summary.exportRows.toLocaleString('en')} rows (issue 31) | ${summary.exportSeconds} s, peak RSS ${summary.exportPeakRssMiB} MiB | — |`,
    `| search indexes (migration 048): < 5 % fewer payments/s (issue 31) | ${(summary.writeCost.fewerPaymentsPerSecond * 100).toFixed(1)} % (CPU per payment ×${summary.writeCost.cpuRatio.toFixed(2)}) | ${yesNo(summary.writeCost.fewerPaymentsPerSecond < 0.05)} |`,
  ];
}

const byName = (phases: readonly PhaseResult[], start: string) => phases.find((phase) => phase.name.startsWith(start));

/** Issue 36's targets: each flow's gateway CPU per request against the DB payment's, the job rows' rates, the payment against its floor. */
function flowRows(record: BenchRecord): string[] {
  const phases = record.gateway.phases;
  const payment = phases[0]!;
  const lines: string[] = [];
  for (const [label, start] of [['provider page completion', 'POST provider page'], ['3-D Secure challenge completion', 'POST ACS page'], ['widget card payment', 'POST /v1/checkouts/{id}/payment']] as const) {
    const flow = byName(phases, start);
    if (!flow?.cpuMsPerRequest || !payment.cpuMsPerRequest) continue;
    const ratio = flow.cpuMsPerRequest / payment.cpuMsPerRequest;
    lines.push(`| ${label}: ≤ 1.5 × the DB payment's gateway CPU per request (issue 36) | ${ratio.toFixed(2)} × (${flow.cpuMsPerRequest.toFixed(2)} against ${payment.cpuMsPerRequest.toFixed(2)} ms) | ${yesNo(ratio <= 1.5)} |`);
  }
  const schedules = byName(phases, 'scheduled runs (');
  if (schedules) lines.push(`| scheduled runs: ≥ 1,500 runs/s, fire → payment p99 < 1 s (issue 36) | ${Math.round(schedules.requestsPerSecond)}/s, p99 ${Math.round(schedules.latencyMs.p99)} ms | ${yesNo(schedules.requestsPerSecond >= 1500 && schedules.latencyMs.p99 < 1000 && schedules.errors === 0)} |`);
  const minute = byName(phases, 'scheduled runs, ');
  if (minute) lines.push(`| scheduled runs: ${minute.requests.toLocaleString('en')} due in one minute, all made within it (issue 36) | last made ${(minute.latencyMs.max / 1000).toFixed(1)} s after the minute began, ${Math.round(minute.requestsPerSecond)}/s | ${yesNo(minute.errors === 0 && minute.latencyMs.max < 60_000)} |`);
  const resolution = byName(phases, 'pending resolution');
  if (resolution) lines.push(`| pending resolution: ≥ 1,500 status checks/s (issue 36) | ${Math.round(resolution.requestsPerSecond)}/s | ${yesNo(resolution.requestsPerSecond >= 1500 && resolution.errors === 0)} |`);
  const floorRatio = (ratio: number, label: string) => `| DB payments/s ≥ 0.75 × insert floor${label} (issue 36) | ${ratio} × | ${yesNo(ratio >= 0.75)} |`;
  lines.push(floorRatio(record.ratios.gatewayToInsertFloor, ''));
  lines.push(`| DB payment p99 < 30 ms at ${payment.connections} connections (issue 36) | ${payment.latencyMs.p99.toFixed(1)} ms | ${yesNo(payment.latencyMs.p99 < 30)} |`);
  if (record.processes) lines.push(floorRatio(record.processes.ratios.gatewayToInsertFloor, `, ${record.processes.count} processes`));
  return lines;
}

/** The markdown table of the latest run; also written into docs/performance.md. */
export function renderBenchmarkTable(record: BenchRecord): string {
  const payments = record.gateway.phases[0]!;
  const { processes } = record;
  const several = processes ? `, ${processes.count} processes` : '';
  const lines = [
    `Latest run: ${record.date.slice(0, 10)}, ${machineLine(record.machine)}. Gateway pool ${record.settings['poolSize']} connections, ` +
      `${record.settings['durationSeconds']} s per phase after a ${record.settings['warmUpSeconds']} s warm-up.`,
    '',
    ...PHASE_TABLE_HEADER,
    ...record.gateway.phases.map(phaseRow),
    phaseRow(record.floors.insert),
    ...(processes ? [phaseRow(processes.phase), phaseRow(processes.insertFloor)] : []),
    phaseRow(record.floors.http),
    '',
    `Gateway peak RSS (VmHWM over the whole run): ${record.gateway.peakRssMiB.toFixed(0)} MiB. ` +
      `Payments/s ÷ HTTP floor: ${record.ratios.gatewayToHttpFloor}; payments/s ÷ insert floor: ${record.ratios.gatewayToInsertFloor}` +
      (processes ? `; with ${processes.count} processes: ${processes.ratios.gatewayToInsertFloor}.` : '.'),
    '',
    '| Target (issue 8) | Measured | |',
    '|---|---|---|',
    ...targetRows('', record, payments, record.gateway.peakRssMiB, record.gateway.phases.reduce((n, p) => n + p.errors + p.non2xx, 0)),
    ...(processes ? targetRows(several, processes, processes.phase, processes.peakRssMiB, processes.phase.errors + processes.phase.non2xx) : []),
    ...observabilityRows(record.observability),
    ...consoleRows(record.consoleSearch),
    ...overviewRows(record.consoleOverview),
    ...flowRows(record),
  ];
  const table = lines.join('\n');
  if (!updatePerformanceDoc('gateway benchmark', table)) console.warn('docs/performance.md has no gateway benchmark markers; table not written there');
  return table;
}
