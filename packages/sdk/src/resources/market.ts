import type { TradablePair } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

/** A pair that can be quoted now: the base amounts a quote accepts (`minBaseMinor`..`maxBaseMinor`) and both decimals. */
export type MarketPair = Amounts<TradablePair>;

export class MarketResource {
  constructor(private readonly t: Transport) {}

  /** `GET /api/v1/market/pairs`: what can be traded now and within which base amounts. */
  async pairs(): Promise<MarketPair[]> {
    return (await this.t.get<MarketPair[]>('/market/pairs')).data;
  }
}
