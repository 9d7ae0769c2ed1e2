import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * An independent verifier of the journal log, written from RFC 9162 (§2.1.1 hashing, §2.1.3.2
 * inclusion, §2.1.4.2 consistency) and the C2SP signed-note / tlog-checkpoint specs alone: it shares
 * no code with src/, so a bug there cannot hide here.
 */
const sha = (...p: Buffer[]) => createHash('sha256').update(Buffer.concat(p)).digest();
export const H_LEAF = (d: Buffer): Buffer => sha(Buffer.from([0]), d);
export const H_NODE = (l: Buffer, r: Buffer): Buffer => sha(Buffer.from([1]), l, r);
const half = (n: number) => Math.floor(n / 2);

/** MTH over leaf hashes (the RFC's recursion, on hashes). */
export function mthOfHashes(h: Buffer[]): Buffer {
  if (h.length === 0) return sha();
  if (h.length === 1) return h[0]!;
  let k = 1;
  while (k * 2 < h.length) k *= 2;
  return H_NODE(mthOfHashes(h.slice(0, k)), mthOfHashes(h.slice(k)));
}
export const mth = (d: Buffer[]): Buffer => mthOfHashes(d.map(H_LEAF));

export function verifyInclusion(leafIndex: number, treeSize: number, leafHash: Buffer, path: Buffer[], root: Buffer): boolean {
  if (leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = leafHash;
  for (const p of path) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = H_NODE(p, r);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else r = H_NODE(r, p);
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && r.equals(root);
}

export function verifyConsistency(first: number, second: number, firstHash: Buffer, secondHash: Buffer, proof: Buffer[]): boolean {
  if (first === second) return proof.length === 0 && firstHash.equals(secondHash);
  if (first > second || first === 0 || proof.length === 0) return false;
  const path = (first & (first - 1)) === 0 ? [firstHash, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = H_NODE(c, fr);
      sr = H_NODE(c, sr);
      if (fn % 2 === 0)
        while (fn % 2 === 0 && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else sr = H_NODE(sr, c);
    fn = half(fn);
    sn = half(sn);
  }
  return fr.equals(firstHash) && sr.equals(secondHash) && sn === 0;
}

export function parseVerifierKey(vkey: string): { name: string; hash: Buffer; publicKey: Buffer } {
  // name + hash + key: the name and the hash hold no '+', the base64 key may.
  const [name, hashHex, ...keyParts] = vkey.split('+');
  const raw = Buffer.from(keyParts.join('+'), 'base64');
  if (!/^[0-9a-f]{8}$/.test(hashHex ?? '') || raw.length !== 33 || raw[0] !== 0x01)
    throw new Error(`not an Ed25519 note verifier key: ${vkey}`);
  const hash = sha(Buffer.from(name!, 'utf8'), Buffer.from([0x0a]), raw).subarray(0, 4);
  if (hash.toString('hex') !== hashHex) throw new Error('the key hash is not SHA-256(name ‖ \\n ‖ 0x01 ‖ key)[:4]');
  return { name: name!, hash, publicKey: raw.subarray(1) };
}

/** The note's text when a signature line by the key verifies; throws otherwise. */
export function openNote(note: string, vkey: string): string {
  const k = parseVerifierKey(vkey);
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new Error('a note has an empty line before its signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2).split('\n');
  if (lines.pop() !== '') throw new Error('a note ends with a newline');
  const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.publicKey.toString('base64url') }, format: 'jwk' });
  for (const line of lines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) throw new Error(`not a signature line: ${line}`);
    const blob = Buffer.from(m[2]!, 'base64');
    if (m[1] === k.name && blob.subarray(0, 4).equals(k.hash) && verify(null, Buffer.from(text, 'utf8'), pub, blob.subarray(4)))
      return text;
  }
  throw new Error('no valid signature by the key');
}

export function parseCheckpoint(text: string): { origin: string; size: number; root: Buffer } {
  const lines = text.split('\n');
  if (lines.length < 4 || lines[lines.length - 1] !== '' || !/^(0|[1-9][0-9]*)$/.test(lines[1]!)) throw new Error('not a checkpoint');
  const root = Buffer.from(lines[2]!, 'base64');
  if (root.length !== 32 || root.toString('base64') !== lines[2]) throw new Error('not a base64 SHA-256 root');
  return { origin: lines[0]!, size: Number(lines[1]), root };
}
