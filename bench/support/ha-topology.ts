/**
 * The replicated PostgreSQL of ops/ha/ (three Patroni nodes, etcd, HAProxy) driven from a test or
 * a benchmark: started in a data directory of its own, asked who leads, a node killed, a planned
 * switchover, and stopped (everything it started, also after a failure).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ROOT } from './node-process.js';

const run = promisify(execFile);

export const HA_LEADER_PORT = 5440;
export const HA_REPLICA_PORT = 5439;
const REST_PORT_BASE = 8440;
const NODES = [1, 2, 3] as const;
const PASSWORD = 'postgres';
const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Why the topology cannot run here (a missing Debian package), or undefined. */
export function haToolsMissing(): string | undefined {
  const onPath = (name: string) => (process.env['PATH'] ?? '').split(':').some((dir) => existsSync(join(dir, name)));
  const missing = [['patroni', 'patroni'], ['etcd', 'etcd-server'], ['haproxy', 'haproxy']].filter(([bin]) => !onPath(bin!)).map(([, pkg]) => pkg);
  if (!existsSync(join(PG_BIN, 'postgres'))) missing.push('postgresql-15');
  return missing.length > 0 ? `missing Debian packages: ${missing.join(', ')}` : undefined;
}

export type NodeName = `node${(typeof NODES)[number]}`;

export interface HaTopology {
  readonly dataDir: string;
  /** Through HAProxy's leader port (5440). */
  leaderUrl(database?: string): string;
  /** Through HAProxy's replica port (5439). */
  replicaUrl(database?: string): string;
  /** The node whose Patroni answers 200 on /primary (or undefined between leaders). */
  leader(): Promise<NodeName | undefined>;
  /** The node whose Patroni answers 200 on /sync. */
  synchronousStandby(): Promise<NodeName | undefined>;
  /** SIGKILL of the leader's Patroni and PostgreSQL together (ops/ha/kill-node.sh); the node killed. */
  killLeader(): Promise<NodeName>;
  /** Starts whatever is not running (a killed node rejoins as a replica) and waits for a synchronous standby. */
  restartMissing(): Promise<void>;
  /** Waits until every node runs PostgreSQL again (Patroni's /health answers 200). */
  waitAllRunning(timeoutMs: number): Promise<void>;
  /** A planned switchover to the synchronous standby through Patroni's REST API; answers the new leader. */
  switchover(): Promise<{ from: NodeName; to: NodeName }>;
  /** The PostgreSQL port HAProxy's leader port reaches now (undefined while nothing answers). */
  routedLeaderPort(): Promise<number | undefined>;
  /** Stops everything and removes the data directory. */
  stop(): Promise<void>;
}

const restPort = (node: NodeName) => REST_PORT_BASE + Number(node.slice(4));

async function restStatus(node: NodeName, path: string): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${restPort(node)}${path}`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

async function nodeWith(path: string): Promise<NodeName | undefined> {
  for (const n of NODES) if ((await restStatus(`node${n}`, path)) === 200) return `node${n}`;
  return undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startHaTopology(options: { timeoutSeconds?: number } = {}): Promise<HaTopology> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-ha-'));
  const env = { ...process.env, HA_DATA_DIR: dataDir, HA_PG_PASSWORD: PASSWORD, HA_START_TIMEOUT: String(options.timeoutSeconds ?? 180) };
  const script = (name: string, ...args: string[]) => run(join(ROOT, 'ops/ha', name), args, { env, timeout: 300_000 });
  const url = (port: number, database: string) => `postgres://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;
  // A test that ends without reaching its cleanup (a timeout, an uncaught error) must not leave
  // three PostgreSQL servers, etcd and HAProxy holding their ports for the next run.
  const stopAtExit = () => { try { execFileSync(join(ROOT, 'ops/ha/stop.sh'), ['--purge'], { env, timeout: 60_000, stdio: 'ignore' }); } catch { /* nothing left to do at exit */ } };
  process.once('exit', stopAtExit);
  const topology: HaTopology = {
    dataDir,
    leaderUrl: (database = 'gateway') => url(HA_LEADER_PORT, database),
    replicaUrl: (database = 'gateway') => url(HA_REPLICA_PORT, database),
    leader: () => nodeWith('/primary'),
    synchronousStandby: () => nodeWith('/sync'),
    async killLeader() {
      const { stdout } = await script('kill-node.sh', 'leader');
      return stdout.trim() as NodeName;
    },
    async restartMissing() {
      await script('start.sh');
    },
    async waitAllRunning(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const statuses = await Promise.all(NODES.map((n) => restStatus(`node${n}`, '/health')));
        if (statuses.every((status) => status === 200)) return;
        if (Date.now() > deadline) throw new Error(`not every node runs after ${timeoutMs} ms: /health ${statuses.join(', ')}`);
        await sleep(500);
      }
    },
    async switchover() {
      const from = await topology.leader();
      const to = await topology.synchronousStandby();
      if (!from || !to) throw new Error(`no switchover without a leader (${from}) and a synchronous standby (${to})`);
      const response = await fetch(`http://127.0.0.1:${restPort(from)}/switchover`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ leader: from, candidate: to }), signal: AbortSignal.timeout(60_000) });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`switchover ${from} → ${to} refused: ${response.status} ${text}`);
      return { from, to };
    },
    async routedLeaderPort() {
      const client = new pg.Client({ connectionString: topology.leaderUrl('postgres'), connectionTimeoutMillis: 2_000 });
      try {
        await client.connect();
        const { rows } = await client.query<{ port: number; recovery: boolean }>('SELECT inet_server_port() AS port, pg_is_in_recovery() AS recovery');
        return rows[0]!.recovery ? undefined : rows[0]!.port;
      } catch {
        return undefined;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async stop() {
      process.removeListener('exit', stopAtExit);
      await script('stop.sh', '--purge');
    },
  };
  try {
    await script('start.sh');
  } catch (error) {
    await topology.stop().catch(() => undefined);
    const { stderr } = error as { stderr?: string };
    throw new Error(`ops/ha/start.sh failed: ${stderr ?? (error as Error).message}`);
  }
  return topology;
}
