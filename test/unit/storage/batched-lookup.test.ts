import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBatchedLookup, perStorage } from '../../../src/storage/batched-lookup.js';

/** A read the test releases by hand, recording the keys of every statement it was asked for. */
function gatedRead(fail: (keys: readonly string[]) => boolean = () => false) {
  const batches: string[][] = [];
  const gates: Array<() => void> = [];
  const read = async (keys: readonly string[]) => {
    batches.push([...keys]);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (fail(keys)) throw new Error(`cannot read ${keys.join()}`);
    return new Map(keys.filter((k) => !k.startsWith('missing')).map((k) => [k, `value of ${k}`]));
  };
  const openAll = async () => {
    for (let i = 0; i < 20 && gates.length > 0; i += 1) {
      for (const open of gates.splice(0)) open();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { read, batches, openAll };
}

describe('batched look-ups', () => {
  it('a lone look-up goes out at once; those asked meanwhile share the next statement, each key once', async () => {
    const { read, batches, openAll } = gatedRead();
    const lookUp = createBatchedLookup({ read, maxBatch: 10, maxInFlight: 1 });
    const first = lookUp('a');
    assert.deepEqual(batches, [['a']]);
    const rest = ['b', 'c', 'b', 'missing-1'].map((key) => lookUp(key));
    assert.equal(batches.length, 1, 'nothing more is sent while one statement is on its way');
    await openAll();
    assert.deepEqual(batches, [['a'], ['b', 'c', 'missing-1']]);
    assert.deepEqual(await Promise.all([first, ...rest]), ['value of a', 'value of b', 'value of c', 'value of b', undefined]);
  });

  it('keeps batches within maxBatch and maxInFlight statements on their way', async () => {
    const { read, batches, openAll } = gatedRead();
    const lookUp = createBatchedLookup({ read, maxBatch: 2, maxInFlight: 2 });
    const answers = ['a', 'b', 'c', 'd', 'e'].map((key) => lookUp(key));
    assert.deepEqual(batches, [['a'], ['b']]);
    await openAll();
    assert.deepEqual(batches, [['a'], ['b'], ['c', 'd'], ['e']]);
    assert.equal((await Promise.all(answers)).length, 5);
  });

  it('a failed batch is asked again key by key: only the bad key fails its caller', async () => {
    const { read, batches, openAll } = gatedRead((keys) => keys.includes('bad'));
    const lookUp = createBatchedLookup({ read, maxBatch: 10, maxInFlight: 1 });
    const first = lookUp('a');
    const good = lookUp('b');
    const bad = assert.rejects(lookUp('bad'), /cannot read bad/);
    await openAll();
    assert.equal(await first, 'value of a');
    assert.equal(await good, 'value of b');
    await bad;
    assert.deepEqual(batches, [['a'], ['b', 'bad'], ['b'], ['bad']]);
  });

  it('perStorage: one batched look-up per storage, made on first use', async () => {
    const made: object[] = [];
    const lookUp = perStorage((db: object) => {
      made.push(db);
      return createBatchedLookup({ read: async (keys: readonly string[]) => new Map(keys.map((k) => [k, made.length])), maxBatch: 10, maxInFlight: 1 });
    });
    const one = {};
    const two = {};
    await lookUp(one, 'x');
    await lookUp(one, 'y');
    await lookUp(two, 'x');
    assert.deepEqual(made, [one, two]);
  });
});
