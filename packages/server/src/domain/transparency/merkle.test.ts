import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { appendLeaves, consistencyProof, EMPTY_ROOT, inclusionProof, leafHash, MemoryNodes, rootAt } from './merkle.ts';

// The independent verifier (test/transparency-verifier.ts) shares no code with merkle.ts.
import { H_LEAF, mth, verifyConsistency, verifyInclusion, H_NODE } from '../../../test/transparency-verifier.ts';

const sha = (...p: Buffer[]) => createHash('sha256').update(Buffer.concat(p)).digest();
const hex = (b: Buffer) => b.toString('hex');
const unhex = (s: string) => Buffer.from(s, 'hex');

/** A tree grown by appendLeaves in batches of varied sizes, as the appender grows it. */
function grow(data: Buffer[]): MemoryNodes {
  const store = new MemoryNodes();
  let frontier: Buffer[] = [];
  let size = 0;
  let batch = 1;
  while (size < data.length) {
    const next = data.slice(size, size + batch);
    const r = appendLeaves(size, frontier, next.map(leafHash));
    store.add(r.nodes);
    frontier = r.frontier;
    size += next.length;
    batch = ((batch * 7 + 3) % 23) + 1;
  }
  return store;
}
const flip = (b: Buffer, bit: number) => {
  const c = Buffer.from(b);
  c[bit >> 3]! ^= 1 << (bit & 7);
  return c;
};

// The Certificate Transparency reference tree (RFC 6962 test data, as in Go's transparency-dev/merkle and trillian).
const CT_DATA = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const CT_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

test('the tree heads of the RFC 6962 reference data, at every size 0–8', async () => {
  const store = grow(CT_DATA);
  assert.equal(hex(EMPTY_ROOT), CT_ROOTS[0]);
  for (let n = 0; n <= 8; n++) assert.equal(hex(await rootAt(n, store)), CT_ROOTS[n], `size ${n}`);
});

test('the reference inclusion and consistency proofs, byte for byte', async () => {
  const store = grow(CT_DATA);
  const inc = async (m: number, n: number) => (await inclusionProof(m, n, store)).map(hex);
  const con = async (m: number, n: number) => (await consistencyProof(m, n, store)).map(hex);
  assert.deepEqual(await inc(0, 8), [
    '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
  ]);
  assert.deepEqual(await inc(5, 8), [
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  ]);
  assert.deepEqual(await inc(2, 3), ['fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125']);
  assert.deepEqual(await inc(1, 5), [
    '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
  ]);
  assert.deepEqual(await inc(0, 1), []);
  assert.deepEqual(await con(1, 1), []);
  assert.deepEqual(await con(1, 8), [
    '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
  ]);
  assert.deepEqual(await con(6, 8), [
    '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
    'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
    'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  ]);
  assert.deepEqual(await con(2, 5), [
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
  ]);
  assert.deepEqual(await con(2, 8), [
    '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
    '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
  ]);
});

const data = (n: number, salt = 0) => Array.from({ length: n }, (_, i) => Buffer.from(`leaf ${salt}/${i}`));

test('every inclusion and consistency proof of every size 1–300 verifies independently; a flipped bit fails', async () => {
  const d = data(300);
  const store = grow(d);
  const roots: Buffer[] = [sha()];
  for (let n = 1; n <= 300; n++) roots.push(mth(d.slice(0, n)));
  let checked = 0;
  for (let n = 1; n <= 300; n++) {
    assert.equal(hex(await rootAt(n, store)), hex(roots[n]!), `root ${n}`);
    for (let m = 0; m < n; m++) {
      const path = await inclusionProof(m, n, store);
      assert.ok(verifyInclusion(m, n, H_LEAF(d[m]!), path, roots[n]!), `inclusion ${m}/${n}`);
      if (path.length > 0 && (m + n) % 5 === 0) {
        const i = (m * 31 + n) % path.length;
        const bad = path.map((p, j) => (j === i ? flip(p, (m + n) % 256) : p));
        assert.ok(!verifyInclusion(m, n, H_LEAF(d[m]!), bad, roots[n]!), `flipped inclusion ${m}/${n}`);
      }
      const proof = await consistencyProof(m + 1, n, store);
      assert.ok(verifyConsistency(m + 1, n, roots[m + 1]!, roots[n]!, proof), `consistency ${m + 1}→${n}`);
      if (proof.length > 0 && (m + n) % 5 === 0) {
        const i = (m * 17 + n) % proof.length;
        const bad = proof.map((p, j) => (j === i ? flip(p, (m * 3 + n) % 256) : p));
        assert.ok(!verifyConsistency(m + 1, n, roots[m + 1]!, roots[n]!, bad), `flipped consistency ${m + 1}→${n}`);
      }
      checked += 2;
    }
    // A flipped bit in the leaf or the root fails too.
    assert.ok(!verifyInclusion(0, n, flip(H_LEAF(d[0]!), n % 256), await inclusionProof(0, n, store), roots[n]!));
  }
  assert.equal(checked, 300 * 301);
});

test('random larger trees: proofs verify independently', async () => {
  let seed = 7;
  const rnd = (max: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % max;
  };
  for (const size of [1025, 4097, 7919]) {
    const d = data(size, size);
    const store = grow(d);
    const leafHashes = d.map(H_LEAF);
    // The root of the first n leaves, from leaf hashes (the independent mth, on hashes, to spare the rehashing).
    const rootOf = (n: number): Buffer => {
      const go = (lo: number, hi: number): Buffer => {
        if (hi - lo === 1) return leafHashes[lo]!;
        let k = 1;
        while (k * 2 < hi - lo) k *= 2;
        return H_NODE(go(lo, lo + k), go(lo + k, hi));
      };
      return go(0, n);
    };
    for (let t = 0; t < 25; t++) {
      const n = 1 + rnd(size);
      const m = rnd(n);
      const f = 1 + rnd(n);
      const root = rootOf(n);
      assert.equal(hex(await rootAt(n, store)), hex(root));
      assert.ok(verifyInclusion(m, n, leafHashes[m]!, await inclusionProof(m, n, store), root), `inclusion ${m}/${n}`);
      assert.ok(verifyConsistency(f, n, rootOf(f), root, await consistencyProof(f, n, store)), `consistency ${f}→${n}`);
      assert.ok(!verifyInclusion(m, n, leafHashes[(m + 1) % n]!, await inclusionProof(m, n, store), root) || n === 1);
    }
  }
});

test('a proof reads O(log n) nodes, never the leaves', async () => {
  const store = grow(data(4097));
  let reads = 0;
  const counting = {
    nodes: async (keys: readonly { level: number; index: number }[]) => {
      reads += keys.length;
      return store.nodes(keys);
    },
  };
  await inclusionProof(1234, 4097, counting);
  assert.ok(reads <= 2 * 13, `inclusion read ${reads} nodes`);
  reads = 0;
  await consistencyProof(1000, 4097, counting);
  assert.ok(reads <= 2 * 13, `consistency read ${reads} nodes`);
});

test('appending refuses a frontier that does not match the size', () => {
  assert.throws(() => appendLeaves(3, [EMPTY_ROOT], [EMPTY_ROOT]));
});
