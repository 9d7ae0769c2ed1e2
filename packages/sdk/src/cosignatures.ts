import { sha256, toHex, utf8 } from './transparency.ts';

/**
 * Witness cosignatures on a checkpoint (C2SP `tlog-cosignature` v1, Ed25519), checked with Web Crypto: a
 * line `— <name> base64(key ID ‖ u64 big-endian timestamp ‖ signature)` whose signature is over
 * `cosignature/v1\ntime <timestamp>\n` followed by the checkpoint's text. A client that requires a quorum
 * of witnesses it trusts can no longer be shown a view of the log that those witnesses did not see.
 */

function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A witness as a client trusts it: its verifier key `<name>+<hex key ID>+<base64(0x04 ‖ Ed25519 public key)>`. */
interface WitnessKey {
  name: string;
  keyId: string;
  publicKey: Uint8Array<ArrayBuffer>;
}

async function parseWitnessKey(vkey: string): Promise<WitnessKey> {
  const [name, id, ...rest] = vkey.trim().split('+');
  const raw = fromBase64(rest.join('+'));
  if (!name || !/^[0-9a-f]{8}$/.test(id ?? '') || raw.length !== 33 || raw[0] !== 0x04)
    throw new Error(`not an Ed25519 cosignature verifier key: ${vkey.trim()}`);
  const keyId = toHex((await sha256(utf8(name), new Uint8Array([0x0a]), raw)).subarray(0, 4));
  if (keyId !== id) throw new Error(`the witness key's ID does not match its name and key: ${vkey.trim()}`);
  return { name, keyId, publicKey: raw.subarray(1) };
}

/** The witnesses (by name) among `witnesses` whose valid cosignature the checkpoint note carries. */
export async function cosignedBy(note: string, witnesses: readonly string[]): Promise<string[]> {
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return [];
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  const subtle = globalThis.crypto.subtle;
  const out: string[] = [];
  for (const vkey of witnesses) {
    const w = await parseWitnessKey(vkey);
    const key = await subtle.importKey('raw', w.publicKey, { name: 'Ed25519' }, false, ['verify']);
    for (const line of lines) {
      const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
      if (!m || m[1] !== w.name) continue;
      const blob = fromBase64(m[2]!);
      if (blob.length !== 76 || toHex(blob.subarray(0, 4)) !== w.keyId) continue;
      let time = 0n;
      for (const b of blob.subarray(4, 12)) time = time * 256n + BigInt(b);
      const msg = utf8(`cosignature/v1\ntime ${time}\n${text}`);
      if (await subtle.verify({ name: 'Ed25519' }, key, blob.subarray(12), msg)) {
        out.push(w.name);
        break;
      }
    }
  }
  return out;
}

/** Throws unless the note carries valid cosignatures from at least `quorum` of `witnesses` (all of them by default). */
export async function requireCosignatures(note: string, witnesses: readonly string[], quorum = witnesses.length): Promise<string[]> {
  if (witnesses.length === 0) return [];
  const by = await cosignedBy(note, witnesses);
  if (by.length < quorum)
    throw new CosignatureError(
      `the checkpoint carries ${by.length} valid cosignature${by.length === 1 ? '' : 's'} of the ${witnesses.length} witnesses trusted${by.length ? ` (${by.join(', ')})` : ''}; ${quorum} required`,
    );
  return by;
}

export class CosignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CosignatureError';
  }
}
