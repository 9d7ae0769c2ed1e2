import type { MarketPair } from '../domain/market/pair-terms.ts';
import type { Execution, Market } from '../domain/ports.ts';
import type { MarketPairsStore } from '../store/market-pairs-store.ts';

export const NO_VENUE_REASON = 'no market venue is connected to this instance (CAMBIO_MODE=production needs a venue adapter)';

/**
 * The market of production mode until a real venue adapter is connected behind the Market port.
 * Quotes are priced on the desk's terms (PUT /operator/v1/market/pairs); an approval can execute
 * nowhere, so it ends as the contract's market failure: `failed`, hold released, nothing credited.
 * Running the simulated venue here instead would credit clients with money no market ever paid.
 */
export class UnconnectedVenue implements Market {
  constructor(private readonly pairs: MarketPairsStore) {}

  pair(baseSymbol: string, quoteSymbol: string): Promise<MarketPair | null> {
    return this.pairs.get(baseSymbol, quoteSymbol);
  }

  async execute(): Promise<Execution> {
    return { filled: false, reason: NO_VENUE_REASON };
  }
}
