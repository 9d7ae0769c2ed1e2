/**
 * Decimal text ⇄ minimum units, always with the decimals a response carried (spec: "A client reads
 * the decimals from responses and never fixes them in code"). Pure bigint; never a float.
 */
export interface MoneyLike {
  assetSymbol: string;
  assetDecimals: number;
  amountMinor: bigint;
}

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 78)
    throw new RangeError(`decimals must be an integer from 0 to 78 (got ${decimals})`);
}

/** `12345n`, 2 → `"123.45"`; `5n`, 4 → `"0.0005"`; a signed ledger amount keeps its sign. */
export function formatMinor(amountMinor: bigint, decimals: number): string {
  checkDecimals(decimals);
  const neg = amountMinor < 0n;
  const abs = neg ? -amountMinor : amountMinor;
  const sign = neg ? '-' : '';
  if (decimals === 0) return sign + abs.toString();
  const s = abs.toString().padStart(decimals + 1, '0');
  return `${sign}${s.slice(0, -decimals)}.${s.slice(-decimals)}`;
}

/**
 * `"123.45"`, 2 → `12345n`. More significant fractional digits than the asset has is refused, never
 * rounded (`"0.001"` with 2 decimals throws); trailing zeros beyond them are fine. A sign is refused
 * unless `signed`.
 */
export function parseDecimal(text: string, decimals: number, opts: { signed?: boolean } = {}): bigint {
  checkDecimals(decimals);
  const m = /^([-+])?([0-9]*)(?:\.([0-9]*))?$/.exec(text.trim());
  if (!m || (m[2] === '' && (m[3] ?? '') === '') || (m[1] === '-' && !opts.signed)) {
    throw new RangeError(`not a decimal amount: "${text}"`);
  }
  let frac = m[3] ?? '';
  const extra = frac.slice(decimals);
  if (/[1-9]/.test(extra)) throw new RangeError(`"${text}" has more than ${decimals} decimals`);
  frac = frac.slice(0, decimals).padEnd(decimals, '0');
  const v = BigInt((m[2] || '0') + frac);
  return m[1] === '-' ? -v : v;
}

/** An amount of one asset with its decimals, as the API reports them. */
export class Money implements MoneyLike {
  constructor(
    readonly assetSymbol: string,
    readonly assetDecimals: number,
    readonly amountMinor: bigint,
  ) {
    checkDecimals(assetDecimals);
  }

  /** From any response object that carries the Money fields (a balance row, a ledger entry…). */
  static from(m: MoneyLike): Money {
    return new Money(m.assetSymbol, m.assetDecimals, m.amountMinor);
  }

  /** `Money.parse('0.5', {assetSymbol: 'BTC', assetDecimals: 8})` → 50000000n minor units. */
  static parse(text: string, asset: { assetSymbol: string; assetDecimals: number }, opts: { signed?: boolean } = {}): Money {
    return new Money(asset.assetSymbol, asset.assetDecimals, parseDecimal(text, asset.assetDecimals, opts));
  }

  /** `"0.50000000"`. */
  toDecimal(): string {
    return formatMinor(this.amountMinor, this.assetDecimals);
  }

  /** `"0.50000000 BTC"`. */
  toString(): string {
    return `${this.toDecimal()} ${this.assetSymbol}`;
  }

  /** The wire form: amounts as digit strings. */
  toJSON() {
    return { assetSymbol: this.assetSymbol, assetDecimals: this.assetDecimals, amountMinor: this.amountMinor.toString() };
  }
}
