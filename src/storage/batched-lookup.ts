/**
 * Look-ups by key that concurrent requests make at the same moment, answered by one statement
 * (`WHERE id = ANY($1)`) instead of a round trip each. On this hardware a round trip's socket
 * write and the database's fixed cost per statement were most of what a redirect's completion or
 * a widget payment cost beyond a DB payment (docs/performance.md, issue 36). As with group
 * commit, a lone look-up goes out at once and nothing waits for a timer: under load a batch is
 * what arrived while the previous one was on its way.
 *
 * A batch reads what is committed when its statement runs, as each look-up alone would have (it
 * is never sent before any of its look-ups was asked). A failed batch of several is asked again
 * key by key, so that one bad key fails only its own caller.
 */
export interface BatchedLookupOptions<Key, Value> {
  /** Reads the values of the keys found; a key missing from the map is not there. */
  readonly read: (keys: readonly Key[]) => Promise<ReadonlyMap<Key, Value>>;
  /** Most keys in one statement. */
  readonly maxBatch: number;
  /** Most statements on their way at once (each holds a pooled connection while it runs). */
  readonly maxInFlight: number;
}

interface Asking<Key, Value> {
  readonly key: Key;
  readonly resolve: (value: Value | undefined) => void;
  readonly reject: (error: unknown) => void;
}

export type BatchedLookup<Key, Value> = (key: Key) => Promise<Value | undefined>;

export function createBatchedLookup<Key, Value>(options: BatchedLookupOptions<Key, Value>): BatchedLookup<Key, Value> {
  const queue: Asking<Key, Value>[] = [];
  let inFlight = 0;

  async function answer(batch: readonly Asking<Key, Value>[]): Promise<void> {
    try {
      const found = await options.read([...new Set(batch.map((a) => a.key))]);
      for (const asking of batch) asking.resolve(found.get(asking.key));
    } catch (error) {
      if (batch.length === 1) batch[0]!.reject(error);
      else await Promise.all(batch.map((asking) => answer([asking])));
    }
  }

  function pump(): void {
    while (inFlight < options.maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, options.maxBatch);
      inFlight += 1;
      void answer(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  }

  return (key) => new Promise<Value | undefined>((resolve, reject) => {
    queue.push({ key, resolve, reject });
    pump();
  });
}

/**
 * One batched look-up per storage (and per kind of look-up): made on first use, kept as long as
 * the storage lives, so a gateway's look-ups share batches and a test's storage has its own.
 */
export function perStorage<Db extends object, Key, Value>(make: (db: Db) => BatchedLookup<Key, Value>): (db: Db, key: Key) => Promise<Value | undefined> {
  const lookups = new WeakMap<Db, BatchedLookup<Key, Value>>();
  return (db, key) => {
    let lookup = lookups.get(db);
    if (!lookup) {
      lookup = make(db);
      lookups.set(db, lookup);
    }
    return lookup(key);
  };
}

/**
 * Two statements on their way at once: a batch that waits for the one ahead of it waits at most
 * one round trip, and the pool (10 connections by default) keeps room for everything else.
 */
export const LOOKUP_BATCH = { maxBatch: 128, maxInFlight: 2 } as const;
