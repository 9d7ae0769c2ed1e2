import { createCipheriv, createDecipheriv, hkdfSync } from 'node:crypto';

/**
 * Event and posting ids are sequence numbers shared by the whole platform: shown as they are, an
 * organization would count every other one's activity between two of its calls. They go out as
 * `<prefix>_<26 base32 characters>`: the number in one 16-byte block (eight zero bytes, then the number),
 * enciphered with AES-256 under a key derived from the service secret for that prefix. The map is a
 * permutation, so an id is stable (a webhook's `webhook-id` on every retry, after a restart) and comes
 * back to its number when used as a cursor; an id that deciphers without the eight zero bytes was not
 * made here (1 in 2^64 by chance). The order of the numbers stays inside the service.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const BODY = /^[a-z2-7]{26}$/;

export class OpaqueIds {
  readonly #keys = new Map<string, Buffer>();
  constructor(private readonly secret: string) {}

  #key(prefix: string): Buffer {
    let k = this.#keys.get(prefix);
    if (!k) {
      k = Buffer.from(hkdfSync('sha256', this.secret, 'cambio', `opaque-ids/${prefix}`, 32));
      this.#keys.set(prefix, k);
    }
    return k;
  }

  /** The id shown for sequence number `seq` (decimal digits). */
  encode(prefix: string, seq: string | bigint): string {
    const block = Buffer.alloc(16);
    block.writeBigUInt64BE(BigInt(seq), 8);
    const c = createCipheriv('aes-256-ecb', this.#key(prefix), null).setAutoPadding(false);
    const out = Buffer.concat([c.update(block), c.final()]);
    let n = BigInt(`0x${out.toString('hex')}`);
    let text = '';
    for (let i = 0; i < 26; i++) {
      text = ALPHABET[Number(n & 31n)]! + text;
      n >>= 5n;
    }
    return `${prefix}_${text}`;
  }

  /** The sequence number (decimal digits) of an id made by encode, or null. */
  decode(prefix: string, id: string): string | null {
    const body = id.startsWith(`${prefix}_`) ? id.slice(prefix.length + 1) : '';
    if (!BODY.test(body)) return null;
    let n = 0n;
    for (const ch of body) n = (n << 5n) | BigInt(ALPHABET.indexOf(ch));
    if (n >> 128n !== 0n) return null;
    const block = Buffer.from(n.toString(16).padStart(32, '0'), 'hex');
    const d = createDecipheriv('aes-256-ecb', this.#key(prefix), null).setAutoPadding(false);
    const plain = Buffer.concat([d.update(block), d.final()]);
    if (!plain.subarray(0, 8).equals(Buffer.alloc(8))) return null;
    return plain.readBigUInt64BE(8).toString();
  }
}

const cache = new Map<string, OpaqueIds>();
/** One codec per secret (its keys derived once). */
export function opaqueIds(secret: string): OpaqueIds {
  let o = cache.get(secret);
  if (!o) {
    o = new OpaqueIds(secret);
    cache.set(secret, o);
  }
  return o;
}

/** An event's id as shown (`evt_…`), from the store's `evt_<seq>`; and back. */
export const showEventId = (secret: string, internal: string): string => opaqueIds(secret).encode('evt', internal.slice(4));
export const readEventId = (secret: string, shown: string): string | null => {
  const seq = opaqueIds(secret).decode('evt', shown);
  return seq === null ? null : `evt_${seq}`;
};
/** A posting's id as shown (`pst_…`), from its number. */
export const showPostingId = (secret: string, seq: string): string => opaqueIds(secret).encode('pst', seq);
