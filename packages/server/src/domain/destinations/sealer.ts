import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest of what identifies a bank account (the account number and the holder document).
 *
 * Scheme: AES-256-GCM, a fresh 96-bit IV per value, a 128-bit tag. The key is derived from the server
 * secret with HKDF-SHA256 (info `withdrawal-destinations/encryption`); a second HKDF output names it: the
 * key id (`kid`, 8 hex digits, reveals nothing of the key). A stored value is
 *
 *     v2.<kid>.<base64 of iv ‖ tag ‖ ciphertext>
 *
 * with associated data `cambio/destination/v2|<kid>|<organizationId>|<destinationId>|<field>`: it opens
 * only in the row and column it was sealed for, so a value copied to another row (another organization's
 * destination, or the document's column) is refused, never returned. The kid lets a rotation hold the
 * old secrets beside the new one and open each value with the key it names.
 *
 * `v1.<base64 of iv ‖ tag ‖ ciphertext>` (no key id, no associated data) is the format before rows were
 * bound; it is still read, never written.
 *
 * Duplicates are found by a keyed fingerprint, so the database never needs the plain number to answer
 * "already registered".
 */
const STORED = 'v2';
const LEGACY = 'v1';

/** Which row and column a stored value belongs to (the associated data of v2). */
export interface SealBinding {
  organizationId: string;
  destinationId: string;
  field: 'account_number' | 'holder_document';
}

export class SealedValueRefused extends Error {
  constructor(reason: string) {
    super(`sealed destination value refused: ${reason}`);
  }
}

export class DestinationSealer {
  readonly kid: string;
  readonly #encKey: Buffer;
  readonly #macKey: Buffer;

  constructor(secret: string) {
    this.#encKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/encryption', 32));
    this.#macKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/fingerprint', 32));
    this.kid = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/key-id', 4)).toString('hex');
  }

  /** The v2 value of one row and column. */
  seal(plain: string, row: SealBinding): string {
    return `${STORED}.${this.kid}.${encrypt(this.#encKey, plain, rowData(this.kid, row))}`;
  }

  /**
   * Opens a value stored in `row` (v2, or legacy v1). Throws SealedValueRefused when it was altered,
   * sealed under another secret, or sealed for another row or column.
   */
  open(sealed: string, row: SealBinding): string {
    const parts = sealed.split('.');
    if (parts[0] === LEGACY && parts.length === 2) return decrypt(this.#encKey, parts[1]!, null);
    const [format, kid, b64] = parts;
    if (format !== STORED || parts.length !== 3 || !kid || !b64) throw new SealedValueRefused('unknown format');
    if (kid !== this.kid) throw new SealedValueRefused(`sealed under key ${kid}, not this secret's ${this.kid}`);
    return decrypt(this.#encKey, b64, rowData(kid, row));
  }

  /** Same bank and account number (normalized) → same fingerprint, for one server secret. */
  fingerprint(bankNameKey: string, accountNumberKey: string): string {
    return createHmac('sha256', this.#macKey).update(`${bankNameKey}|${accountNumberKey}`).digest('hex');
  }
}

const rowData = (kid: string, r: SealBinding) =>
  Buffer.from(`cambio/destination/v2|${kid}|${r.organizationId}|${r.destinationId}|${r.field}`);

function encrypt(key: Buffer, plain: string, aad: Buffer): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(aad);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
}

function decrypt(key: Buffer, b64: string, aad: Buffer | null): string {
  const raw = Buffer.from(b64, 'base64');
  if (raw.length < 28) throw new SealedValueRefused('too short');
  const d = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  if (aad) d.setAAD(aad);
  d.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    throw new SealedValueRefused('does not authenticate (altered, another key, or another row)');
  }
}
