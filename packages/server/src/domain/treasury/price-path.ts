import { DomainError } from '../errors.ts';
import type { MarketPair } from '../market/pair-terms.ts';
import type { Market } from '../ports.ts';
import { offeredRate } from '../quotes/pricing.ts';
import type { PricePath } from './valuation.ts';

/**
 * The rate a quote on the pair gives now, in quote minimum units per whole base unit: the pricing
 * rule's offered rate for a pair with a mid rate; for a pair priced from a venue's book, the rate the
 * book gives the pair's smallest amount (the best level). Null when it cannot be priced now. A rate, not
 * the mid: the valuation tells a client nothing a quote would not (docs/api-guide.md, Valuation).
 */
async function rateNow(market: Market, pair: MarketPair): Promise<bigint | null> {
  if (!pair.terms.venue) return offeredRate(pair.terms, pair.quote.decimals);
  if (!market.priceFromBook) return null;
  try {
    return (await market.priceFromBook(pair, { base: pair.terms.minBaseMinor })).rateQuoteMinor;
  } catch (err) {
    // A book that cannot price now (stale, thin, unreachable) is "no price", not a failed page.
    if (err instanceof DomainError) return null;
    throw err;
  }
}

/** The way to value `asset` in `reporting`: itself, the direct pair, else the inverse pair, else none. */
export async function pricePath(market: Market, asset: string, reporting: string): Promise<PricePath> {
  if (asset === reporting) return { kind: 'same' };
  const direct = await market.pair(asset, reporting);
  const d = direct ? await rateNow(market, direct) : null;
  if (d !== null && d > 0n) return { kind: 'direct', rateQuoteMinor: d };
  const inverse = await market.pair(reporting, asset);
  const i = inverse ? await rateNow(market, inverse) : null;
  if (i !== null && i > 0n) return { kind: 'inverse', rateQuoteMinor: i };
  return { kind: 'none' };
}
