import type { PhaseResult } from '../load.js';
import type { LedgerCheck } from './ledger-checks.js';
import { PHASE_TABLE_HEADER, phaseRow } from './report.js';

export interface TwoProcessResult {
  readonly perProcess: readonly PhaseResult[];
  readonly requestsPerSecond: number;
  readonly worstP99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

export interface ScaleOutRecord {
  readonly onePaymentProcess: PhaseResult;
  readonly twoPaymentProcesses: TwoProcessResult;
  /** Both processes capture and refund the same few parents far beyond what they hold. */
  readonly contention: TwoProcessResult & {
    readonly parents: number;
    /** Captures and refunds answered 200 by either process… */
    readonly answeredSuccess: number;
    /** …and stored as successful: the two must be equal, and equal to what the parents held. */
    readonly storedSuccess: number;
    readonly expectedSuccess: number;
    readonly serverErrors: number;
  };
  readonly ledger: Record<LedgerCheck, number>;
  readonly rows: Record<string, number>;
  readonly correct: boolean;
}

export function combine(perProcess: readonly PhaseResult[]): TwoProcessResult {
  return {
    perProcess,
    requestsPerSecond: perProcess.reduce((sum, p) => sum + p.requestsPerSecond, 0),
    worstP99Ms: Math.max(...perProcess.map((p) => p.latencyMs.p99)),
    errors: perProcess.reduce((sum, p) => sum + p.errors, 0),
    non2xx: perProcess.reduce((sum, p) => sum + p.non2xx, 0),
  };
}

/** The markdown table of a scale-out run; also written into docs/performance.md. */
export function renderScaleOutTable(record: ScaleOutRecord, date: string, machine: string): string {
  const c = record.contention;
  return [
    `Latest run: ${date.slice(0, 10)}, ${machine}.`,
    '',
    ...PHASE_TABLE_HEADER,
    phaseRow(record.onePaymentProcess),
    ...record.twoPaymentProcesses.perProcess.map(phaseRow),
    ...c.perProcess.map(phaseRow),
    '',
    `Two processes together: ${record.twoPaymentProcesses.requestsPerSecond.toFixed(0)} payments/s ` +
      `(one process alone: ${record.onePaymentProcess.requestsPerSecond.toFixed(0)}). Contention: ${c.answeredSuccess} captures and refunds ` +
      `answered 200, ${c.storedSuccess} stored as successful, ${c.expectedSuccess} possible; the rest declined (400), ${c.serverErrors} server errors. ` +
      `SQL checks (offending rows): ${Object.entries(record.ledger).map(([name, n]) => `${name} ${n}`).join(', ')}. ` +
      `Verdict: ${record.correct ? 'correct' : '**not correct**'}.`,
  ].join('\n');
}
