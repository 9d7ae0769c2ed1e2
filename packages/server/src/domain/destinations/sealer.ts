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
 * destination, or the document's column) is refused, never returned. The kid lets a rotation keep old
 * keys on the keyring and open each value with the key it names; a new secret seals under a new kid.
 *
 * The row's id is chosen by the store, after the domain has sealed the registration: the domain's
 * `seal` gives a staged value (`s2.<kid>.<…>`, associated data `…/staged|<kid>`) that the store turns
 * into the row's v2 value with `bindToRow` before the insert. A staged value never opens as a stored one.
 *
 * `v1.<base64 of iv ‖ tag ‖ ciphertext>` (no key id, no associated data) is the format before rows were
 * bound; it is still read, never written.
 *
 * Duplicates are found by a keyed fingerprint, so the database never needs the plain number to answer
 * "already registered".
 */
const STORED = 'v2';
const STAGED = 's2';
const LEGACY = 'v1';

/** Which row and column a stored value belongs to (the associated data of v2). */
export interface SealBinding { organizationId: string; destinationId: string; field: 'account_number' | 'holder_document' }

/** The keys of every server secret this process was given, by key id: a value names the key that opens it. */
const keyring = new Map<string, Buffer>();

export class SealedValueRefused extends Error {
  constructor(reason: string) { super(`sealed destination value refused: ${reason}`); }
}

export class DestinationSealer {
  readonly kid: string;
  readonly #encKey: Buffer;
  readonly #macKey: Buffer;

  constructor(secret: string) {
    this.#encKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/encryption', 32));
    this.#macKey = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/fingerprint', 32));
    this.kid = Buffer.from(hkdfSync('sha256', secret, 'cambio', 'withdrawal-destinations/key-id', 4)).toString('hex');
    keyring.set(this.kid, this.#encKey);
  }

  /** A staged value, not yet bound to a row: the store binds it (`bindToRow`) once it has chosen the row's id. */
  seal(plain: string): string {
    return `${STAGED}.${this.kid}.${encrypt(this.#encKey, plain, stagedData(this.kid))}`;
  }

  /** The v2 value of one row and column. */
  sealForRow(plain: string, row: SealBinding): string {
    return `${STORED}.${this.kid}.${encrypt(this.#encKey, plain, rowData(this.kid, row))}`;
  }

  /**
   * Opens a stored value (v2, or legacy v1) for the row it is read from, or a staged value when no row
   * is given. Throws SealedValueRefused when the value was altered, sealed under another secret, or
   * sealed for another row or column.
   */
  open(sealed: string, row?: SealBinding): string {
    return openWith((kid) => (kid === this.kid ? this.#encKey : undefined), sealed, row);
  }

  /** Same bank and account number (normalized) → same fingerprint, for one server secret. */
  fingerprint(bankNameKey: string, accountNumberKey: string): string {
    return createHmac('sha256', this.#macKey).update(`${bankNameKey}|${accountNumberKey}`).digest('hex');
  }
}

/** The store's step at insert: a staged value becomes the v2 value of its row, under the key it names. */
export function bindToRow(staged: string, row: SealBinding): string {
  const [format, kid] = staged.split('.', 2);
  if (format !== STAGED) throw new SealedValueRefused('not a staged value');
  const key = kid ? keyring.get(kid) : undefined;
  if (!key) throw new SealedValueRefused(`no key ${kid ?? ''} on the keyring`);
  const plain = openWith(() => key, staged);
  return `${STORED}.${kid}.${encrypt(key, plain, rowData(kid!, row))}`;
}

/** The store's read: opens a stored value of `row` with the key it names (v1: whichever key on the keyring opens it). */
export function openForRow(stored: string, row: SealBinding): string {
  return openWith((kid) => keyring.get(kid), stored, row);
}

const stagedData = (kid: string) => Buffer.from(`cambio/destination/staged|${kid}`);
const rowData = (kid: string, r: SealBinding) => Buffer.from(`cambio/destination/v2|${kid}|${r.organizationId}|${r.destinationId}|${r.field}`);

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

function openWith(keyOf: (kid: string) => Buffer | undefined, sealed: string, row?: SealBinding): string {
  const parts = sealed.split('.');
  if (parts[0] === LEGACY && parts.length === 2) {
    // Legacy values name no key: try the ones this process holds (normally one).
    const keys = [...keyring.keys()].map(keyOf).filter((k): k is Buffer => k !== undefined);
    for (const k of keys) {
      try { return decrypt(k, parts[1]!, null); } catch { /* the next key */ }
    }
    throw new SealedValueRefused('v1 value opens with no key held');
  }
  const [format, kid, b64] = parts;
  if (parts.length !== 3 || !kid || !b64) throw new SealedValueRefused('unknown format');
  const key = keyOf(kid);
  if (!key) throw new SealedValueRefused(`no key ${kid}`);
  if (format === STORED && row) return decrypt(key, b64, rowData(kid, row));
  if (format === STORED) throw new SealedValueRefused('a stored value opens only for its row');
  if (format === STAGED && !row) return decrypt(key, b64, stagedData(kid));
  throw new SealedValueRefused(format === STAGED ? 'a staged value is never a stored one' : 'unknown format');
}
