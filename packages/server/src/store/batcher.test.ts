import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Batcher, Failed } from './batcher.ts';

test('keys that arrive together go in one batch; an idle batcher sends a key alone', async () => {
  const batches: number[][] = [];
  const b = new Batcher<number, string>(
    async (keys) => {
      batches.push(keys);
      return keys.map((k) => `v${k}`);
    },
    { maxBatch: 10, maxInFlight: 1 },
  );
  assert.deepEqual(await Promise.all([b.load(1), b.load(2), b.load(3)]), ['v1', 'v2', 'v3']);
  assert.equal(await b.load(4), 'v4');
  assert.deepEqual(batches, [[1, 2, 3], [4]]);
});

test('a batch is never larger than maxBatch, nor more batches in flight than maxInFlight', async () => {
  let inFlight = 0;
  let most = 0;
  const sizes: number[] = [];
  const b = new Batcher<number, number>(
    async (keys) => {
      inFlight++;
      most = Math.max(most, inFlight);
      sizes.push(keys.length);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return keys.map((k) => k * 2);
    },
    { maxBatch: 4, maxInFlight: 2 },
  );
  const keys = Array.from({ length: 30 }, (_, i) => i);
  assert.deepEqual(
    await Promise.all(keys.map((k) => b.load(k))),
    keys.map((k) => k * 2),
  );
  assert.ok(
    sizes.every((n) => n <= 4),
    String(sizes),
  );
  assert.equal(most, 2);
});

test('a failed batch fails each of its keys; a Failed answer fails its key alone', async () => {
  const boom = new Batcher<number, number>(
    async () => {
      throw new Error('down');
    },
    { maxBatch: 10, maxInFlight: 1 },
  );
  const all = await Promise.allSettled([boom.load(1), boom.load(2)]);
  assert.deepEqual(
    all.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  const partial = new Batcher<number, number>(async (keys) => keys.map((k) => (k === 2 ? new Failed(new Error('two')) : k)), {
    maxBatch: 10,
    maxInFlight: 1,
  });
  const some = await Promise.allSettled([partial.load(1), partial.load(2), partial.load(3)]);
  assert.deepEqual(
    some.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
    [1, 'two', 3],
  );
  const short = new Batcher<number, number>(async () => [1], { maxBatch: 10, maxInFlight: 1 });
  await assert.rejects(Promise.all([short.load(1), short.load(2)]), /a batch of 2 was answered with 1/);
});
