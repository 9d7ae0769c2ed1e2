import { SealedBox } from '../sealed-box.ts';

type TotpRow = { kind: string; id: string; field: 'secret' | 'pending' };

/**
 * TOTP secrets at rest (domain/sealed-box.ts, info `people/totp`), bound to its row: the associated data
 * names the person and the column, so a value copied elsewhere does not open. Stored as `t1.…`.
 */
export class TotpSealer {
  readonly #box: SealedBox;
  constructor(secret: string) {
    this.#box = new SealedBox(secret, 'people/totp', 't1.');
  }
  seal(plain: string, row: TotpRow): string {
    return this.#box.seal(plain, aad(row));
  }
  /** Throws when altered, sealed under another secret or for another row. */
  open(sealed: string, row: TotpRow): string {
    return this.#box.open(sealed, aad(row));
  }
}

const aad = (r: TotpRow) => `cambio/totp/v1|${r.kind}|${r.id}|${r.field}`;
