import type { Context } from '@opentelemetry/api';
import { submittedContext, traceGroupWrite } from '../observability/tracing/group-span.js';
import { tracingOn } from '../observability/tracing/state.js';
import { CommitUncertainError, isCommitUncertain, isDatabaseUnavailable, isUniqueViolation, NotSentError, TransactionLostError } from './errors.js';
import type { Queryable, Storage } from './port.js';
import { fatesOfUncertainGroup } from './uncertain-write.js';

/**
 * Group commit: writes that concurrent requests submit while earlier ones are still on their way
 * to the database are written together — one statement (or one transaction) and one commit for
 * the whole group instead of one each. A lone write goes out at once, so nothing waits for a
 * timer; under load, groups grow by themselves to what arrived during the previous round trip.
 *
 * Each submitter is answered only after its group committed, so a request never reports what the
 * database does not hold. When a group fails for a reason of the data (a constraint), every item
 * is written again alone, so that one bad item fails only its own request; when the database is
 * unavailable, the whole group fails with that error, and so does every item queued behind it.
 * When the connection is lost after the group's statement or COMMIT was sent (CommitUncertainError)
 * no item is acknowledged from that answer. With `recover`, the leader (the new one, after a
 * failover) is asked, within the failover wait, which items' rows it holds: those answer as
 * committed, the others are written once more (it does not have them, so no duplicate can come
 * of it); only when no leader answers does each item get the uncertain error. A group
 * transaction whose connection was lost before its COMMIT was sent (TransactionLostError) was
 * rolled back, and is written once more.
 */
export interface GroupCommitOptions<Item, Result = void> {
  readonly storage: Storage;
  /** Writes a whole group. Must treat the items as independent rows: any subset may be written. */
  readonly write: (db: Queryable, items: readonly Item[]) => Promise<readonly ItemResult<Result>[] | void>;
  /** Several statements need a transaction around them; a single statement is atomic by itself. */
  readonly transactional: boolean;
  /** Most items in one group: bounds one statement's size and time. */
  readonly maxGroupSize: number;
  /** Most groups on their way at once (each holds one pooled connection). */
  readonly maxConcurrentGroups: number;
  /** Told the size of every group written (one statement or transaction), for the metrics; must not throw or wait. */
  readonly onGroup?: ((size: number) => void) | undefined;
  /** Names the group's span when tracing is on (pending, settle …). */
  readonly name?: string;
  /** How to find out what a group whose commit was never acknowledged did; without it, its items stay uncertain. */
  readonly recover?: UncertainGroupRecovery<Item> | undefined;
}

export interface UncertainGroupRecovery<Item> {
  /**
   * Which of the items the leader holds, in order: a read by the rows' known ids (and the state
   * an update set). Must refuse to answer from a replica (a locking read: 25006 there), so the
   * storage waits for the leader; it rejects when none answers within the failover wait.
   */
  readonly committed: (db: Queryable, items: readonly Item[]) => Promise<readonly boolean[]>;
  /** Whether the item's answer is what its write's own statement read (a risk check's counts). */
  readonly answerFromWrite?: ((item: Item) => boolean) | undefined;
  /**
   * Those answers read again for committed items, as their statement would have seen them;
   * without it (or when it fails), such an item stays uncertain.
   */
  readonly readAnswers?: ((db: Queryable, items: readonly Item[]) => Promise<readonly unknown[]>) | undefined;
}

/**
 * What a group write says of each of its items, in the order given, when items of one group may
 * fare differently: a reservation refused by its rule fails its own request while the rest of
 * the group commits. A write that succeeds or fails as a whole answers nothing (void).
 */
export type ItemResult<Result> = { readonly ok: true; readonly value: Result } | { readonly ok: false; readonly error: unknown };

export interface GroupCommit<Item, Result = void> {
  /** Resolves once the item is committed (with what the write answered for it); rejects with the error that prevented it. */
  submit(item: Item): Promise<Result>;
}

interface Waiting<Item, Result> {
  readonly item: Item;
  readonly resolve: (value: Result) => void;
  readonly reject: (error: unknown) => void;
  /** The submitter's trace context (tracing on only): the group's span links to it. */
  readonly trace?: Context | undefined;
}

export function createGroupCommit<Item, Result = void>(options: GroupCommitOptions<Item, Result>): GroupCommit<Item, Result> {
  const queue: Waiting<Item, Result>[] = [];
  let inFlight = 0;

  const writeItems = (items: readonly Item[]): Promise<readonly ItemResult<Result>[] | void> =>
    options.transactional ? options.storage.transaction((tx) => options.write(tx, items)) : options.write(options.storage, items);
  const writeGroup = (group: readonly Waiting<Item, Result>[]) => {
    const items = group.map((w) => w.item);
    return tracingOn ? traceGroupWrite(options.name ?? 'write', options.transactional, group.map((w) => w.trace), () => writeItems(items)) : writeItems(items);
  };

  /** `recovering`: the group is a rewrite after an unseen commit, which is not recovered a second time. */
  async function commit(group: readonly Waiting<Item, Result>[], recovering = false): Promise<void> {
    options.onGroup?.(group.length);
    try {
      const results = await writeGroup(group);
      group.forEach((w, index) => answer(w, results ? results[index] : undefined));
    } catch (error) {
      if (isCommitUncertain(error) && options.recover && !recovering && (await recovered(group, options.recover))) return;
      // A group transaction cut before its COMMIT (a planned switchover shuts the old leader down
      // under it) was rolled back: written once more, on the leader the storage waits for.
      if (error instanceof TransactionLostError && !recovering) {
        await commit(group, true);
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // A group whose commit was sent but never acknowledged may or may not be in the database:
        // every one of its items is uncertain (never a success, never a decline), and so it is
        // never written again item by item. What queued behind it would only wait for the same
        // outage (up to a statement timeout each, one group after another): it fails now, so
        // every request is answered within about one timeout; it was never sent, so it is only
        // unavailable.
        for (const w of group) w.reject(error);
        const behind = isCommitUncertain(error) ? new NotSentError(error) : error;
        for (const w of queue.splice(0)) w.reject(behind);
        return;
      }
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      await Promise.all(group.map((w) => commit([w], recovering)));
    }
  }

  /**
   * Asks the leader which of the group's items committed, answers those, and writes the rest
   * once more; false (nothing answered) when no leader answered. What queued behind waits meanwhile.
   */
  async function recovered(group: readonly Waiting<Item, Result>[], recover: UncertainGroupRecovery<Item>): Promise<boolean> {
    let found: readonly boolean[];
    try {
      found = await recover.committed(options.storage, group.map((w) => w.item));
    } catch {
      return false;
    }
    const fates = fatesOfUncertainGroup(found, group.map((w) => recover.answerFromWrite?.(w.item) ?? false));
    const again: Waiting<Item, Result>[] = [];
    const toRead: Waiting<Item, Result>[] = [];
    group.forEach((w, index) => {
      if (fates[index] === 'committed') w.resolve(undefined as Result);
      else if (fates[index] === 'write-again') again.push(w);
      else toRead.push(w);
    });
    await Promise.all([answerRead(toRead, recover), again.length > 0 ? commit(again.map((w) => committedMeanwhile(w, recover)), true) : undefined]);
    return true;
  }

  /**
   * An item written again whose rows arrived in the meantime (the lost statement was still
   * running on the server when the leader was asked: a partition, not a failover) is refused by
   * its unique key: it committed once, and is answered as committed.
   */
  function committedMeanwhile(w: Waiting<Item, Result>, recover: UncertainGroupRecovery<Item>): Waiting<Item, Result> {
    return {
      ...w,
      reject: (error: unknown) => {
        if (!isUniqueViolation(error)) w.reject(error);
        else if (recover.answerFromWrite?.(w.item)) void answerRead([w], recover);
        else w.resolve(undefined as Result);
      },
    };
  }

  /** Committed items whose answer their lost statement read: read again, else uncertain. */
  async function answerRead(group: readonly Waiting<Item, Result>[], recover: UncertainGroupRecovery<Item>): Promise<void> {
    if (group.length === 0) return;
    try {
      if (!recover.readAnswers) throw new Error('no way to read the answer again');
      const answers = await recover.readAnswers(options.storage, group.map((w) => w.item));
      group.forEach((w, index) => w.resolve(answers[index] as Result));
    } catch (error) {
      const uncertain = new CommitUncertainError(`the leader holds the write, but not the answer its statement read (${error instanceof Error ? error.message : String(error)})`);
      for (const w of group) w.reject(uncertain);
    }
  }

  function answer(waiting: Waiting<Item, Result>, result: ItemResult<Result> | undefined): void {
    // A write that answers nothing is one whose Result is void.
    if (!result) waiting.resolve(undefined as Result);
    else if (result.ok) waiting.resolve(result.value);
    else waiting.reject(result.error);
  }

  function pump(): void {
    while (inFlight < options.maxConcurrentGroups && queue.length > 0) {
      const group = queue.splice(0, options.maxGroupSize);
      inFlight += 1;
      void commit(group).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  }

  return {
    submit(item: Item): Promise<Result> {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject, trace: submittedContext() });
        pump();
      });
    },
  };
}
