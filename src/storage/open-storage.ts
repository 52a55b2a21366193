import { mkdirSync } from 'node:fs';
import type { Config } from '../config/load-config.js';
import { createPgStorage } from './pg-storage.js';
import { createPgliteStorage } from './pglite-storage.js';
import type { Storage } from './port.js';

/** Picks the adapter the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite. */
export async function openStorage(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'>): Promise<Storage> {
  if (config.databaseUrl) {
    return createPgStorage({ connectionString: config.databaseUrl, poolSize: config.databasePoolSize });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return createPgliteStorage(`${config.dataDir}/pglite`);
}
