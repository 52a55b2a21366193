/**
 * Debian's HAProxy in front of gateway processes, for the rolling-restart fault test: a
 * configuration written into a temp dir, HAProxy in the foreground (as `nobody` when the test runs
 * as root), and its stats page read as CSV to know which servers it sends traffic to.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HealthCheckTiming {
  /** `inter`: time between two checks of a server. */
  readonly intervalMs: number;
  /** `fall`: failed checks in a row that take a server out. */
  readonly fall: number;
  /** `rise`: passed checks in a row that put it back. */
  readonly rise: number;
  /** `timeout check`: a check not answered within this has failed. */
  readonly checkTimeoutMs: number;
}

/**
 * The shortest SHUTDOWN_DRAIN_MS that lets this balancer take a draining process out before its
 * listener closes: the check that passed just before the SIGTERM, then `fall` failed checks, the
 * last one possibly waiting its whole timeout (docs/deployment.md, "Rolling restarts").
 */
export function minimumDrainMs(timing: HealthCheckTiming): number {
  return timing.fall * timing.intervalMs + timing.checkTimeoutMs;
}

export interface BackendServer {
  readonly name: string;
  readonly port: number;
}

export interface HaproxyOptions {
  readonly port: number;
  readonly statsPort: number;
  readonly servers: readonly BackendServer[];
  readonly timing: HealthCheckTiming;
}

/**
 * Routes to the servers whose GET /health/ready answers 200. Retries only a connection that could
 * not be opened (`retry-on conn-failure`, the request was never sent): a payment POST that reached
 * a gateway is never sent twice by the balancer.
 */
export function haproxyConfig(options: HaproxyOptions): string {
  const { timing } = options;
  return `global
  maxconn 2000

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 60s
  timeout check ${timing.checkTimeoutMs}ms
  retries 3
  retry-on conn-failure
  option redispatch 1

frontend gateway
  bind 127.0.0.1:${options.port}
  default_backend gateways

backend gateways
  balance roundrobin
  option httpchk GET /health/ready
  http-check expect status 200
  default-server inter ${timing.intervalMs}ms fastinter ${timing.intervalMs}ms downinter ${timing.intervalMs}ms fall ${timing.fall} rise ${timing.rise}
${options.servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`).join('\n')}

listen stats
  bind 127.0.0.1:${options.statsPort}
  stats enable
  stats uri /
`;
}

export interface ServerState {
  /** UP, DOWN, or a transition such as "UP 1/2". */
  readonly status: string;
  /** Sessions the server has had in total. */
  readonly sessions: number;
}

export interface RunningHaproxy {
  readonly url: string;
  /** Each backend server's state, from the stats page. */
  serverStates(): Promise<ReadonlyMap<string, ServerState>>;
  output(): string;
  stop(): Promise<void>;
}

const NOBODY_UID = 65534;
const NOGROUP_GID = 65534;

function asUnprivilegedUser(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: NOBODY_UID, gid: NOGROUP_GID } : {};
}

async function readStates(statsUrl: string): Promise<ReadonlyMap<string, ServerState>> {
  const response = await fetch(`${statsUrl}/;csv`, { signal: AbortSignal.timeout(2_000) });
  const [header, ...rows] = (await response.text()).trim().split('\n').map((line) => line.split(','));
  const column = (name: string) => header!.indexOf(name === 'pxname' ? '# pxname' : name);
  const states = new Map<string, ServerState>();
  for (const row of rows) {
    if (row[column('pxname')] !== 'gateways' || ['BACKEND', 'FRONTEND'].includes(row[column('svname')]!)) continue;
    states.set(row[column('svname')]!, { status: row[column('status')]!, sessions: Number(row[column('stot')]) });
  }
  return states;
}

export async function startHaproxy(options: HaproxyOptions): Promise<RunningHaproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'gateway-haproxy-'));
  // HAProxy runs as `nobody` when the test runs as root: it must read its configuration.
  chmodSync(dir, 0o755);
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(options), { mode: 0o644 });
  const check = spawnSync('haproxy', ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy -c refused the configuration:\n${check.stderr}${check.stdout}`);
  // -db: in the foreground, logs on stderr; the test owns the process.
  // Started in its own folder: HAProxy returns to its starting folder after reading the
  // configuration, and `nobody` cannot enter a checkout in a private folder (mktemp -d is 0700).
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...asUnprivilegedUser() });
  let text = '';
  const keep = (chunk: Buffer) => { text = (text + chunk.toString()).slice(-65_536); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = once(child, 'exit');
  const statsUrl = `http://127.0.0.1:${options.statsPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await readStates(statsUrl)).size === options.servers.length, 10_000, () => text);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${options.port}`, serverStates: () => readStates(statsUrl), output: () => text, stop };
}

export async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, output: () => string = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
