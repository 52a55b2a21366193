/**
 * A PostgreSQL schema of the benchmark's own, so runs never touch another test's tables and
 * leave nothing behind; the gateway reaches it through `search_path` in DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { randomIds, systemClock } from '../../src/domain/ids.js';
import { createEntity, type CreatedEntity } from '../../src/operations/admin/create-entity.js';
import { createPgStorage } from '../../src/storage/pg-storage.js';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export function benchDatabaseUrl(): string {
  return process.env['BENCH_DATABASE_URL'] ?? process.env['TEST_DATABASE_URL'] ?? DEFAULT_DATABASE_URL;
}

/** The URL with `search_path` set to the schema, the way an operator would point a gateway at it. */
export function urlWithSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** The same URL aimed at another host and port (a TCP proxy in front of the server). */
export function urlThrough(url: string, host: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  return parsed.toString();
}

export interface BenchSchema {
  readonly name: string;
  /** DATABASE_URL for a gateway working in this schema. */
  readonly url: string;
  /** A client of the benchmark's own, with search_path set to the schema. */
  readonly admin: pg.Client;
  drop(): Promise<void>;
}

export async function createBenchSchema(prefix: string, url = benchDatabaseUrl()): Promise<BenchSchema> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${name}`);
  await admin.query(`SET search_path = ${name}`);
  return {
    name,
    url: urlWithSchema(url, name),
    admin,
    async drop() {
      await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await admin.end();
    },
  };
}

/** A merchant with its access token, written through the gateway's own operation. */
export async function createMerchant(schemaUrl: string, name = 'Bench shop'): Promise<CreatedEntity> {
  const storage = createPgStorage({ connectionString: schemaUrl, poolSize: 1 });
  try {
    return await createEntity({ storage, clock: systemClock, ids: randomIds }, { name });
  } finally {
    await storage.close();
  }
}

export async function serverVersion(admin: pg.Client): Promise<string> {
  const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
  return rows[0]?.server_version ?? 'unknown';
}
