import { SANDBOX_FAILED_REASON, sandboxOutcome } from '@cambio/contract';
import { sql } from 'kysely';
import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Clock, Execution, ExecutionRequest } from '../domain/ports.ts';
import { venueProceeds } from '../domain/quotes/pricing.ts';
import type { Db } from '../store/db.ts';
import type { MarketPairsStore } from '../store/market-pairs-store.ts';
import { kyselyOf, type Tx as StoreTx } from '../store/unit-of-work.ts';
import type { Tx, Venue } from '../usecases/ports.ts';

/**
 * The sandbox market (docs/production.md "market off: simulated venue"). It prices the pairs the operator
 * sets and fills at the current price, proceeds per docs/design/money-and-states.md. It keeps its own books in
 * `venue_balances` (what the platform holds at the market per asset), which reconciliation compares
 * with minus the platform's `market` accounts.
 *
 * A fill is decided and recorded here (idempotent by order id), and booked into the venue's balances
 * (`fillSettled`) inside the order's settlement transaction, beside the ledger entry that moves the
 * `market` accounts: the two books change together, so no reconciliation, and no crash between
 * execution and settlement, ever sees one without the other. Deposits, adjustments and payouts reach
 * the venue's books the same way (`fundsMoved`). Nothing else touches its tables.
 */
export class SimulatedVenue implements Venue {
  readonly kind = 'simulated';
  readonly paysOutOnApproval = true;

  /** A payout of the sandbox's magic failing amount fails (docs/sandbox.md); every other one is paid at once. */
  payoutFailure(amount: bigint): string | null {
    return sandboxOutcome(amount) === 'fail' ? SANDBOX_FAILED_REASON : null;
  }
  constructor(
    private readonly db: Db,
    private readonly pairs: MarketPairsStore,
    private readonly clock: Clock,
  ) {}

  async fundsMoved(tx: Tx, assetSymbol: string, amount: bigint): Promise<void> {
    await kyselyOf(tx)
      .insertInto('venue_balances')
      .values({ asset_symbol: assetSymbol, amount: amount.toString() })
      .onConflict((oc) => oc.column('asset_symbol').doUpdateSet({ amount: sql`venue_balances.amount + excluded.amount` }))
      .execute();
  }

  async fillSettled(tx: Tx, orderId: string, at: Date): Promise<void> {
    await bookVenueFill(kyselyOf(tx), orderId, at);
  }

  /**
   * The venue's balances, with every writer of them shut out until the caller commits: a transaction
   * that moved them has committed (so its books are visible too), and one that has not waits, so the
   * books read next in the same transaction are of the same moment.
   */
  async heldInBooks(tx: Tx): Promise<Map<string, bigint>> {
    await sql`lock table venue_balances in share mode`.execute(kyselyOf(tx));
    const rows = await kyselyOf(tx).selectFrom('venue_balances').select(['asset_symbol', 'amount']).execute();
    return new Map(rows.map((r) => [r.asset_symbol, BigInt(r.amount)]));
  }

  async pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.pairs.get(baseSymbol, quoteSymbol);
  }

  async execute(r: ExecutionRequest): Promise<Execution> {
    const at = this.clock.now();
    const p = await this.pairs.get(r.baseSymbol, r.quoteSymbol); // the current price, read before the transaction
    return this.db.transaction().execute(async (tx) => {
      const prior = await tx.selectFrom('venue_executions').selectAll().where('order_id', '=', r.orderId).executeTakeFirst();
      if (prior) return outcome(prior);

      // The base balance row is locked so that two fills cannot both count the same balance; fills
      // not yet booked are already spoken for.
      const row = await tx
        .selectFrom('venue_balances')
        .select('amount')
        .where('asset_symbol', '=', r.baseSymbol)
        .forUpdate()
        .executeTakeFirst();
      const pending = await tx
        .selectFrom('venue_executions')
        .select((eb) => eb.fn.sum<string | null>('amount_base_minor').as('s'))
        .where('base_symbol', '=', r.baseSymbol)
        .where('state', '=', 'filled')
        .where('booked_at', 'is', null)
        .executeTakeFirstOrThrow();
      const free = BigInt(row?.amount ?? '0') - BigInt(pending.s ?? '0');

      let result: Execution;
      if (sandboxOutcome(r.amountBaseMinor) === 'fail') {
        // The sandbox's magic amount that fails at the market (docs/sandbox.md), whoever approved the order.
        result = { filled: false, reason: SANDBOX_FAILED_REASON };
      } else if (!p) {
        result = { filled: false, reason: `the market no longer prices ${r.baseSymbol}/${r.quoteSymbol}` };
      } else if (free < r.amountBaseMinor) {
        // A real venue cannot sell what the platform does not hold there; neither does this one.
        result = { filled: false, reason: `the platform's ${r.baseSymbol} balance at the market is insufficient` };
      } else {
        const proceeds = venueProceeds(r.amountBaseMinor, p.terms, { base: p.base.decimals, quote: p.quote.decimals });
        result =
          proceeds < r.minProceedsQuoteMinor
            ? {
                filled: false,
                reason: `the market price moved: it would pay ${proceeds} ${r.quoteSymbol} minor units and the order owes ${r.minProceedsQuoteMinor}`,
              }
            : { filled: true, proceedsQuoteMinor: proceeds };
      }

      // The first writer for this order id wins; a concurrent second caller gets the first outcome.
      const claimed = await tx
        .insertInto('venue_executions')
        .values({
          order_id: r.orderId,
          base_symbol: r.baseSymbol,
          quote_symbol: r.quoteSymbol,
          amount_base_minor: r.amountBaseMinor.toString(),
          proceeds_quote_minor: result.filled ? result.proceedsQuoteMinor.toString() : null,
          state: result.filled ? 'filled' : 'refused',
          reason: result.filled ? null : result.reason,
          created_at: at,
          booked_at: null,
        })
        .onConflict((oc) => oc.column('order_id').doNothing())
        .returning('order_id')
        .executeTakeFirst();
      if (!claimed)
        return outcome(await tx.selectFrom('venue_executions').selectAll().where('order_id', '=', r.orderId).executeTakeFirstOrThrow());
      return result;
    });
  }
}

/**
 * Books a recorded fill into the venue's balances (base −a, quote +proceeds), once, inside the caller's
 * settlement transaction. Returns false when the venue recorded no unbooked fill for the order (a
 * market other than this one executed it).
 */
async function bookVenueFill(tx: StoreTx, orderId: string, at: Date): Promise<boolean> {
  const fill = await tx
    .updateTable('venue_executions')
    .set({ booked_at: at })
    .where('order_id', '=', orderId)
    .where('state', '=', 'filled')
    .where('booked_at', 'is', null)
    .returning(['base_symbol', 'quote_symbol', 'amount_base_minor', 'proceeds_quote_minor'])
    .executeTakeFirst();
  if (!fill) return false;
  // Rows in symbol order, so two opposite fills (BTC/USD and USD/BTC) cannot deadlock.
  const moves = [
    { asset: fill.base_symbol, amount: -BigInt(fill.amount_base_minor) },
    { asset: fill.quote_symbol, amount: BigInt(fill.proceeds_quote_minor ?? '0') },
  ].sort((x, y) => (x.asset < y.asset ? -1 : 1));
  for (const m of moves) {
    await tx
      .insertInto('venue_balances')
      .values({ asset_symbol: m.asset, amount: m.amount.toString() })
      .onConflict((oc) => oc.column('asset_symbol').doUpdateSet({ amount: sql`venue_balances.amount + excluded.amount` }))
      .execute();
  }
  return true;
}

function outcome(row: { state: string; proceeds_quote_minor: string | null; reason: string | null }): Execution {
  return row.state === 'filled' && row.proceeds_quote_minor !== null
    ? { filled: true, proceedsQuoteMinor: BigInt(row.proceeds_quote_minor) }
    : { filled: false, reason: row.reason ?? 'refused by the market' };
}
