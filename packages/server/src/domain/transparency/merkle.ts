import { createHash } from 'node:crypto';

/**
 * The journal log's Merkle tree, as RFC 9162 §2.1 builds one: SHA-256, leaf hash H(0x00 ‖ leaf), node
 * hash H(0x01 ‖ left ‖ right), and a tree of n leaves split at the largest power of two below n.
 *
 * The tree is kept as the hashes of its complete subtrees: node (level, index) covers the leaves
 * [index·2^level, (index+1)·2^level), level 0 being the leaf hashes. Any range the RFC's recursion
 * names is a few complete subtrees (the binary digits of its length), so a root, an inclusion proof or
 * a consistency proof reads O(log n) nodes and never the leaves. Indices are leaf positions, not
 * amounts: plain integers (a log of 2^53 entries is out of reach).
 */
export const HASH_BYTES = 32;
const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Buffer = sha256();
export const leafHash = (leaf: Uint8Array): Buffer => sha256(LEAF, leaf);
export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(NODE, left, right);

export interface NodeKey {
  level: number;
  index: number;
}
export interface TreeNode extends NodeKey {
  hash: Buffer;
}
/** [start, end) of leaf positions. */
export type Range = readonly [number, number];
export const nodeKey = (k: NodeKey): string => `${k.level}/${k.index}`;

/** Reads stored nodes; answers every key asked for (a missing node is a broken store: it throws). */
export interface NodeReader {
  nodes(keys: readonly NodeKey[]): Promise<Map<string, Buffer>>;
}

/** The largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees making up [start, end), largest first, where `start` is aligned as the RFC's
 * recursion aligns every range it names (a multiple of a power of two at least end − start).
 */
export function subtrees([start, end]: Range): NodeKey[] {
  const out: NodeKey[] = [];
  let at = start;
  while (at < end) {
    let level = 0;
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= end) level += 1;
    out.push({ level, index: at / 2 ** level });
    at += 2 ** level;
  }
  return out;
}

/** MTH of the range from its complete subtrees' hashes (largest first): folded from the right. */
export function foldRight(hashes: readonly Buffer[]): Buffer {
  if (hashes.length === 0) return EMPTY_ROOT;
  let h = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) h = nodeHash(hashes[i]!, h);
  return h;
}

/** The ranges whose MTH make the audit path of leaf m in the tree of n leaves, leaf first (RFC 9162 §2.1.3.1). */
export function inclusionRanges(m: number, n: number): Range[] {
  if (!(Number.isSafeInteger(m) && Number.isSafeInteger(n) && m >= 0 && m < n)) throw new RangeError(`no leaf ${m} in a tree of ${n}`);
  const walk = (lo: number, hi: number): Range[] => {
    if (hi - lo <= 1) return [];
    const k = lo + splitPoint(hi - lo);
    return m < k ? [...walk(lo, k), [k, hi]] : [...walk(k, hi), [lo, k]];
  };
  return walk(0, n);
}

/** The ranges whose MTH make the consistency proof from size m to size n (RFC 9162 §2.1.4.1); m = n: none. */
export function consistencyRanges(m: number, n: number): Range[] {
  if (!(Number.isSafeInteger(m) && Number.isSafeInteger(n) && m > 0 && m <= n))
    throw new RangeError(`no consistency proof from ${m} to ${n}`);
  const sub = (lo: number, hi: number, whole: boolean): Range[] => {
    if (m === hi) return whole ? [] : [[lo, hi]];
    const k = lo + splitPoint(hi - lo);
    return m <= k ? [...sub(lo, k, whole), [k, hi]] : [...sub(k, hi, false), [lo, k]];
  };
  return sub(0, n, true);
}

/** The MTH of each range, reading every node they need in one call. */
export async function rangeHashes(ranges: readonly Range[], reader: NodeReader): Promise<Buffer[]> {
  const parts = ranges.map(subtrees);
  const wanted = new Map<string, NodeKey>();
  for (const p of parts) for (const k of p) wanted.set(nodeKey(k), k);
  const got = wanted.size === 0 ? new Map<string, Buffer>() : await reader.nodes([...wanted.values()]);
  return parts.map((p) =>
    foldRight(
      p.map((k) => {
        const h = got.get(nodeKey(k));
        if (!h) throw new Error(`the log's node ${nodeKey(k)} is missing`);
        return h;
      }),
    ),
  );
}

export const rootAt = async (n: number, reader: NodeReader): Promise<Buffer> =>
  n === 0 ? EMPTY_ROOT : (await rangeHashes([[0, n]], reader))[0]!;
export const inclusionProof = (m: number, n: number, reader: NodeReader): Promise<Buffer[]> => rangeHashes(inclusionRanges(m, n), reader);
export const consistencyProof = (m: number, n: number, reader: NodeReader): Promise<Buffer[]> =>
  rangeHashes(consistencyRanges(m, n), reader);

/**
 * Appends leaf hashes to a tree of `size` leaves whose complete subtrees (largest first) are `frontier`:
 * answers every node the new leaves complete (each leaf's own, and each parent it closes) and the new
 * frontier. The frontier is what the store keeps next to the tree's size, so an append reads nothing else.
 */
export function appendLeaves(
  size: number,
  frontier: readonly Buffer[],
  leafHashes: readonly Buffer[],
): { nodes: TreeNode[]; frontier: Buffer[] } {
  const edge = subtrees([0, size]);
  if (edge.length !== frontier.length)
    throw new Error(`a tree of ${size} leaves has ${edge.length} complete subtrees, not ${frontier.length}`);
  const stack: TreeNode[] = edge.map((k, i) => ({ ...k, hash: frontier[i]! }));
  const nodes: TreeNode[] = [];
  let at = size;
  for (const h of leafHashes) {
    let node: TreeNode = { level: 0, index: at, hash: h };
    nodes.push(node);
    while (stack.length > 0 && stack[stack.length - 1]!.level === node.level) {
      const left = stack.pop()!;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      nodes.push(node);
    }
    stack.push(node);
    at += 1;
  }
  return { nodes, frontier: stack.map((n) => n.hash) };
}

/** The hash of a complete subtree from its leaf hashes, left to right (a power of two of them). */
export function completeSubtreeHash(leafHashes: readonly Buffer[]): Buffer {
  if (leafHashes.length === 0 || (leafHashes.length & (leafHashes.length - 1)) !== 0)
    throw new RangeError(`a complete subtree has a power of two of leaves, not ${leafHashes.length}`);
  let level = [...leafHashes];
  while (level.length > 1) level = Array.from({ length: level.length / 2 }, (_, i) => nodeHash(level[2 * i]!, level[2 * i + 1]!));
  return level[0]!;
}

/** A reader over nodes held in memory (tests, and the appender's own batch). */
export class MemoryNodes implements NodeReader {
  readonly map = new Map<string, Buffer>();
  add(nodes: readonly TreeNode[]): void {
    for (const n of nodes) this.map.set(nodeKey(n), n.hash);
  }
  async nodes(keys: readonly NodeKey[]): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    for (const k of keys) {
      const h = this.map.get(nodeKey(k));
      if (h) out.set(nodeKey(k), h);
    }
    return out;
  }
}
