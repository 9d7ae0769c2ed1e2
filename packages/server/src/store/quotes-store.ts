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

  /**
   * Deletes unaccepted quotes that expired before `before`, at most `limit` at a time; returns how
   * many. Accepted quotes stay (their order points at them). Accepting a purged quote still answers
   * 410 orders.quote_expired: its id tells its organization when it expired (domain/quotes/quote-id.ts).
   */
  async purgeExpired(before: Date, limit = 5_000): Promise<number> {
    const r = await this.db.deleteFrom('quotes').where('id', 'in', (eb) => eb.selectFrom('quotes').select('id')
      .where('consumed_at', 'is', null).where('expires_at', '<', before).limit(limit)).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
