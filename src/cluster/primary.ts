import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';

/**
 * GATEWAY_PROCESSES > 1: this process serves nothing itself. It forks the gateway processes, which
 * share its port (node:cluster hands them the connections), says "gateway ready" once all of them
 * listen, starts a new one in place of one that dies, and stops them all on SIGTERM or SIGINT.
 * The database is prepared (migrations, demo merchant) by the caller before the first fork, so
 * the processes only open it.
 */
export interface PrimaryOptions {
  readonly processes: number;
  readonly scheme: 'http' | 'https';
  readonly logger: Logger;
  /** Called once, when every process listens, with the address they share. */
  readonly onReady: (url: string) => void;
  /** A dead process is replaced after this long; doubled for each other death in the last minute. */
  readonly restartDelayMs?: number;
  /** A process that has not stopped this long after SIGTERM is killed. */
  readonly stopGraceMs?: number;
  /** Called each time a dead process is replaced (the restarts metric). */
  readonly onRestart?: () => void;
  /** Variables every process gets besides its index (the acquirer host the primary embeds). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The environment variable that tells a gateway process its index (0 runs the background jobs). */
export const PROCESS_INDEX_VARIABLE = 'GATEWAY_PROCESS_INDEX';

export function processIndex(env: NodeJS.ProcessEnv): number {
  return Number(env[PROCESS_INDEX_VARIABLE] ?? 0);
}

const MAX_RESTART_DELAY_MS = 30_000;
const DEATH_MEMORY_MS = 60_000;

/**
 * How long to wait before replacing a process that died, given how many times that slot died in
 * the last minute (this death included): a process that cannot start (the database unreachable)
 * backs off to one attempt every 30 s instead of spinning.
 */
export function restartDelayMs(recentDeaths: number, baseMs = 1_000): number {
  return Math.min(MAX_RESTART_DELAY_MS, baseMs * 2 ** Math.max(0, recentDeaths - 1));
}

export function runPrimary(options: PrimaryOptions): void {
  const { logger } = options;
  const indexOf = new Map<Worker, number>();
  const deathsOf = new Map<number, number[]>();
  const listening = new Set<number>();
  let ready = false;
  let stopping = false;

  // The port the first process got: with PORT=0, a replacement started after every process died
  // would otherwise get a new random one (the primary closes a port nobody listens on).
  let sharedPort: number | undefined;
  const fork = (index: number) =>
    indexOf.set(cluster.fork({ ...options.env, [PROCESS_INDEX_VARIABLE]: String(index), ...(sharedPort !== undefined ? { PORT: String(sharedPort) } : {}) }), index);

  cluster.on('listening', (worker, address) => {
    sharedPort ??= address.port;
    listening.add(indexOf.get(worker)!);
    if (ready || listening.size < options.processes) return;
    ready = true;
    const host = address.address && address.address !== '::' && address.address !== '0.0.0.0' ? address.address : '127.0.0.1';
    options.onReady(`${options.scheme}://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
  });

  cluster.on('exit', (worker, code, signal) => {
    const index = indexOf.get(worker)!;
    indexOf.delete(worker);
    if (stopping) {
      if (indexOf.size === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    const deaths = [...(deathsOf.get(index) ?? []).filter((at) => now - at < DEATH_MEMORY_MS), now];
    deathsOf.set(index, deaths);
    const delayMs = restartDelayMs(deaths.length, options.restartDelayMs);
    logger.error({ pid: worker.process.pid, index, code, signal, restartInMs: delayMs }, 'gateway process died; starting another');
    // Not unref'd: when every process is dead, this timer is what keeps the primary alive.
    setTimeout(() => {
      if (stopping) return;
      options.onRestart?.();
      fork(index);
    }, delayMs);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    if (indexOf.size === 0) process.exit(0);
    for (const worker of indexOf.keys()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of indexOf.keys()) worker.process.kill('SIGKILL');
    }, options.stopGraceMs ?? 15_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let index = 0; index < options.processes; index += 1) fork(index);
}
