import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { portInUse } from './pg-replica-cluster.js';

/** Debian's package pgbouncer. */
export const PGBOUNCER = '/usr/sbin/pgbouncer';

export function pgbouncerUnavailable(): string | undefined {
  if (!existsSync(PGBOUNCER)) return `no ${PGBOUNCER} (apt-get install pgbouncer)`;
  if (process.getuid?.() !== 0) return 'needs root to run PgBouncer as the postgres user';
  return undefined;
}

export interface Pgbouncer {
  /** postgres://… of the pooled database through PgBouncer. */
  readonly url: string;
  stop(): Promise<void>;
}

export interface PgbouncerOptions {
  /** The server behind it: postgres://user:password@host:port/database. */
  readonly serverUrl: string;
  readonly port?: number;
  readonly poolMode?: 'transaction' | 'session';
  /** Server connections of the pool: fewer than the gateway's, so that they are shared. */
  readonly poolSize?: number;
}

/**
 * PgBouncer in front of one database, as the gateway's docs describe it (docs/operations.md,
 * "Behind PgBouncer"): transaction pooling, trust between the gateway and PgBouncer on 127.0.0.1,
 * the server's own password towards PostgreSQL. Run as the postgres user, stopped by the caller.
 */
export async function startPgbouncer(options: PgbouncerOptions): Promise<Pgbouncer> {
  const port = options.port ?? 6452;
  if (await portInUse(port)) throw new Error(`port ${port} is in use: another PgBouncer is still running`);
  const server = new URL(options.serverUrl);
  const database = server.pathname.slice(1);
  const dir = await mkdtemp(join(tmpdir(), 'gateway-pgbouncer-'));
  await writeFile(join(dir, 'userlist.txt'), `"${decodeURIComponent(server.username)}" ""\n`);
  await writeFile(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `${database} = host=${server.hostname} port=${server.port || 5432} dbname=${database} user=${decodeURIComponent(server.username)} password=${decodeURIComponent(server.password)}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    `unix_socket_dir = ${dir}`,
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `pool_mode = ${options.poolMode ?? 'transaction'}`,
    `default_pool_size = ${options.poolSize ?? 4}`,
    'max_client_conn = 200',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    '',
  ].join('\n'));
  await chmod(dir, 0o700);
  const [uid, gid] = postgresIds();
  for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) await chown(join(dir, file), uid, gid);
  // Started as the postgres user directly (not through runuser), so that the signal reaches it.
  const child = spawn(PGBOUNCER, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore', uid, gid });
  await waitForPort(port, child);
  return {
    url: `postgres://${server.username}@127.0.0.1:${port}/${database}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // SIGTERM: at once. SIGINT would wait for every client to leave.
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function postgresIds(): [number, number] {
  return [Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), Number(execFileSync('id', ['-g', 'postgres']).toString().trim())];
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited with ${child.exitCode}`);
    if (await portInUse(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`pgbouncer did not listen on ${port}`);
}
