/**
 * Checks of Cambio's public books (CONTRACT §12) with nothing but Web Crypto (`crypto.subtle`), so they
 * run the same in a browser and in Node 20: a checkpoint's Ed25519 signature (C2SP signed-note), an
 * entry's inclusion in the journal log (RFC 9162 §2.1.3.2), and an organization's leaves in the
 * published liabilities (a Merkle sum tree whose every node commits both children's sums).
 */

type Bytes = Uint8Array<ArrayBuffer>;
const subtle = (): SubtleCrypto => {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('Web Crypto (crypto.subtle) is not available here: a secure context (https or localhost) or Node 20 is needed');
  return s;
};
const concat = (...parts: Uint8Array[]): Bytes => {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (...parts: Uint8Array[]): Promise<Bytes> => new Uint8Array(await subtle().digest('SHA-256', concat(...parts)));
const utf8 = (s: string): Bytes => new TextEncoder().encode(s);
export const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
export function fromHex(h: string): Bytes {
  if (!/^(?:[0-9a-f]{2})*$/.test(h)) throw new Error(`not lowercase hex: ${h.slice(0, 16)}`);
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}
function fromBase64(s: string): Bytes {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** A checkpoint as its signed note says: the log's origin, its size and its root hash (hex). */
export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: string;
}

/**
 * The text of a C2SP signed note when one of its signature lines is a valid Ed25519 signature by the
 * verifier key `<name>+<hex key hash>+<base64(0x01 ‖ public key)>` (`GET /transparency/key`); throws otherwise.
 */
export async function openSignedNote(note: string, verifierKey: string): Promise<string> {
  const [name, hashHex, ...rest] = verifierKey.trim().split('+');
  const raw = fromBase64(rest.join('+'));
  if (!name || !/^[0-9a-f]{8}$/.test(hashHex ?? '') || raw.length !== 33 || raw[0] !== 0x01)
    throw new Error('not an Ed25519 note verifier key');
  const keyHash = (await sha256(utf8(name), new Uint8Array([0x0a]), raw)).subarray(0, 4);
  if (toHex(keyHash) !== hashHex) throw new Error("the verifier key's hash does not match its name and key");
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('not a signed note: no empty line before the signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2).split('\n');
  if (lines.pop() !== '') throw new Error('not a signed note: it does not end with a newline');
  const key = await subtle().importKey('raw', raw.subarray(1), { name: 'Ed25519' }, false, ['verify']);
  for (const line of lines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const blob = fromBase64(m[2]!);
    if (
      blob.length === 68 &&
      equal(blob.subarray(0, 4), keyHash) &&
      (await subtle().verify({ name: 'Ed25519' }, key, blob.subarray(4), utf8(text)))
    )
      return text;
  }
  throw new Error(`the note carries no valid signature by ${name}`);
}

/** A checkpoint note's fields, its signature checked against the verifier key first. */
export async function verifyCheckpoint(note: string, verifierKey: string): Promise<Checkpoint> {
  const lines = (await openSignedNote(note, verifierKey)).split('\n');
  if (lines.length < 4 || !/^(0|[1-9][0-9]{0,15})$/.test(lines[1]!)) throw new Error('not a checkpoint');
  const root = fromBase64(lines[2]!);
  if (root.length !== 32) throw new Error("a checkpoint's root is 32 bytes");
  return { origin: lines[0]!, treeSize: Number(lines[1]), rootHash: toHex(root) };
}

/** An entry's inclusion proof as `GET /api/v1/ledger/:entryId/proof` answers it. */
export interface InclusionProof {
  leafIndex: number;
  treeSize: number;
  leaf: string;
  auditPath: readonly string[];
}

/**
 * Whether the entry's leaf (its canonical JSON) is at `leafIndex` in the tree of `treeSize` leaves
 * whose root is `rootHash` (hex, from a checkpoint whose signature was checked), per RFC 9162 §2.1.3.2.
 */
export async function verifyInclusion(proof: InclusionProof, rootHash: string): Promise<boolean> {
  const { leafIndex, treeSize } = proof;
  if (!(Number.isSafeInteger(leafIndex) && Number.isSafeInteger(treeSize) && leafIndex >= 0 && leafIndex < treeSize)) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = await sha256(new Uint8Array([0x00]), utf8(proof.leaf));
  const half = (n: number) => (n - (n % 2)) / 2;
  for (const hex of proof.auditPath) {
    if (sn === 0 || !/^[0-9a-f]{64}$/.test(hex)) return false;
    const p = fromHex(hex);
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(new Uint8Array([0x01]), p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else r = await sha256(new Uint8Array([0x01]), r, p);
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && toHex(r) === rootHash;
}

type Sum = bigint | string;
/** The published liabilities (`GET /transparency/liabilities/latest`, the note's JSON). */
export interface PublishedLiabilities {
  snapshotId: string;
  takenAt: string;
  assets: ReadonlyArray<{ assetSymbol: string; assetDecimals: number; rootHash: string; totalMinor: Sum; leafCount: number }>;
}
/** The organization's own leaves (`GET /api/v1/liabilities/latest`). */
export interface OwnLiabilities {
  snapshotId: string;
  assets: ReadonlyArray<{
    assetSymbol: string;
    amountMinor: Sum;
    salt: string;
    leafIndex: number;
    path: ReadonlyArray<{ hash: string; sumMinor: Sum }>;
  }>;
}
export interface LiabilitiesCheck {
  ok: boolean;
  assets: Array<{ assetSymbol: string; amountMinor: bigint; ok: boolean; problem: string | null }>;
  /** Set when the two documents are not of the same snapshot. */
  problem: string | null;
}

const LIMIT = 1n << 256n;
/** A sum as 32 big-endian bytes; null when it is not an unsigned integer below 2^256 (a negative or overflowing sum). */
function u256(v: Sum): { value: bigint; bytes: Bytes } | null {
  let value: bigint;
  if (typeof v === 'bigint') value = v;
  else if (typeof v === 'string' && /^[0-9]{1,78}$/.test(v)) value = BigInt(v);
  else return null;
  if (value < 0n || value >= LIMIT) return null;
  return { value, bytes: fromHex(value.toString(16).padStart(64, '0')) };
}

async function checkLeaf(a: OwnLiabilities['assets'][number], rootHash: string, total: Sum): Promise<string | null> {
  const amount = u256(a.amountMinor);
  if (!amount) return `amount ${String(a.amountMinor)} is not an unsigned 256-bit integer`;
  if (!/^[0-9a-f]{64}$/.test(a.salt)) return 'the salt is not 32 bytes of hex';
  if (!Number.isSafeInteger(a.leafIndex) || a.leafIndex < 0) return 'the leaf index is not a position';
  let hash = await sha256(new Uint8Array([0x00]), fromHex(a.salt), amount.bytes);
  let sum = amount;
  let index = a.leafIndex;
  for (const [level, node] of a.path.entries()) {
    const s = u256(node.sumMinor);
    if (!s) return `the sum at level ${level} is not an unsigned 256-bit integer`;
    if (!/^[0-9a-f]{64}$/.test(node.hash)) return `the hash at level ${level} is not 32 bytes of hex`;
    const sib = fromHex(node.hash);
    hash =
      index % 2 === 0
        ? await sha256(new Uint8Array([0x01]), hash, sum.bytes, sib, s.bytes)
        : await sha256(new Uint8Array([0x01]), sib, s.bytes, hash, sum.bytes);
    const next = u256(sum.value + s.value);
    if (!next) return `the sums overflow 256 bits at level ${level}`;
    sum = next;
    index = (index - (index % 2)) / 2;
  }
  if (index !== 0) return 'the leaf index is beyond the tree';
  if (toHex(hash) !== rootHash) return 'the path does not lead to the published root';
  const published = u256(total);
  if (!published || published.value !== sum.value) return "the path's sum is not the published total";
  return null;
}

/**
 * Whether each of the organization's leaves reaches the published root of its asset, with the path's
 * sums adding up to the published total: what the platform owes the organization is counted in what it
 * says it owes everyone. Check the published note's signature first (`openSignedNote`).
 */
export async function verifyLiabilities(published: PublishedLiabilities, own: OwnLiabilities): Promise<LiabilitiesCheck> {
  if (published.snapshotId !== own.snapshotId) {
    return { ok: false, problem: `the published snapshot is ${published.snapshotId}, yours is ${own.snapshotId}`, assets: [] };
  }
  const assets: LiabilitiesCheck['assets'] = [];
  for (const a of own.assets) {
    const root = published.assets.find((p) => p.assetSymbol === a.assetSymbol);
    const problem = root ? await checkLeaf(a, root.rootHash, root.totalMinor) : `no published root for ${a.assetSymbol}`;
    assets.push({ assetSymbol: a.assetSymbol, amountMinor: u256(a.amountMinor)?.value ?? 0n, ok: problem === null, problem });
  }
  return { ok: assets.every((x) => x.ok), problem: null, assets };
}

/** The published liabilities note's JSON, its signature checked against the verifier key. */
export async function openLiabilities(note: string, verifierKey: string): Promise<PublishedLiabilities> {
  return JSON.parse(await openSignedNote(note, verifierKey)) as PublishedLiabilities;
}
