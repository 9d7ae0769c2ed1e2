import type { QuoteToAccept } from '../domain/orders/order.ts';
import type { Quote, QuoteOffer } from '../domain/quotes/quote.ts';
import type { Db } from './db.ts';
import type { QuotesRepository } from '../usecases/repositories.ts';
import type { Tx } from './unit-of-work.ts';

/** Quotes are kept so that they can be accepted once, by the organization that asked (an order consumes them). */
export class QuotesStore implements QuotesRepository {
  constructor(private readonly db: Db) {}

  /** Stores a quote so that it can be accepted once. */
  async create(tx: Tx, q: Quote, offers: readonly QuoteOffer[] = []): Promise<void> {
    await tx
      .insertInto('quotes')
      .values({
        id: q.id,
        organization_id: q.organizationId,
        base_symbol: q.baseSymbol,
        quote_symbol: q.quoteSymbol,
        base_decimals: q.baseDecimals,
        quote_decimals: q.quoteDecimals,
        rate_quote_minor: q.rateQuoteMinor.toString(),
        amount_base_minor: q.amountBaseMinor.toString(),
        amount_quote_minor: q.amountQuoteMinor.toString(),
        expires_at: q.expiresAt,
        consumed_at: null,
        created_at: q.createdAt,
        venue: q.venue,
      })
      .execute();
    if (offers.length === 0) return;
    const text = (v: bigint | null) => (v === null ? null : v.toString());
    await tx
      .insertInto('quote_offers')
      .values(
        offers.map((o, i) => ({
          quote_id: q.id,
          position: i,
          venue: o.venue,
          rate_quote_minor: text(o.rateQuoteMinor),
          amount_base_minor: text(o.amountBaseMinor),
          amount_quote_minor: text(o.amountQuoteMinor),
          proceeds_quote_minor: text(o.proceedsQuoteMinor),
          left_out: o.leftOut,
          detail: o.detail,
        })),
      )
      .execute();
  }

  async offers(quoteId: string): Promise<QuoteOffer[]> {
    const [rows, q] = await Promise.all([
      this.db.selectFrom('quote_offers').selectAll().where('quote_id', '=', quoteId).orderBy('position').execute(),
      this.db.selectFrom('quotes').select('venue').where('id', '=', quoteId).executeTakeFirst(),
    ]);
    const big = (v: string | null) => (v === null ? null : BigInt(v));
    return rows.map((r) => ({
      venue: r.venue,
      rateQuoteMinor: big(r.rate_quote_minor),
      amountBaseMinor: big(r.amount_base_minor),
      amountQuoteMinor: big(r.amount_quote_minor),
      proceedsQuoteMinor: big(r.proceeds_quote_minor),
      leftOut: r.left_out,
      detail: r.detail,
      chosen: r.left_out === null && r.venue === q?.venue,
    }));
  }

  /**
   * The organization's quote, its row locked until the transaction ends (an order accepting it at the same
   * moment waits, then finds it used), with the market's current decimals of its two assets.
   */
  async lockToAccept(tx: Tx, organizationId: string, id: string): Promise<QuoteToAccept | null> {
    const r = await tx
      .selectFrom('quotes as q')
      .leftJoin('market_assets as b', 'b.symbol', 'q.base_symbol')
      .leftJoin('market_assets as c', 'c.symbol', 'q.quote_symbol')
      .selectAll('q')
      .select(['b.decimals as base_market_decimals', 'c.decimals as quote_market_decimals'])
      .where('q.id', '=', id)
      .where('q.organization_id', '=', organizationId)
      .forUpdate('q')
      .executeTakeFirst();
    if (!r) return null;
    return {
      quote: toQuote(r),
      consumed: r.consumed_at !== null,
      marketDecimals: { base: r.base_market_decimals, quote: r.quote_market_decimals },
    };
  }

  /** Marks a quote accepted (an order's transaction, which locked it). */
  async consume(tx: Tx, id: string, at: Date): Promise<void> {
    await tx.updateTable('quotes').set({ consumed_at: at }).where('id', '=', id).execute();
  }

  /** One quote of one organization (another organization's is not found). */
  async get(organizationId: string, id: string): Promise<Quote | null> {
    const r = await this.db
      .selectFrom('quotes')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return r ? toQuote(r) : null;
  }

  /**
   * Deletes unaccepted quotes that expired before `before`, at most `limit` at a time; returns how
   * many. Accepted quotes stay (their order points at them). Accepting a purged quote still answers
   * 410 orders.quote_expired: its id tells its organization when it expired (domain/quotes/quote-id.ts).
   */
  async purgeExpired(before: Date, limit = 5_000): Promise<number> {
    const r = await this.db
      .deleteFrom('quotes')
      .where('id', 'in', (eb) =>
        eb.selectFrom('quotes').select('id').where('consumed_at', 'is', null).where('expires_at', '<', before).limit(limit),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

type QuoteRow = {
  id: string;
  organization_id: string;
  base_symbol: string;
  base_decimals: number;
  quote_symbol: string;
  quote_decimals: number;
  rate_quote_minor: string;
  amount_base_minor: string;
  amount_quote_minor: string;
  expires_at: Date;
  created_at: Date;
  venue: string | null;
};

const toQuote = (r: QuoteRow): Quote => ({
  id: r.id,
  organizationId: r.organization_id,
  baseSymbol: r.base_symbol,
  baseDecimals: r.base_decimals,
  quoteSymbol: r.quote_symbol,
  quoteDecimals: r.quote_decimals,
  rateQuoteMinor: BigInt(r.rate_quote_minor),
  amountBaseMinor: BigInt(r.amount_base_minor),
  amountQuoteMinor: BigInt(r.amount_quote_minor),
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  venue: r.venue,
});
