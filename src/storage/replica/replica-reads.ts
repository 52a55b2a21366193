import { isDatabaseUnavailable } from '../errors.js';
import type { Queryable, QueryOptions, QueryResult, SqlValue, StaleReads, Storage } from '../port.js';
import { ReplicaLag } from './replica-lag.js';

export interface ReplicaReadSettings {
  /** READ_REPLICA_MAX_LAG_MS: the most a read may be behind the leader. */
  readonly maxLagMs: number;
  /** READ_REPLICA_LAG_CHECK_MS: how long one measure of the lag is trusted. */
  readonly lagCheckMs: number;
}

/** Entities whose last write is remembered before the old ones are forgotten. */
const MAX_REMEMBERED_WRITERS = 10_000;

/**
 * Stale-tolerant reads on a streaming replica, with two guarantees:
 * - bounded staleness: the replica is read only while it holds every commit the leader made up
 *   to maxLagMs ago (ReplicaLag; a check is trusted for lagCheckMs, so the bound includes it);
 * - read-your-writes: an entity that wrote (its request answered at time w, noteWrite) reads
 *   from the replica only once the replica holds every commit made before a moment after w. The
 *   writes are remembered per entity in this process, as times rather than WAL positions, so that
 *   noting one costs no query; another gateway process does not know them, which is why a
 *   look-up of one named payment that the replica misses is asked again of the leader
 *   (query-transactions.ts).
 * A replica that cannot be reached, or any statement that fails on it, is answered by the leader.
 */
export class ReplicaReads implements StaleReads {
  readonly #lastWrites = new Map<string, number>();
  /** The latest write forgotten while still within the bound: stands for every forgotten writer's. */
  #forgottenUpTo = Number.NEGATIVE_INFINITY;
  readonly #lag: ReplicaLag;
  readonly replicated = true;

  constructor(
    readonly leader: Storage,
    private readonly replica: Storage,
    private readonly settings: ReplicaReadSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#lag = new ReplicaLag(leader, replica, settings.lagCheckMs, now);
  }

  tolerant(writer?: string): Queryable {
    return {
      query: <Row>(sql: string, params?: readonly SqlValue[], options?: QueryOptions) =>
        this.servesFromReplica(writer) ? this.onReplica<Row>(sql, params, options) : this.leader.query<Row>(sql, params, options),
    };
  }

  noteWrite(entityId: string): void {
    // Re-inserted so that the map's order is the order of last writes: the oldest go first.
    this.#lastWrites.delete(entityId);
    this.#lastWrites.set(entityId, this.now());
    if (this.#lastWrites.size > MAX_REMEMBERED_WRITERS) this.forgetOldWrites();
  }

  /** Whether the next read of writer would go to the replica; checks the lag now (tests). */
  async wouldUseReplica(writer?: string): Promise<boolean> {
    await this.#lag.check();
    return this.servesFromReplica(writer);
  }

  async close(): Promise<void> {
    await this.replica.close();
  }

  private servesFromReplica(writer: string | undefined): boolean {
    const caughtUpTo = this.#lag.caughtUpTo();
    if (caughtUpTo === undefined || this.now() - caughtUpTo > this.settings.maxLagMs) return false;
    if (writer === undefined) return true;
    return (this.#lastWrites.get(writer) ?? this.#forgottenUpTo) < caughtUpTo;
  }

  private async onReplica<Row>(sql: string, params: readonly SqlValue[] | undefined, options: QueryOptions | undefined): Promise<QueryResult<Row>> {
    try {
      return await this.replica.query<Row>(sql, params, options);
    } catch (error) {
      // A read changes nothing: asking the leader again is always safe. A replica also cancels
      // reads that conflict with the WAL it replays (SQLSTATE 40001), which the leader never does.
      if (isDatabaseUnavailable(error)) this.#lag.markUnreachable();
      return this.leader.query<Row>(sql, params, options);
    }
  }

  /**
   * A write older than the staleness bound no longer matters (the replica is never read further
   * behind). Beyond that, the oldest are forgotten into #forgottenUpTo, which every writer without
   * an entry then has to wait for: memory stays bounded, and no write is ever ignored.
   */
  private forgetOldWrites(): void {
    const horizon = this.now() - this.settings.maxLagMs;
    for (const [entityId, at] of this.#lastWrites) {
      if (at >= horizon && this.#lastWrites.size <= MAX_REMEMBERED_WRITERS / 2) break;
      if (at >= horizon) this.#forgottenUpTo = Math.max(this.#forgottenUpTo, at);
      this.#lastWrites.delete(entityId);
    }
  }
}

/** No replica (PGlite, or no DATABASE_READ_URL): every read is the leader's, as before. */
export function leaderReads(storage: Storage): StaleReads {
  return { leader: storage, replicated: false, tolerant: () => storage, noteWrite: () => undefined, close: async () => undefined };
}
