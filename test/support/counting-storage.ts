import type { Queryable, Storage } from '../../src/storage/port.js';

/**
 * A storage that counts the statements sent through it (inside transactions too), to see that
 * concurrent writes or look-ups share them. It is an object of its own, so the group commits and
 * batched look-ups made per storage are its own too.
 */
export function countingStorage(storage: Storage): { storage: Storage; statements: () => number } {
  let statements = 0;
  const counting = (db: Queryable): Queryable => ({
    query: (sql, params, options) => {
      statements += 1;
      return db.query(sql, params, options);
    },
  });
  return {
    storage: { ...storage, ...counting(storage), transaction: (fn) => storage.transaction((tx) => fn(counting(tx))) },
    statements: () => statements,
  };
}
