import type {
  VenueBookLevels,
  VenueExecution as VenueExecutionRecord,
  VenueMarketListing,
  VenueView as VenueViewRecord,
} from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

/** The market behind production: its health, the books its pairs are priced from. */
export type VenueView = Amounts<VenueViewRecord>;
/** One order sent to the venue, with the venue's own figures (`proceedsQuoteMinor`, `owedQuoteMinor` as bigint). */
export type VenueExecution = Amounts<VenueExecutionRecord>;
export type VenueExecutionState = VenueExecutionRecord['state'];

/** One spot market the venue trades (`GET /operator/v1/venue/markets`), its steps as exact decimal text. */
export type VenueMarket = VenueMarketListing;

/** Production at a real market (docs/market.md): what the desk watches. Reads only. */
export class OperatorVenue {
  constructor(private readonly t: Transport) {}

  async get(): Promise<VenueView> {
    return (await this.t.get<VenueView>('/venue')).data;
  }

  /** The markets a pair can be priced from; empty under a venue without market data (the desk, the simulated venue). */
  async markets(): Promise<VenueMarket[]> {
    return (await this.t.get<VenueMarket[]>('/venue/markets')).data;
  }

  /** The top of `symbol`'s book at each connected venue trading it, read now when none is held (before a pair is priced from it). */
  async book(symbol: string): Promise<VenueBookLevels[]> {
    return (await this.t.get<VenueBookLevels[]>('/venue/markets/book', { symbol })).data;
  }

  /** Newest first; `state` narrows them (e.g. `partial`: the fills that wait for the desk). */
  async executions(p: { state?: VenueExecutionState; limit?: number } = {}): Promise<VenueExecution[]> {
    return (await this.t.get<VenueExecution[]>('/venue/executions', { state: p.state, limit: p.limit })).data;
  }
}
