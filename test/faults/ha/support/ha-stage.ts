/**
 * What the failover test runs on the replicated PostgreSQL of ops/ha/: a schema of its own in the
 * `gateway` database reached through HAProxy's leader port, two gateway processes (the first runs
 * the migrations), a worker process for the background jobs (the pending resolution among them),
 * and a merchant. Everything the stage started is stopped by close(), also after a failure.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startGatewayProcess } from '../../../../bench/support/gateway.js';
import { scratchDataDir, startNodeProcess, type NodeProcess } from '../../../../bench/support/node-process.js';
import { createMerchant, urlWithSchema } from '../../../../bench/support/postgres.js';
import type { Merchant } from '../../support/payment-load.js';

export interface HaStage {
  readonly schemaUrl: string;
  readonly merchant: Merchant;
  readonly gateways: readonly NodeProcess[];
  readonly worker: NodeProcess;
  /** A fresh client on the schema (through HAProxy, so on whichever node leads now). */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export async function openHaStage(leaderUrl: string, env: Readonly<Record<string, string>>): Promise<HaStage> {
  const schema = `fault_ha_${randomBytes(5).toString('hex')}`;
  const query = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: leaderUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query(`SET search_path = ${schema}`);
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await query(`CREATE SCHEMA ${schema}`);
  const schemaUrl = urlWithSchema(leaderUrl, schema);
  const gatewayEnv = { ...env, WORKERS_IN_GATEWAY: 'false' };
  const gateways: NodeProcess[] = [];
  let worker: NodeProcess | undefined;
  const close = async () => {
    await Promise.all([...gateways, ...(worker ? [worker] : [])].map((child) => child.stop('SIGKILL')));
  };
  try {
    gateways.push(await startGatewayProcess({ databaseUrl: schemaUrl, env: gatewayEnv }));
    gateways.push(await startGatewayProcess({ databaseUrl: schemaUrl, env: gatewayEnv }));
    const merchant = await createMerchant(schemaUrl, 'Failover shop');
    // As `npm run worker` runs it; ready once its metrics listener answers (after the migrations).
    worker = await startNodeProcess({ script: 'dist/worker.js', readyPath: '/metrics', env: { ...env, DATABASE_URL: schemaUrl, DATA_DIR: scratchDataDir(), LOG_LEVEL: 'warn', REDIS_URL: '', METRICS_PORT: '0' } });
    return { schemaUrl, merchant, gateways, worker, query, close };
  } catch (error) {
    await close();
    throw error;
  }
}
