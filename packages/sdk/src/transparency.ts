/**
 * Checks of Cambio's public books (docs/transparency.md) with nothing but Web Crypto (`crypto.subtle`), so they
 * run the same in a browser and in Node 20: a checkpoint's Ed25519 signature (C2SP signed-note), an
 * entry's inclusion in the journal log (RFC 9162 §2.1.3.2). The liabilities checks are in liabilities.ts.
 */

export type Bytes = Uint8Array<ArrayBuffer>;
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
export const sha256 = async (...parts: Uint8Array[]): Promise<Bytes> => new Uint8Array(await subtle().digest('SHA-256', concat(...parts)));
export const utf8 = (s: string): Bytes => new TextEncoder().encode(s);
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

/** A tree as a signed checkpoint says: its size and its root hash (hex). */
export interface TreeHead {
  treeSize: number;
  rootHash: string;
}

/**
 * Whether the tree `second` extends the tree `first` (every leaf of `first` is in `second`, at the same
 * place, unchanged), given the proof `GET /transparency/consistency?from=&to=` answers, per RFC 9162
 * §2.1.4.2. Both heads come from checkpoints whose signatures were checked.
 */
export async function verifyConsistency(first: TreeHead, second: TreeHead, proof: readonly string[]): Promise<boolean> {
  const m = first.treeSize;
  const n = second.treeSize;
  if (!(Number.isSafeInteger(m) && Number.isSafeInteger(n)) || proof.some((h) => !/^[0-9a-f]{64}$/.test(h))) return false;
  if (m === n) return proof.length === 0 && first.rootHash === second.rootHash;
  if (m > n || m <= 0 || proof.length === 0) return false;
  const node = (l: Uint8Array, r: Uint8Array) => sha256(new Uint8Array([0x01]), l, r);
  const half = (x: number) => (x - (x % 2)) / 2;
  // A first tree of 2^k leaves is itself a node of the second: its root starts the path.
  const path = (m & (m - 1)) === 0 ? [fromHex(first.rootHash), ...proof.map(fromHex)] : proof.map(fromHex);
  let fn = m - 1;
  let sn = n - 1;
  while (fn % 2 === 1) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = await node(c, fr);
      sr = await node(c, sr);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else sr = await node(sr, c);
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && toHex(fr) === first.rootHash && toHex(sr) === second.rootHash;
}
