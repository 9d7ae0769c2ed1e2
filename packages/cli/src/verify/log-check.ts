import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * What `cambio verify` checks while it streams the whole log, written from docs/transparency.md, RFC 9162 §2.1
 * and the C2SP signed-note and tlog-checkpoint specs, not from the server's code: an independent reader of
 * the books. Consistency between two checkpoints is the SDK's one verifier (`verifyConsistency`).
 */
const sha = (...p: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const x of p) h.update(x);
  return h.digest();
};
export const leafHashOf = (leaf: string): Buffer => sha(Buffer.from([0]), Buffer.from(leaf, 'utf8'));
const nodeHash = (l: Buffer, r: Buffer): Buffer => sha(Buffer.from([1]), l, r);

/** The tree's right edge while leaves stream in: the root of every prefix, O(log n) memory. */
export class StreamingTree {
  #stack: Array<{ size: number; hash: Buffer }> = [];
  size = 0;
  push(leafHash: Buffer): void {
    let node = { size: 1, hash: leafHash };
    while (this.#stack.length > 0 && this.#stack[this.#stack.length - 1]!.size === node.size) {
      const left = this.#stack.pop()!;
      node = { size: node.size * 2, hash: nodeHash(left.hash, node.hash) };
    }
    this.#stack.push(node);
    this.size += 1;
  }
  root(): Buffer {
    if (this.#stack.length === 0) return sha();
    let h = this.#stack[this.#stack.length - 1]!.hash;
    for (let i = this.#stack.length - 2; i >= 0; i--) h = nodeHash(this.#stack[i]!.hash, h);
    return h;
  }
}

export interface NoteKey {
  name: string;
  hash: Buffer;
  key: KeyObject;
}

/** `<name>+<hex key hash>+<base64(0x01 ‖ Ed25519 public key)>`; throws when malformed or its hash is wrong. */
export function parseNoteKey(vkey: string): NoteKey {
  const [name, hashHex, ...rest] = vkey.trim().split('+');
  const raw = Buffer.from(rest.join('+'), 'base64');
  if (!name || !/^[0-9a-f]{8}$/.test(hashHex ?? '') || raw.length !== 33 || raw[0] !== 0x01)
    throw new Error(`not an Ed25519 note verifier key: ${vkey.trim()}`);
  const hash = sha(Buffer.from(name, 'utf8'), Buffer.from([0x0a]), raw).subarray(0, 4);
  if (hash.toString('hex') !== hashHex) throw new Error("the verifier key's hash does not match its name and key");
  return {
    name,
    hash,
    key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') }, format: 'jwk' }),
  };
}

/** The checkpoint a note carries when the key signed it, else null. */
export function openCheckpoint(note: string, k: NoteKey): { origin: string; size: number; root: Buffer } | null {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return null;
  const text = note.slice(0, split + 1);
  const signed = note
    .slice(split + 2, -1)
    .split('\n')
    .some((line) => {
      const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
      if (!m || m[1] !== k.name) return false;
      const blob = Buffer.from(m[2]!, 'base64');
      return blob.length === 68 && blob.subarray(0, 4).equals(k.hash) && verify(null, Buffer.from(text, 'utf8'), k.key, blob.subarray(4));
    });
  const lines = text.split('\n');
  if (!signed || lines.length < 4 || !/^(0|[1-9][0-9]*)$/.test(lines[1]!)) return null;
  const root = Buffer.from(lines[2]!, 'base64');
  if (root.length !== 32) return null;
  return { origin: lines[0]!, size: Number(lines[1]), root };
}

export interface LeafPosting {
  account: string;
  assetSymbol: string;
  amountMinor: string;
}
/** The leaf's postings when it is the canonical JSON of entry `entryId` at `index` and balances per asset; else why not. */
export function readLeaf(leaf: string, index: number, entryId: string): { postings: LeafPosting[] } | { problem: string } {
  let v: { index?: unknown; entryId?: unknown; postings?: unknown };
  try {
    v = JSON.parse(leaf) as typeof v;
  } catch {
    return { problem: 'the leaf is not JSON' };
  }
  if (v.index !== index || v.entryId !== entryId)
    return { problem: `the leaf names index ${String(v.index)} and entry ${String(v.entryId)}` };
  const postings = v.postings as LeafPosting[];
  if (!Array.isArray(postings) || postings.some((p) => typeof p.amountMinor !== 'string' || !/^-?[0-9]{1,79}$/.test(p.amountMinor)))
    return { problem: "the leaf's postings are malformed" };
  const sums = new Map<string, bigint>();
  for (const p of postings) sums.set(p.assetSymbol, (sums.get(p.assetSymbol) ?? 0n) + BigInt(p.amountMinor));
  for (const [asset, s] of sums) if (s !== 0n) return { problem: `its postings do not sum to zero in ${asset}` };
  return { postings };
}
