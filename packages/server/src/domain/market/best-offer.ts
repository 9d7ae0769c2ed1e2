import { DomainError } from '../errors.ts';
import type { PricedQuote } from '../quotes/pricing.ts';

/**
 * What one venue offered for a quote (docs/market.md, "Several venues"): its price, or why it was left
 * out (the refusal's stable code: down or stale is market.unavailable, too thin or out of range
 * quotes.amount_out_of_range, below the executable rate quotes.quote_below_executable_rate).
 */
/**
 * A price read from venues' books: with several venues, the venue it was taken at and what each venue
 * offered (a single book's price names neither).
 */
export type BookPrice = PricedQuote & { venue?: string; offers?: readonly VenueOffer[] };

export type VenueOffer = { venue: string; priced: PricedQuote } | { venue: string; leftOut: DomainError };

/**
 * The offer best for the client, among venues in the order they are listed: for a base amount the
 * largest amountQuoteMinor, for a quote amount the smallest amountBaseMinor; a tie goes to the venue
 * listed first. Exact: bigint comparisons only. When every venue is left out the answer is the one a
 * single venue would give: the first refusal that is not market.unavailable (a venue had a fresh book
 * and refused the amount), else market.unavailable.
 */
export function bestOffer(offers: readonly VenueOffer[], by: 'base' | 'quote'): { venue: string; priced: PricedQuote } {
  let best: { venue: string; priced: PricedQuote } | null = null;
  for (const o of offers) {
    if (!('priced' in o)) continue;
    if (best === null) best = o;
    else if (
      by === 'base' ? o.priced.amountQuoteMinor > best.priced.amountQuoteMinor : o.priced.amountBaseMinor < best.priced.amountBaseMinor
    )
      best = o;
  }
  if (best) return best;
  const refusals = offers.flatMap((o) => ('leftOut' in o ? [o.leftOut] : []));
  const refused = refusals.find((e) => e.code !== 'market.unavailable') ?? refusals[0];
  throw refused ?? new DomainError('market.unavailable', { detail: 'no venue is connected' });
}
