/**
 * Starts an entry point in a Node process of its own (built JavaScript as `npm start` runs it, or
 * TypeScript through tsx), finds the port it listens on and samples its memory. Shared by the
 * benchmarks and the fault tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

let scratch: string | undefined;

/**
 * A DATA_DIR of this test or benchmark process's own, removed when it exits: a gateway on
 * PostgreSQL still keeps its local vault key there, and the default (./data of the checkout)
 * would be shared by two copies of the suite running at once.
 */
export function scratchDataDir(): string {
  if (scratch === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-scratch-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    scratch = dir;
  }
  return scratch;
}

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  /** stdout and stderr so far (bounded: the last 64 KiB of each). */
  output(): string;
  /** SIGTERM (or the signal given) and wait for the exit; SIGKILL after graceMs. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
  alive(): boolean;
}

export interface StartOptions {
  /** Path of the entry point, relative to the repository root; a .ts file runs through tsx. */
  readonly script: string;
  readonly env: Readonly<Record<string, string>>;
  /** Extra node flags, e.g. --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  /** A path answering 200 once the process is ready (e.g. /health); any answer when absent. */
  readonly readyPath?: string;
  readonly timeoutMs?: number;
}

const OUTPUT_LIMIT_CHARS = 65_536;
const POLL_INTERVAL_MS = 100;
const TCP_LISTEN_STATE = '0A';

/**
 * The TCP port a process listens on, read from /proc: the listening sockets of
 * /proc/<pid>/net/tcp whose inode is one of the process's open file descriptors. This lets the
 * process pick its own free port (PORT=0) without any log line to parse, at any log level.
 */
export function listeningPort(pid: number): number | undefined {
  return listeningPorts(pid)[0];
}

/** Every TCP port the process listens on (a gateway with SFTP_PORT or ADMIN_PORT has more than one). */
export function listeningPorts(pid: number): number[] {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`)
        .map((fd) => { try { return readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { return ''; } })
        .map((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1])
        .filter((inode): inode is string => inode !== undefined),
    );
  } catch {
    return [];
  }
  const ports: number[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let lines: string[];
    try { lines = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').trim().split('\n').slice(1); } catch { continue; }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === TCP_LISTEN_STATE && inodes.has(fields[9] ?? '')) ports.push(parseInt(fields[1]!.split(':')[1]!, 16));
    }
  }
  return ports;
}

/** Peak (VmHWM) and current (VmRSS) resident memory in MiB; undefined once the process is gone. */
export function memoryOf(pid: number): { peakRssMiB: number; rssMiB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { peakRssMiB: kib('VmHWM') / 1024, rssMiB: kib('VmRSS') / 1024 };
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function answers(url: string, mustBeOk: boolean): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return !mustBeOk || response.ok;
  } catch {
    return false;
  }
}

async function waitUntilReady(child: ChildProcess, options: StartOptions, output: () => string): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${options.script} exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    // The one that answers HTTP: an SFTP listener (SFTP_PORT) shares the process.
    for (const port of listeningPorts(child.pid!)) {
      const url = `http://127.0.0.1:${port}`;
      if (await answers(`${url}${options.readyPath ?? '/'}`, options.readyPath !== undefined)) return url;
    }
    await sleep(POLL_INTERVAL_MS);
  }
  child.kill('SIGKILL');
  throw new Error(`${options.script} did not become ready in time:\n${output()}`);
}

export async function startNodeProcess(options: StartOptions): Promise<NodeProcess> {
  const loader = options.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const keep = (chunk: Buffer) => { text = (text + chunk.toString()).slice(-OUTPUT_LIMIT_CHARS); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit');
  const url = await waitUntilReady(child, options, () => text);
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    pid: child.pid!,
    url,
    output: () => text,
    alive,
    async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000) {
      if (!alive()) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const [code] = (await exited) as [number | null];
      clearTimeout(timer);
      return code;
    },
  };
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on every Linux this runs on). */
const USER_HZ = 100;

/** CPU time (user + system) one process has used so far, in ms; undefined once it is gone. */
function processCpuTimeMs(pid: number): number | undefined {
  try {
    // The command name in parentheses may hold spaces; the fields after it are fixed.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * The process and its Node.js descendants: with GATEWAY_PROCESSES > 1 the gateway is a primary
 * and its forked processes. An esbuild helper (not node; tsx starts one) is left out.
 */
export function nodeProcessTree(pid: number): number[] {
  const isNode = (child: number) => { try { return readFileSync(`/proc/${child}/comm`, 'utf8').trim() === 'node'; } catch { return false; } };
  return [pid, ...childrenOf(pid).filter(isNode).flatMap(nodeProcessTree)];
}

/** CPU time of the process and its Node.js descendants so far, in ms; undefined once it is gone. */
export function cpuTimeMs(pid: number): number | undefined {
  const own = processCpuTimeMs(pid);
  if (own === undefined) return undefined;
  return nodeProcessTree(pid).slice(1).reduce((total, child) => total + (processCpuTimeMs(child) ?? 0), own);
}

/** The resident memory of the largest process of the tree (the figure the RSS target is about). */
export function largestMemoryOf(pid: number): { peakRssMiB: number; rssMiB: number } | undefined {
  const readings = nodeProcessTree(pid).map(memoryOf).filter((m) => m !== undefined);
  if (readings.length === 0) return undefined;
  return { peakRssMiB: Math.max(...readings.map((m) => m.peakRssMiB)), rssMiB: Math.max(...readings.map((m) => m.rssMiB)) };
}

/** Samples the resident memory of the largest process of the tree every intervalMs; the highest reading wins. */
export function sampleMemory(pid: number, intervalMs = 250): { stop(): number } {
  const read = () => largestMemoryOf(pid)?.rssMiB ?? 0;
  let highestMiB = read();
  const timer = setInterval(() => { highestMiB = Math.max(highestMiB, read()); }, intervalMs);
  return { stop: () => { clearInterval(timer); return highestMiB; } };
}
