import type { Quote } from '../domain/quotes/quote.ts';
import type { Db } from './db.ts';

/** Quotes are kept so that they can be accepted once, by the organization that asked (orders-store consumes them). */
export class QuotesStore {
  constructor(private readonly db: Db) {}

  async create(q: Quote): Promise<void> {
    await this.db.insertInto('quotes').values({
      id: q.id, organization_id: q.organizationId, base_symbol: q.baseSymbol, quote_symbol: q.quoteSymbol,
      base_decimals: q.baseDecimals, quote_decimals: q.quoteDecimals, rate_quote_minor: q.rateQuoteMinor.toString(),
      amount_base_minor: q.amountBaseMinor.toString(), amount_quote_minor: q.amountQuoteMinor.toString(),
      expires_at: q.expiresAt, consumed_at: null, created_at: q.createdAt,
    }).execute();
  }
}
