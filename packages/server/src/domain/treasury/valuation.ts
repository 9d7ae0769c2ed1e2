import { floorDiv } from '../market/rational.ts';
import { pow10 } from '../money.ts';
import { quoteForBase } from '../quotes/pricing.ts';

/**
 * How an asset's balance is valued in the organization's reporting currency (docs/api-guide.md,
 * Valuation): the rate a quote would give now on the pair between them, read either way round.
 * `direct`: the pair ASSET/REPORTING, `rateQuoteMinor` minimum units of the reporting currency per whole
 * asset unit. `inverse`: the pair REPORTING/ASSET, `rateQuoteMinor` minimum units of the asset per whole
 * reporting unit. `none`: no pair prices it (or its rate is zero): "no price", left out of the total.
 */
export type PricePath =
  { kind: 'same' } | { kind: 'direct'; rateQuoteMinor: bigint } | { kind: 'inverse'; rateQuoteMinor: bigint } | { kind: 'none' };

export interface HeldAsset {
  assetSymbol: string;
  assetDecimals: number;
  totalMinor: bigint;
}

export interface ValuedAsset extends HeldAsset {
  path: PricePath['kind'];
  /** In minimum units of the reporting currency, truncated; null when there is no price. */
  valueMinor: bigint | null;
}

/**
 * A balance in the reporting currency, truncated to its decimals (rounded toward zero, as every floor of
 * the pricing rule): the direct pair is exactly the quote engine's amountQuoteMinor for that base
 * amount; the inverse divides once, floor(total × 10^dr / rate), so nothing is rounded twice.
 */
export function valueIn(total: bigint, assetDecimals: number, reportingDecimals: number, path: PricePath): bigint | null {
  switch (path.kind) {
    case 'same':
      return total;
    case 'direct':
      return quoteForBase(total, path.rateQuoteMinor, assetDecimals);
    case 'inverse':
      return path.rateQuoteMinor > 0n ? floorDiv(total * pow10(reportingDecimals), path.rateQuoteMinor) : null;
    case 'none':
      return null;
  }
}

export interface Valuation {
  rows: ValuedAsset[];
  /** The sum of the priced rows' values; an asset without a price is left out (named in `unpriced`). */
  totalMinor: bigint;
  unpriced: string[];
}

/** Every asset valued, the total of those with a price, and which had none. */
export function valueAll(assets: HeldAsset[], reportingDecimals: number, paths: ReadonlyMap<string, PricePath>): Valuation {
  let totalMinor = 0n;
  const unpriced: string[] = [];
  const rows = assets.map((a) => {
    const path = paths.get(a.assetSymbol) ?? { kind: 'none' as const };
    // Nothing held is worth nothing, priced or not: it is never named as unpriced.
    const valueMinor = a.totalMinor === 0n ? 0n : valueIn(a.totalMinor, a.assetDecimals, reportingDecimals, path);
    if (valueMinor === null) unpriced.push(a.assetSymbol);
    else totalMinor += valueMinor;
    return { ...a, path: path.kind, valueMinor };
  });
  return { rows, totalMinor, unpriced };
}
