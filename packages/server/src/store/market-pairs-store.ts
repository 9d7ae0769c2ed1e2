import { sql } from 'kysely';
import { DEFAULT_MAX_BOOK_AGE_MS, type PairTerms } from '../domain/market/pair-terms.ts';
import { parseDecimalRational } from '../domain/market/rational.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { PricedPair, StoredPairTerms, MarketPairsRepository } from '../usecases/repositories.ts';

export type { PricedPair, StoredPairTerms };

type PairRow = {
  base_symbol: string;
  quote_symbol: string;
  mid_rate: string;
  spread_bps: number;
  fee_bps: number;
  fixed_fee_quote_minor: string;
  min_base_minor: string;
  max_base_minor: string;
  updated_at: Date;
  base_decimals: number;
  quote_decimals: number;
  venue_symbol: string | null;
  max_book_age_ms: number | null;
};

function toPair(r: PairRow): PricedPair {
  const venue =
    r.venue_symbol !== null ? { symbol: r.venue_symbol, maxBookAgeMs: r.max_book_age_ms ?? DEFAULT_MAX_BOOK_AGE_MS } : undefined;
  const midRate = venue ? { num: 0n, den: 1n } : parseDecimalRational(r.mid_rate);
  if (!midRate) throw new Error(`stored mid rate of ${r.base_symbol}/${r.quote_symbol} is not a decimal`);
  return {
    base: { symbol: r.base_symbol, decimals: r.base_decimals },
    quote: { symbol: r.quote_symbol, decimals: r.quote_decimals },
    terms: {
      midRateText: r.mid_rate,
      midRate,
      venue,
      spreadBps: r.spread_bps,
      feeBps: r.fee_bps,
      fixedFeeQuoteMinor: BigInt(r.fixed_fee_quote_minor),
      minBaseMinor: BigInt(r.min_base_minor),
      maxBaseMinor: BigInt(r.max_base_minor),
    },
    updatedAt: r.updated_at,
  };
}

/** The pairs the market prices (docs/operator-guide.md PUT/DELETE /market/pairs). Writes go through usecases/market/. */
export class MarketPairsStore implements MarketPairsRepository {
  constructor(private readonly db: Db) {}

  #select() {
    return this.db
      .selectFrom('market_pairs as p')
      .innerJoin('market_assets as b', 'b.symbol', 'p.base_symbol')
      .innerJoin('market_assets as q', 'q.symbol', 'p.quote_symbol')
      .selectAll('p')
      .select(['b.decimals as base_decimals', 'q.decimals as quote_decimals']);
  }

  /** The pair's current terms. Requests pricing at the same moment share one read (quotes are the second-hottest call). */
  get(base: string, quote: string): Promise<PricedPair | null> {
    return this.#batch.load(`${base}/${quote}`);
  }

  readonly #batch = new Batcher<string, PricedPair | null>(
    async (keys) => {
      const wanted = [...new Set(keys)];
      const rows = await this.#select()
        .where(sql<string>`p.base_symbol || '/' || p.quote_symbol`, '=', sql<string>`any(${wanted}::text[])`)
        .execute();
      const by = new Map(rows.map((r) => [`${r.base_symbol}/${r.quote_symbol}`, r]));
      // Each caller gets its own object: a batch may price one pair for many requests.
      return keys.map((k) => {
        const r = by.get(k);
        return r ? toPair(r) : null;
      });
    },
    { maxBatch: 64, maxInFlight: 4 },
  );

  async list(): Promise<PricedPair[]> {
    return (await this.#select().orderBy('p.base_symbol').orderBy('p.quote_symbol').execute()).map(toPair);
  }

  /** The pair's stored terms, locked until `tx` ends; null when it is not priced. */
  async lockTerms(tx: Tx, base: string, quote: string): Promise<StoredPairTerms | null> {
    const r = await tx
      .selectFrom('market_pairs')
      .selectAll()
      .where('base_symbol', '=', base)
      .where('quote_symbol', '=', quote)
      .forUpdate()
      .executeTakeFirst();
    return r
      ? {
          venueSymbol: r.venue_symbol,
          maxBookAgeMs: r.max_book_age_ms,
          midRate: r.mid_rate,
          spreadBps: r.spread_bps,
          feeBps: r.fee_bps,
          fixedFeeQuoteMinor: r.fixed_fee_quote_minor,
          minBaseMinor: r.min_base_minor,
          maxBaseMinor: r.max_base_minor,
        }
      : null;
  }

  /** Prices the pair (or reprices it) with these terms. */
  async upsert(tx: Tx, at: Date, base: string, quote: string, t: PairTerms): Promise<void> {
    const row = {
      mid_rate: t.midRateText,
      spread_bps: t.spreadBps,
      fee_bps: t.feeBps,
      fixed_fee_quote_minor: t.fixedFeeQuoteMinor.toString(),
      min_base_minor: t.minBaseMinor.toString(),
      max_base_minor: t.maxBaseMinor.toString(),
      updated_at: at,
      venue_symbol: t.venue?.symbol ?? null,
      max_book_age_ms: t.venue?.maxBookAgeMs ?? null,
    };
    await tx
      .insertInto('market_pairs')
      .values({ base_symbol: base, quote_symbol: quote, ...row })
      .onConflict((oc) => oc.columns(['base_symbol', 'quote_symbol']).doUpdateSet(row))
      .execute();
  }

  /** Removes the pair's price; false when it had none. */
  async delete(tx: Tx, base: string, quote: string): Promise<boolean> {
    const gone = await tx
      .deleteFrom('market_pairs')
      .where('base_symbol', '=', base)
      .where('quote_symbol', '=', quote)
      .returning('base_symbol')
      .executeTakeFirst();
    return gone !== undefined;
  }
}
