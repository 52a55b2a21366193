/**
 * The storage port: the whole domain is written against this, once, and runs on both
 * PostgreSQL (pg pool) and the embedded PGlite. Values come back normalised the same way on
 * both: int8 as bigint, numeric as string, timestamptz as Date.
 */
export type SqlValue = string | number | bigint | boolean | Date | null | Buffer | Uint8Array | readonly string[];

export interface QueryResult<Row> {
  readonly rows: Row[];
  readonly rowCount: number;
}

export interface QueryOptions {
  /**
   * Keep the parsed statement on its connection under this name (PostgreSQL's extended protocol),
   * so that later runs skip parsing: for the few statements every payment runs. PGlite, one
   * process, ignores it. The name must always stand for the same SQL text.
   */
  readonly prepareAs?: string;
  /**
   * Running the statement twice leaves the database as running it once (an UPDATE to fixed
   * values): when its answer is lost it is run again on another connection, within the failover
   * wait, instead of becoming CommitUncertainError.
   */
  readonly idempotent?: boolean;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[], options?: QueryOptions): Promise<QueryResult<Row>>;
}

export interface Storage extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /**
   * Where the grouped payment writes (group commit) go when it differs from the storage itself: on
   * PostgreSQL, connections of their own whose few statements are planned once (pg-storage.ts).
   */
  readonly groupWrites?: Storage;
  /** Runs fn inside one database transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The connection pools behind this storage, read when metrics are scraped: PostgreSQL's general
   * pool and the group writes'. Absent where there is no pool (PGlite, one connection in-process).
   */
  poolStats?(): readonly PoolStats[];
}

/** One connection pool, now. */
export interface PoolStats {
  readonly pool: 'main' | 'group_writes';
  /** Connections open and handed out to a query or transaction. */
  readonly inUse: number;
  /** Connections open and free. */
  readonly idle: number;
  /** Queries waiting for a connection. */
  readonly waiting: number;
  /** The most connections the pool may open. */
  readonly max: number;
}

/** Raised when the database cannot be reached or fails for reasons that are not the request's. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('database unavailable', { cause });
    this.name = 'StorageUnavailableError';
  }
}

/**
 * Reads that tolerate a bounded staleness (the query API, the settlement reports, the console's
 * search and export): served by a read replica (DATABASE_READ_URL) while it is no further behind
 * the leader than READ_REPLICA_MAX_LAG_MS and has replayed the reading entity's own last write,
 * else by the leader. Without a replica, everything is the leader (storage/stale-reads.ts).
 */
export interface StaleReads {
  /** The leader, for a look-up the replica did not find (it may not have replayed it yet). */
  readonly leader: Queryable;
  /** Whether a replica is in play at all: without one, noting writes is pointless. */
  readonly replicated: boolean;
  /**
   * Where the next reads go; `writer` is the entity whose own writes must be visible (the
   * merchant asking), decided at each statement from the replica's cached lag.
   */
  tolerant(writer?: string): Queryable;
  /** An entity has just written (its request answered): its next reads need a replica past this. */
  noteWrite(entityId: string): void;
  close(): Promise<void>;
}
