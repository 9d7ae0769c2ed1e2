import { sql } from 'kysely';
import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Clock, Execution, ExecutionRequest, Market } from '../domain/ports.ts';
import { venueProceeds } from '../domain/quotes/pricing.ts';
import type { Db } from '../store/db.ts';
import type { MarketPairsStore } from '../store/market-pairs-store.ts';

/**
 * The sandbox market (CONTRACT §1 "market off: simulated venue"). It prices the pairs the operator
 * sets, and executes at the current price: proceeds per CONTRACT §4. It keeps its own books in
 * `venue_balances` (what the platform holds at the market per asset), which reconciliation compares
 * with the ledger: a fill moves base −a and quote +proceeds, exactly as the settlement entry moves
 * the platform's `market` accounts the other way.
 */
export class SimulatedVenue implements Market {
  constructor(private readonly db: Db, private readonly pairs: MarketPairsStore, private readonly clock: Clock) {}

  async pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.pairs.get(baseSymbol, quoteSymbol);
  }

  async execute(r: ExecutionRequest): Promise<Execution> {
    const at = this.clock.now();
    const p = await this.pairs.get(r.baseSymbol, r.quoteSymbol); // the current price, read before the transaction
    return this.db.transaction().execute(async (tx) => {
      const prior = await tx.selectFrom('venue_executions').selectAll().where('order_id', '=', r.orderId).executeTakeFirst();
      if (prior) return outcome(prior);

      // Both balance rows are locked up front, in symbol order: the check below stays true until the
      // fill is written, and two opposite fills (BTC/USD, USD/BTC) cannot deadlock.
      const rows = await tx.selectFrom('venue_balances').select(['asset_symbol', 'amount'])
        .where('asset_symbol', 'in', [r.baseSymbol, r.quoteSymbol]).orderBy('asset_symbol').forUpdate().execute();
      const held = rows.find((b) => b.asset_symbol === r.baseSymbol);
      let result: Execution;
      if (!p) {
        result = { filled: false, reason: `the market no longer prices ${r.baseSymbol}/${r.quoteSymbol}` };
      } else if (BigInt(held?.amount ?? '0') < r.amountBaseMinor) {
        // A real venue cannot sell what the platform does not hold there; neither does this one.
        result = { filled: false, reason: `the platform's ${r.baseSymbol} balance at the market is insufficient` };
      } else {
        const proceeds = venueProceeds(r.amountBaseMinor, p.terms, { base: p.base.decimals, quote: p.quote.decimals });
        result = proceeds < r.minProceedsQuoteMinor
          ? { filled: false, reason: `the market price moved: it would pay ${proceeds} ${r.quoteSymbol} minor units and the order owes ${r.minProceedsQuoteMinor}` }
          : { filled: true, proceedsQuoteMinor: proceeds };
      }

      // The first writer for this order id wins; a concurrent second caller gets the first outcome.
      const claimed = await tx.insertInto('venue_executions').values({
        order_id: r.orderId, base_symbol: r.baseSymbol, quote_symbol: r.quoteSymbol, amount_base_minor: r.amountBaseMinor.toString(),
        proceeds_quote_minor: result.filled ? result.proceedsQuoteMinor.toString() : null,
        state: result.filled ? 'filled' : 'refused', reason: result.filled ? null : result.reason, created_at: at,
      }).onConflict((oc) => oc.column('order_id').doNothing()).returning('order_id').executeTakeFirst();
      if (!claimed) {
        const first = await tx.selectFrom('venue_executions').selectAll().where('order_id', '=', r.orderId).executeTakeFirstOrThrow();
        return outcome(first);
      }
      if (!result.filled) return result;

      // The platform sells base it holds at the market and receives the proceeds.
      const moves = [
        { asset: r.baseSymbol, amount: -r.amountBaseMinor },
        { asset: r.quoteSymbol, amount: result.proceedsQuoteMinor },
      ].sort((x, y) => (x.asset < y.asset ? -1 : 1));
      for (const m of moves) {
        await tx.insertInto('venue_balances').values({ asset_symbol: m.asset, amount: m.amount.toString() })
          .onConflict((oc) => oc.column('asset_symbol').doUpdateSet({ amount: sql`venue_balances.amount + excluded.amount` })).execute();
      }
      return result;
    });
  }
}

function outcome(row: { state: string; proceeds_quote_minor: string | null; reason: string | null }): Execution {
  return row.state === 'filled' && row.proceeds_quote_minor !== null
    ? { filled: true, proceedsQuoteMinor: BigInt(row.proceeds_quote_minor) }
    : { filled: false, reason: row.reason ?? 'refused by the market' };
}
