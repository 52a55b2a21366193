/**
 * Where a benchmark run goes: bench/results/<yyyy-mm-dd>.json (the whole record) and the table
 * between two markers of docs/performance.md (the latest run, for readers of the docs).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { PhaseResult } from '../load.js';
import { ROOT } from './node-process.js';
import { round } from './stats.js';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
  readonly postgres: string;
  readonly loadAverageAtStart: readonly number[];
}

export function describeMachine(postgres: string): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    loadAverageAtStart: loadavg().map((value) => round(value, 2)),
  };
}

export const today = () => new Date().toISOString().slice(0, 10);

/** Writes bench/results/<date><suffix>.json and answers its path relative to the repository. */
export function writeResults(record: object, suffix = ''): string {
  const folder = join(ROOT, 'bench/results');
  mkdirSync(folder, { recursive: true });
  const file = `bench/results/${today()}${suffix}.json`;
  writeFileSync(join(ROOT, file), `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

export function phaseRow(phase: PhaseResult): string {
  const ms = (value: number) => value.toFixed(1);
  return `| ${phase.name} | ${phase.connections} | ${phase.requests} | ${phase.requestsPerSecond.toFixed(0)} | ${ms(phase.latencyMs.p50)} | ` +
    `${ms(phase.latencyMs.p99)} | ${ms(phase.latencyMs.p99_9)} | ${phase.errors} | ${phase.non2xx} | ${phase.rssMiB !== undefined ? phase.rssMiB.toFixed(0) : '—'} | ` +
    `${phase.cpuMsPerRequest !== undefined ? phase.cpuMsPerRequest.toFixed(2) : '—'} |`;
}

export const PHASE_TABLE_HEADER = [
  '| Phase | Connections | Requests | Requests/s | p50 ms | p99 ms | p99.9 ms | Errors | Non-2xx | RSS MiB (max) | Server CPU ms/request |',
  '|---|---|---|---|---|---|---|---|---|---|---|',
];

export function machineLine(machine: Machine): string {
  return `${machine.cores}-core ${machine.cpu}, ${machine.memoryGiB} GiB, Linux ${machine.kernel}, Node ${machine.node}, ` +
    `PostgreSQL ${machine.postgres} on the same machine; load average at start ${machine.loadAverageAtStart.join(' / ')}`;
}

/**
 * Replaces what lies between `<!-- BEGIN GENERATED: name -->` and `<!-- END GENERATED: name -->`
 * in docs/performance.md; the rest of the file (other people's sections) is left as it is.
 */
export function updatePerformanceDoc(name: string, markdown: string): boolean {
  const path = join(ROOT, 'docs/performance.md');
  const text = readFileSync(path, 'utf8');
  const begin = `<!-- BEGIN GENERATED: ${name} -->`;
  const end = `<!-- END GENERATED: ${name} -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) return false;
  writeFileSync(path, `${text.slice(0, from + begin.length)}\n${markdown.trim()}\n${text.slice(to)}`);
  return true;
}
