import type { DepositWallet, MarketAssetRecord, MarketPairRecord } from '@cambio/contract';
import type { Static } from '@sinclair/typebox';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { enc } from './organizations.ts';

export type MarketAsset = Static<typeof MarketAssetRecord>;

/**
 * docs/operator-guide.md, docs/design/money-and-states.md: how the market prices a pair. `midRate`: whole quote units
 * per whole base unit, as decimal text; or `source: 'venue'` with the venue's market `venueSymbol`
 * (docs/market.md), priced from its order book, no midRate.
 */
export interface PairInput {
  midRate?: string;
  source?: 'venue' | 'static';
  venueSymbol?: string;
  maxBookAgeMs?: number;
  spreadBps: number;
  feeBps: number;
  fixedFeeQuoteMinor: bigint;
  minBaseMinor: bigint;
  maxBaseMinor: bigint;
}
/** A priced pair; `rateQuoteMinor` is the rate offered to clients now. */
export type Pair = Amounts<MarketPairRecord>;

/** Assets and pairs at the (simulated) market, and the deposit wallet of each asset. PUT and DELETE are safe to repeat. */
export class OperatorMarket {
  constructor(private readonly t: Transport) {}

  /** `kind`: `fiat` (bank destinations) or `crypto` (crypto addresses); left out, the asset keeps its own. */
  async putAsset(symbol: string, decimals: number, kind?: 'fiat' | 'crypto'): Promise<MarketAsset> {
    return (
      await this.t.request<MarketAsset>(
        { method: 'PUT', path: `/market/assets/${enc(symbol)}`, body: { decimals, ...(kind ? { kind } : {}) } },
        { resendWhenUnknown: true },
      )
    ).value.data;
  }

  async assets(): Promise<MarketAsset[]> {
    return (await this.t.get<MarketAsset[]>('/market/assets')).data;
  }

  async putPair(base: string, quote: string, p: PairInput): Promise<Pair> {
    return (
      await this.t.request<Pair>({ method: 'PUT', path: `/market/pairs/${enc(base)}/${enc(quote)}`, body: p }, { resendWhenUnknown: true })
    ).value.data;
  }

  async pairs(): Promise<Pair[]> {
    return (await this.t.get<Pair[]>('/market/pairs')).data;
  }

  /** No price for that pair any more; answers the pair as it was. */
  async deletePair(base: string, quote: string): Promise<Pair> {
    return (await this.t.request<Pair>({ method: 'DELETE', path: `/market/pairs/${enc(base)}/${enc(quote)}` }, { resendWhenUnknown: true }))
      .value.data;
  }
}

export class OperatorWallets {
  constructor(private readonly t: Transport) {}

  async put(symbol: string, p: { network: string; address: string }): Promise<DepositWallet> {
    return (await this.t.request<DepositWallet>({ method: 'PUT', path: `/wallets/${enc(symbol)}`, body: p }, { resendWhenUnknown: true }))
      .value.data;
  }

  /** The platform can no longer receive the asset: it leaves the clients' wallet list. */
  async delete(symbol: string): Promise<DepositWallet> {
    return (await this.t.request<DepositWallet>({ method: 'DELETE', path: `/wallets/${enc(symbol)}` }, { resendWhenUnknown: true })).value
      .data;
  }

  async list(): Promise<DepositWallet[]> {
    return (await this.t.get<DepositWallet[]>('/wallets')).data;
  }
}
