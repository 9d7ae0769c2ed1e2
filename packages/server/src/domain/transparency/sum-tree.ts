import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Proof of liabilities (docs/transparency.md): per asset, a Merkle sum tree over what the platform owes each
 * organization, each amount split into 2 to 4 random parts, each part a leaf at a random position. A leaf is
 * H(0x00 ‖ "cambio/liability/v2" ‖ 0x00 ‖ snapshotId ‖ 0x00 ‖ organizationId ‖ 0x00 ‖ assetSymbol ‖ 0x00 ‖
 * part ‖ 0x00 ‖ salt ‖ be256(amount)): it names whose part it is, so it cannot stand for two. A node is H(0x01 ‖ leftHash ‖ be256(leftSum)
 * ‖ rightHash ‖ be256(rightSum)), so every node's hash commits both children's sums: one organization's
 * sum cannot be made to stand for another's, and a parent's sum is the two sums added, never chosen.
 * Sums are unsigned 256-bit integers; a negative or larger amount has no encoding and is refused.
 * The tree is padded to a power of two with zero-sum leaves of random hash, so its shape says only how
 * many leaves there are to the nearest power of two.
 */
export const SUM_BYTES = 32;
export const MAX_SUM = (1n << 256n) - 1n;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** The amount as 32 bytes, big-endian, unsigned. Throws on a negative amount or one of more than 256 bits. */
export function be256(amount: bigint): Buffer {
  if (amount < 0n || amount > MAX_SUM) throw new RangeError(`a liabilities sum is an unsigned 256-bit integer, not ${amount}`);
  const hex = amount.toString(16).padStart(SUM_BYTES * 2, '0');
  return Buffer.from(hex, 'hex');
}
export const fromBe256 = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);

/** The key the salts are derived with, from the server secret. */
export const saltKey = (secret: string): Buffer => createHmac('sha256', secret).update('cambio liabilities salt v1').digest();

const ZERO = Buffer.from([0]);

/** Who a leaf is: the snapshot, the organization, the asset and the part's number (from 0). */
export interface LeafName {
  snapshotId: string;
  organizationId: string;
  assetSymbol: string;
  part: number;
}

/** salt = HMAC-SHA256(k, snapshotId ‖ 0x00 ‖ organizationId ‖ 0x00 ‖ assetSymbol ‖ 0x00 ‖ part), part in decimal. */
export const leafSalt = (key: Uint8Array, n: LeafName): Buffer =>
  createHmac('sha256', key)
    .update(n.snapshotId)
    .update(ZERO)
    .update(n.organizationId)
    .update(ZERO)
    .update(n.assetSymbol)
    .update(ZERO)
    .update(String(n.part))
    .digest();

export const LEAF_DOMAIN = 'cambio/liability/v2';
export const sumLeafHash = (n: LeafName, salt: Uint8Array, amount: bigint): Buffer =>
  sha256(
    ZERO,
    Buffer.from(LEAF_DOMAIN, 'utf8'),
    ZERO,
    Buffer.from(n.snapshotId, 'utf8'),
    ZERO,
    Buffer.from(n.organizationId, 'utf8'),
    ZERO,
    Buffer.from(n.assetSymbol, 'utf8'),
    ZERO,
    Buffer.from(String(n.part), 'utf8'),
    ZERO,
    salt,
    be256(amount),
  );

/** A uniformly random integer in [0, bound], from 64 more random bits than the bound has (the bias is below 2^-64). */
function randomUpTo(bound: bigint): bigint {
  const bytes = ((bound.toString(16).length + 1) >> 1) + 8;
  return BigInt(`0x${randomBytes(bytes).toString('hex')}`) % (bound + 1n);
}

/**
 * `amount` split into `parts` random non-negative amounts that add up to it: the cuts are uniform points
 * of [0, amount], so a part is a random share, never a whole balance.
 */
export function splitAmount(amount: bigint, parts: number): bigint[] {
  const cuts = Array.from({ length: parts - 1 }, () => randomUpTo(amount)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: bigint[] = [];
  let prev = 0n;
  for (const c of cuts) {
    out.push(c - prev);
    prev = c;
  }
  out.push(amount - prev);
  return out;
}

/** How many parts an amount is split into: 2 to 4, at random. */
export const MIN_PARTS = 2;
export const MAX_PARTS = 4;
export const sumNodeHash = (leftHash: Uint8Array, leftSum: bigint, rightHash: Uint8Array, rightSum: bigint): Buffer =>
  sha256(Buffer.from([0x01]), leftHash, be256(leftSum), rightHash, be256(rightSum));

export interface SumNode {
  hash: Buffer;
  sum: bigint;
}
/** Every level of the tree, leaves first; the last level is the root alone. */
export type SumLevels = SumNode[][];

/** The tree over `leaves` (in their order), padded with `padding()` hashes of zero sum to a power of two (one leaf at least). */
export function buildSumTree(leaves: readonly SumNode[], padding: () => Buffer): SumLevels {
  let width = 1;
  while (width < leaves.length) width *= 2;
  const base: SumNode[] = [...leaves];
  while (base.length < width) base.push({ hash: padding(), sum: 0n });
  const levels: SumLevels = [base];
  let cur = base;
  while (cur.length > 1) {
    const up: SumNode[] = [];
    for (let i = 0; i < cur.length; i += 2) {
      const l = cur[i]!;
      const r = cur[i + 1]!;
      const sum = l.sum + r.sum;
      be256(sum); // a total past 256 bits has no encoding: refused before anything is published
      up.push({ hash: sumNodeHash(l.hash, l.sum, r.hash, r.sum), sum });
    }
    levels.push(up);
    cur = up;
  }
  return levels;
}

/** The siblings from leaf `index` up to the root (the sibling is on the right where the index's bit is 0). */
export function sumPath(levels: SumLevels, index: number): SumNode[] {
  const path: SumNode[] = [];
  let at = index;
  for (let l = 0; l < levels.length - 1; l++) {
    const sib = at % 2 === 0 ? at + 1 : at - 1;
    path.push(levels[l]![sib]!);
    at = (at - (at % 2)) / 2;
  }
  return path;
}

/** The liabilities note's text: the published JSON on one line, keys in the order docs/transparency.md lists. */
export interface PublishedAsset {
  assetSymbol: string;
  assetDecimals: number;
  rootHash: string;
  totalMinor: string;
  leafCount: number;
}
export function liabilitiesText(snapshotId: string, takenAt: Date, treeSize: number, assets: readonly PublishedAsset[]): string {
  const list = assets.map((a) => ({
    assetSymbol: a.assetSymbol,
    assetDecimals: a.assetDecimals,
    rootHash: a.rootHash,
    totalMinor: a.totalMinor,
    leafCount: a.leafCount,
  }));
  return `${JSON.stringify({ snapshotId, takenAt: takenAt.toISOString(), treeSize, assets: list })}\n`;
}
