import { DomainError } from '../errors.ts';
import type { MarketPair } from '../market/pair-terms.ts';
import { toMinor } from '../money.ts';
import type { Market } from '../ports.ts';
import type { BookPrice } from '../market/best-offer.ts';
import { priceQuote } from './pricing.ts';

export type QuoteAmount = { base: bigint } | { quote: bigint };

/** CreateQuote: exactly one of amountBaseMinor and amountQuoteMinor (spec: Request bodies). */
export function oneAmount(amountBaseMinor: unknown, amountQuoteMinor: unknown): QuoteAmount {
  const hasBase = amountBaseMinor !== undefined && amountBaseMinor !== null;
  const hasQuote = amountQuoteMinor !== undefined && amountQuoteMinor !== null;
  if (hasBase === hasQuote) throw new DomainError('quotes.exactly_one_amount');
  const field = hasBase ? 'amountBaseMinor' : 'amountQuoteMinor';
  const v = toMinor(hasBase ? amountBaseMinor : amountQuoteMinor);
  if (v === null) throw new DomainError('request.invalid_amount', { field });
  return hasBase ? { base: v } : { quote: v };
}

/** Prices a request on the market's current terms for the pair; an unpriced pair is quotes.pair_not_priced. */
export async function priceAtMarket(
  market: Market,
  baseSymbol: string,
  quoteSymbol: string,
  amount: QuoteAmount,
): Promise<{ pair: MarketPair; priced: BookPrice }> {
  const pair = await market.pair(baseSymbol, quoteSymbol);
  if (!pair) throw new DomainError('quotes.pair_not_priced', { base: baseSymbol, quote: quoteSymbol });
  if (pair.terms.venue) {
    // Priced from a venue's book: only a market that reads one can price it.
    if (!market.priceFromBook) throw new DomainError('market.unavailable', { detail: 'this instance reads no venue book' });
    return { pair, priced: await market.priceFromBook(pair, amount) };
  }
  return { pair, priced: priceQuote(pair.terms, { base: pair.base.decimals, quote: pair.quote.decimals }, amount, pair.base.symbol) };
}
