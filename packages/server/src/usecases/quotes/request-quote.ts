import type { Organization } from '../../domain/organizations/organization.ts';
import { quoteExpiry, type Quote, type QuoteOffer } from '../../domain/quotes/quote.ts';
import type { VenueOffer } from '../../domain/market/best-offer.ts';
import type { QuoteIds } from '../../domain/quotes/quote-id.ts';
import { oneAmount, priceAtMarket } from '../../domain/quotes/request-quote.ts';
import type { UseCaseDeps } from '../ports.ts';

export interface QuoteRequest {
  baseSymbol: string;
  quoteSymbol: string;
  amountBaseMinor?: unknown;
  amountQuoteMinor?: unknown;
}

/**
 * Prices an exchange on the market's current terms and keeps the price until it expires (`ttlMs`), so
 * that it can be accepted once. It commits to nothing and moves nothing, so it works while the
 * organization cannot operate and while the books are not reconciled (docs/design/money-and-states.md). A refusal (no amount
 * or two, a pair not priced, an amount out of range) writes nothing. The market is asked before the
 * transaction that writes the quote.
 */
export async function requestQuote(
  d: UseCaseDeps & { quoteIds: QuoteIds; ttlMs: number },
  org: Pick<Organization, 'id'>,
  r: QuoteRequest,
): Promise<Quote> {
  const amount = oneAmount(r.amountBaseMinor, r.amountQuoteMinor);
  const { pair, priced } = await priceAtMarket(d.venue, r.baseSymbol, r.quoteSymbol, amount);
  const now = d.clock.now();
  const expiresAt = quoteExpiry(now, d.ttlMs);
  const quote: Quote = {
    id: d.quoteIds.next(org.id, expiresAt),
    organizationId: org.id,
    baseSymbol: pair.base.symbol,
    baseDecimals: pair.base.decimals,
    quoteSymbol: pair.quote.symbol,
    quoteDecimals: pair.quote.decimals,
    rateQuoteMinor: priced.rateQuoteMinor,
    amountBaseMinor: priced.amountBaseMinor,
    amountQuoteMinor: priced.amountQuoteMinor,
    expiresAt,
    createdAt: now,
    venue: priced.venue ?? null,
  };
  const offers = (priced.offers ?? []).map((o) => offerOf(o, priced.venue));
  return d.store.uow.run(async (tx) => {
    // The offers are kept with the quote, in its transaction: the best execution shown is the one priced.
    await d.store.quotes.create(tx, quote, offers);
    return quote;
  });
}

const offerOf = (o: VenueOffer, chosen: string | undefined): QuoteOffer =>
  'priced' in o
    ? {
        venue: o.venue,
        rateQuoteMinor: o.priced.rateQuoteMinor,
        amountBaseMinor: o.priced.amountBaseMinor,
        amountQuoteMinor: o.priced.amountQuoteMinor,
        proceedsQuoteMinor: o.priced.proceedsQuoteMinor,
        leftOut: null,
        detail: null,
        chosen: o.venue === chosen,
      }
    : {
        venue: o.venue,
        rateQuoteMinor: null,
        amountBaseMinor: null,
        amountQuoteMinor: null,
        proceedsQuoteMinor: null,
        leftOut: o.leftOut.code,
        detail: o.leftOut.params.detail ?? null,
        chosen: false,
      };
