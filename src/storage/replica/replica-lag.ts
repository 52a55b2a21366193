import type { Queryable } from '../port.js';

/** A moment on this process's monotonic clock (performance.now()), and where the leader's WAL was then. */
interface LeaderMark {
  readonly at: number;
  readonly lsn: bigint;
}

/** Leader marks kept while the replica has not replayed them; older ones are dropped first. */
const MAX_MARKS = 64;

/** PostgreSQL's text form of a WAL position, `16/B374D848`, as one number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * How far a streaming replica is behind its leader, known cheaply: at most once per
 * checkIntervalMs (and only while reads ask), the leader's current WAL position is noted with the
 * time, then the replica's replayed position is read. Once the replica has replayed past a noted
 * position, it holds every commit the leader made before that time: `caughtUpTo`. Comparing
 * positions, rather than pg_last_xact_replay_timestamp(), does not mistake an idle leader (no
 * new transactions to replay) for a lagging replica.
 */
export class ReplicaLag {
  #marks: LeaderMark[] = [];
  #caughtUpTo: number | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #checking: Promise<void> | undefined;

  constructor(
    private readonly leader: Queryable,
    private readonly replica: Queryable,
    private readonly checkIntervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The replica holds every commit the leader made before this moment (monotonic ms); undefined
   * while unknown or unreachable. Starts a check in the background when the last is old: the
   * caller never waits for one.
   */
  caughtUpTo(): number | undefined {
    if (this.now() - this.#checkedAt >= this.checkIntervalMs && this.#checking === undefined) void this.check();
    return this.#caughtUpTo;
  }

  /** A statement on the replica failed to connect: it is not used until a check finds it again. */
  markUnreachable(): void {
    this.#caughtUpTo = undefined;
  }

  /** One check now (at most one at a time); tests and the first read wait for it. */
  check(): Promise<void> {
    this.#checking ??= this.measure().catch(() => undefined).finally(() => { this.#checking = undefined; });
    return this.#checking;
  }

  private async measure(): Promise<void> {
    const at = this.now();
    this.#checkedAt = at;
    const leader = await this.leader.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    this.#marks.push({ at, lsn: parseLsn(leader.rows[0]!.lsn) });
    if (this.#marks.length > MAX_MARKS) this.#marks.shift();
    let replayed: string | null;
    try {
      // NULL on a server that is not a standby: not a replica of anything, so never read from.
      replayed = (await this.replica.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn')).rows[0]?.lsn ?? null;
    } catch {
      replayed = null;
    }
    if (replayed === null) return this.markUnreachable();
    this.advance(parseLsn(replayed));
  }

  private advance(replayed: bigint): void {
    let reached = -1;
    this.#marks.forEach((mark, index) => { if (mark.lsn <= replayed) reached = index; });
    if (reached < 0) return;
    const mark = this.#marks[reached]!;
    this.#caughtUpTo = Math.max(this.#caughtUpTo ?? Number.NEGATIVE_INFINITY, mark.at);
    this.#marks = this.#marks.slice(reached + 1);
  }
}
