import { mkdirSync } from 'node:fs';
import type { Config } from '../config/load-config.js';
import { tracedStorage } from '../observability/tracing/traced-storage.js';
import { migrate } from './migrate.js';
import { createPgStorage } from './pg-storage.js';
import type { StaleReads, Storage } from './port.js';
import { leaderReads, ReplicaReads } from './replica/replica-reads.js';

type StorageConfig = Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePoolSize'> & Partial<Pick<Config, 'databaseFailoverWaitMs' | 'databasePoolMode'>>;

/** Picks the adapter the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite. */
export async function openStorage(config: StorageConfig): Promise<Storage> {
  // With tracing on (OTEL_*), a span per statement; as it is otherwise.
  if (config.databaseUrl) {
    return tracedStorage(createPgStorage({ connectionString: config.databaseUrl, poolSize: config.databasePoolSize, failoverWaitMs: config.databaseFailoverWaitMs ?? 0, transactionPooling: config.databasePoolMode === 'transaction' }));
  }
  mkdirSync(config.dataDir, { recursive: true });
  // Loaded only for the embedded database: PGlite's module alone takes about 40 MB of memory,
  // which a gateway on PostgreSQL has no use for.
  const { createPgliteStorage } = await import('./pglite-storage.js');
  return tracedStorage(await createPgliteStorage(`${config.dataDir}/pglite`));
}

/**
 * Opens the storage with every migration applied. On PostgreSQL the migrations run on a
 * connection of their own without the request path's statement timeout: building an index on a
 * large table may take minutes.
 */
export async function openMigratedStorage(config: StorageConfig): Promise<Storage> {
  if (config.databaseUrl) {
    const migrating = createPgStorage({ connectionString: config.databaseUrl, poolSize: 1, statementTimeoutMs: 0, transactionPooling: config.databasePoolMode === 'transaction' });
    try {
      await migrate(migrating);
    } finally {
      await migrating.close();
    }
    return openStorage(config);
  }
  const storage = await openStorage(config);
  await migrate(storage);
  return storage;
}

/**
 * The stale-tolerant reads (storage/port.ts StaleReads): on the replica of DATABASE_READ_URL when
 * set, else the leader's storage itself. The replica gets a small pool of its own: its reads are
 * the query API's, the reports' and the console's, not the payment path's.
 */
export function openStaleReads(config: Pick<Config, 'readReplica' | 'databasePoolSize' | 'databasePoolMode'>, leader: Storage): StaleReads {
  const replica = config.readReplica;
  if (replica === undefined || leader.kind !== 'postgres') return leaderReads(leader);
  const replicaStorage = tracedStorage(createPgStorage({ connectionString: replica.url, poolSize: config.databasePoolSize, transactionPooling: config.databasePoolMode === 'transaction' }));
  return new ReplicaReads(leader, replicaStorage, { maxLagMs: replica.maxLagMs, lagCheckMs: replica.lagCheckMs });
}
