import type { Quote } from '../../domain/quotes/quote.ts';

export const quoteWire = (q: Quote) => ({
  id: q.id,
  rateQuoteMinor: q.rateQuoteMinor.toString(),
  amountBaseMinor: q.amountBaseMinor.toString(),
  amountQuoteMinor: q.amountQuoteMinor.toString(),
  expiresAt: q.expiresAt.toISOString(),
  base: { assetSymbol: q.baseSymbol, assetDecimals: q.baseDecimals, amountMinor: q.amountBaseMinor.toString() },
  quote: { assetSymbol: q.quoteSymbol, assetDecimals: q.quoteDecimals, amountMinor: q.amountQuoteMinor.toString() },
});
