import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/**
 * Checkpoints in the C2SP tlog-checkpoint format, signed as a C2SP signed-note with Ed25519: the text is
 * `<origin>\n<tree size>\n<base64 root>\n`, then an empty line, then `— <key name> <base64(key hash ‖
 * signature)>\n`. The key hash is the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), 0x01
 * naming Ed25519. The verifier key, `<name>+<hex key hash>+<base64(0x01 ‖ public key)>`, is what a
 * client pins.
 */
const ED25519 = 0x01;
// The PKCS#8 DER wrapping of a raw 32-byte Ed25519 seed (RFC 8410), so node:crypto takes the seed as a key.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function checkpointText(origin: string, size: number, root: Uint8Array): string {
  return `${origin}\n${size}\n${Buffer.from(root).toString('base64')}\n`;
}

export function keyHash(name: string, publicKey: Uint8Array): Buffer {
  return createHash('sha256')
    .update(name)
    .update(Buffer.from([0x0a, ED25519]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

export class NoteSigner {
  readonly #key: KeyObject;
  readonly publicKey: Buffer;
  readonly keyHash: Buffer;
  /** `seed`: 32 bytes. `name`: the key's name, which is the log's origin. */
  constructor(
    readonly name: string,
    seed: Uint8Array,
  ) {
    if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
    if (!name || /[\s+]/.test(name)) throw new Error(`a note key name has no space and no "+" (got "${name}")`);
    this.#key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    this.publicKey = createPublicKey(this.#key).export({ format: 'der', type: 'spki' }).subarray(-32);
    this.keyHash = keyHash(name, this.publicKey);
  }

  /** `<name>+<hex key hash>+<base64(0x01 ‖ public key)>`. */
  verifierKey(): string {
    return `${this.name}+${this.keyHash.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), this.publicKey]).toString('base64')}`;
  }

  /** The text (ending in a newline) followed by the empty line and this key's signature line. */
  sign(text: string): string {
    if (!text.endsWith('\n')) throw new Error('a note text ends with a newline');
    const sig = sign(null, Buffer.from(text, 'utf8'), this.#key);
    return `${text}\n\u2014 ${this.name} ${Buffer.concat([this.keyHash, sig]).toString('base64')}\n`;
  }
}
