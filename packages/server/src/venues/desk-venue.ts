import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { MarketPairsStore } from '../store/market-pairs-store.ts';
import type { Venue } from '../usecases/ports.ts';

/**
 * Production (docs/design/money-and-states.md): the desk executes. Quotes are priced on the desk's terms (PUT
 * /operator/v1/market/pairs); an approved order waits, `approved`, until staff record the fill or the
 * failure, and an approved withdrawal until they record the payout or the failure. The desk's venue
 * keeps no books here: the real balances come with each reconciliation.
 */
export class DeskVenue implements Venue {
  readonly kind = 'desk';
  readonly paysOutOnApproval = false;
  constructor(private readonly pairs: MarketPairsStore) {}

  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.pairs.get(baseSymbol, quoteSymbol);
  }

  async execute(): Promise<null> {
    return null;
  }
  async fundsMoved(): Promise<void> {}
  async fillSettled(): Promise<void> {}
}
