import { createHash, createHmac } from 'node:crypto';

/**
 * An independent verifier of a liabilities path, written from docs/transparency.md alone (it shares no code
 * with src/): leaf H(0x00 ‖ "cambio/liability/v2" ‖ 0x00 ‖ snapshotId ‖ 0x00 ‖ organizationId ‖ 0x00 ‖
 * assetSymbol ‖ 0x00 ‖ part ‖ 0x00 ‖ salt ‖ be256(amount)), node H(0x01 ‖ leftHash ‖ be256(leftSum) ‖
 * rightHash ‖ be256(rightSum)), the sibling on the right where the index's bit is 0. Every sum it
 * meets must be a decimal string of an unsigned integer below 2^256; anything else is refused.
 */
const sha = (...p: Buffer[]) => createHash('sha256').update(Buffer.concat(p)).digest();
const LIMIT = 2n ** 256n;

function u256(digits: string): Buffer | null {
  if (!/^[0-9]{1,78}$/.test(digits)) return null;
  const v = BigInt(digits);
  if (v >= LIMIT) return null;
  return Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
}

export interface PathNode {
  hash: string;
  sumMinor: string;
}
export interface OwnPart {
  part: number;
  amountMinor: string;
  salt: string;
  leafIndex: number;
  path: PathNode[];
}
export interface OwnAsset {
  assetSymbol: string;
  amountMinor: string;
  parts: OwnPart[];
}
export interface LeafOwner {
  snapshotId: string;
  organizationId: string;
  assetSymbol: string;
}

const Z = Buffer.from([0]);
const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Why the part's leaf, rebuilt for `who`, does not reach the published root and total, or null when it does. */
export function checkLiabilityPath(who: LeafOwner, own: OwnPart, rootHash: string, totalMinor: string): string | null {
  const amount = u256(own.amountMinor);
  if (!amount) return `amount ${own.amountMinor} is not an unsigned 256-bit integer`;
  if (!/^[0-9a-f]{64}$/.test(own.salt)) return 'the salt is not 32 bytes of hex';
  let hash = sha(
    Z,
    utf8('cambio/liability/v2'),
    Z,
    utf8(who.snapshotId),
    Z,
    utf8(who.organizationId),
    Z,
    utf8(who.assetSymbol),
    Z,
    utf8(String(own.part)),
    Z,
    Buffer.from(own.salt, 'hex'),
    amount,
  );
  let sum = BigInt(own.amountMinor);
  let index = own.leafIndex;
  for (const [i, node] of own.path.entries()) {
    const s = u256(node.sumMinor);
    if (!s) return `the sum at level ${i} (${node.sumMinor}) is not an unsigned 256-bit integer`;
    if (!/^[0-9a-f]{64}$/.test(node.hash)) return `the hash at level ${i} is not hex`;
    const mine = Buffer.from(sum.toString(16).padStart(64, '0'), 'hex');
    const sib = Buffer.from(node.hash, 'hex');
    hash = index % 2 === 0 ? sha(Buffer.from([1]), hash, mine, sib, s) : sha(Buffer.from([1]), sib, s, hash, mine);
    sum += BigInt(node.sumMinor);
    if (sum >= LIMIT) return `the sum overflows 256 bits at level ${i}`;
    index = Math.floor(index / 2);
  }
  if (index !== 0) return 'the leaf index is beyond the tree';
  if (hash.toString('hex') !== rootHash) return 'the path does not reach the published root';
  if (sum.toString() !== totalMinor) return `the path sums to ${sum}, not the published total ${totalMinor}`;
  return null;
}

/** The salt as the contract derives it, from the key (for the test, which knows the server's key). */
export const expectedSalt = (key: Buffer, who: LeafOwner, part: number): string =>
  createHmac('sha256', key)
    .update(Buffer.concat([utf8(who.snapshotId), Z, utf8(who.organizationId), Z, utf8(who.assetSymbol), Z, utf8(String(part))]))
    .digest('hex');
