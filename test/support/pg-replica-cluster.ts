import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 server programs (package postgresql-15). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Why a streaming-replica cluster cannot be made here; undefined when it can. */
export function replicaClusterUnavailable(): string | undefined {
  if (!existsSync(join(PG_BIN, 'pg_basebackup'))) return `no PostgreSQL 15 programs in ${PG_BIN}`;
  if (process.getuid?.() !== 0) return 'needs root to run the servers as the postgres user';
  return undefined;
}

/** Runs one program as the postgres user (a server refuses to run as root). */
export async function asPostgres(program: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run('runuser', ['-u', 'postgres', '--', program, ...args], { timeout: 120_000 });
  return stdout;
}

/** Whether something listens on the port, so that a test never takes over another's server. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

export interface ReplicaCluster {
  /** postgres://… of the database `gateway` on the primary and on the replica. */
  readonly primaryUrl: string;
  readonly replicaUrl: string;
  /** Stops replaying WAL on the replica (pg_wal_replay_pause): it stays up, and falls behind. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  waitForReplay(timeoutMs?: number): Promise<void>;
  /** Stops the replica's server at once (the primary stays up). */
  stopReplica(): Promise<void>;
  /** Stops both servers and removes their data; safe to call twice. */
  stop(): Promise<void>;
}

export interface ReplicaClusterOptions {
  readonly primaryPort?: number;
  readonly replicaPort?: number;
}

// Settings for a short-lived test cluster: small, quick, nothing kept for crash safety.
const SERVER_SETTINGS = (dir: string, port: number) => [
  `port = ${port}`,
  `listen_addresses = '127.0.0.1'`,
  `unix_socket_directories = '${dir}'`,
  'wal_level = replica',
  'max_wal_senders = 4',
  'hot_standby = on',
  'fsync = off',
  'synchronous_commit = off',
  'full_page_writes = off',
  'shared_buffers = 32MB',
  'max_connections = 60',
  'logging_collector = off',
].join('\n');

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function startServer(dataDir: string, logFile: string): Promise<void> {
  await asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-w', '-t', '60', 'start']);
}

async function stopServer(dataDir: string): Promise<void> {
  if (!existsSync(join(dataDir, 'postmaster.pid'))) return;
  await asPostgres(join(PG_BIN, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
}

/**
 * A primary and a streaming replica of it (pg_basebackup -R), each its own PostgreSQL 15 server
 * under a temporary folder, run as the postgres user; trust authentication on 127.0.0.1 only.
 * The caller stops it (also when a test fails): `after(() => cluster.stop())`.
 */
export async function startReplicaCluster(options: ReplicaClusterOptions = {}): Promise<ReplicaCluster> {
  const primaryPort = options.primaryPort ?? 5451;
  const replicaPort = options.replicaPort ?? 5452;
  for (const port of [primaryPort, replicaPort]) if (await portInUse(port)) throw new Error(`port ${port} is in use: another cluster is still running`);
  const dir = await mkdtemp(join(tmpdir(), 'gateway-replica-'));
  await chmod(dir, 0o700);
  await chown(dir, ...(await postgresIds()));
  const primary = join(dir, 'primary');
  const replica = join(dir, 'replica');
  const cluster = clusterOn(dir, primary, replica, primaryPort, replicaPort);
  try {
    await asPostgres(join(PG_BIN, 'initdb'), ['-D', primary, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await appendFile(join(primary, 'postgresql.conf'), `\n${SERVER_SETTINGS(dir, primaryPort)}\n`);
    await startServer(primary, join(dir, 'primary.log'));
    await withClient(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, (c) => c.query('CREATE DATABASE gateway'));
    await asPostgres(join(PG_BIN, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replica, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    await appendFile(join(replica, 'postgresql.conf'), `\nport = ${replicaPort}\n`);
    await startServer(replica, join(dir, 'replica.log'));
    await cluster.waitForReplay();
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

async function postgresIds(): Promise<[number, number]> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return [Number(stdout.trim()), Number(group.trim())];
}

function clusterOn(dir: string, primary: string, replica: string, primaryPort: number, replicaPort: number): ReplicaCluster {
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/gateway`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/gateway`;
  let stopped = false;
  return {
    primaryUrl,
    replicaUrl,
    // pg_wal_replay_pause() only requests the pause: replay may still apply what it holds until the
    // startup process reaches it, so the test waits for 'paused' (a busy host took long enough to fail the test).
    pauseReplay: () => withClient(replicaUrl, async (c) => {
      await c.query('SELECT pg_wal_replay_pause()');
      const deadline = Date.now() + 10_000;
      while ((await c.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0]?.state !== 'paused') {
        if (Date.now() > deadline) throw new Error('the replica did not pause its replay within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }),
    resumeReplay: () => withClient(replicaUrl, async (c) => { await c.query('SELECT pg_wal_replay_resume()'); }),
    async waitForReplay(timeoutMs = 30_000) {
      const target = await withClient(primaryUrl.replace(/\/gateway$/, '/postgres'), async (c) => (await c.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0]!.lsn);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const caughtUp = await withClient(replicaUrl.replace(/\/gateway$/, '/postgres'), async (c) =>
          (await c.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [target])).rows[0]?.ok === true).catch(() => false);
        if (caughtUp) return;
        if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${target} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    stopReplica: () => stopServer(replica),
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopServer(replica);
      await stopServer(primary);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
