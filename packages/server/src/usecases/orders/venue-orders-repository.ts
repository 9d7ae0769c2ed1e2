/** Where an order sent to an exchange stands there (docs/market.md): new, sending and unknown are not settled yet. */
export type VenueOrderState = 'new' | 'sending' | 'unknown' | 'filled' | 'refused' | 'partial';

/** One order sent to an exchange through CCXT (migrations/018), with the exchange's own figures. */
export interface VenueOrderRow {
  orderId: string;
  venue: string;
  venueSymbol: string;
  side: 'sell' | 'buy';
  amountText: string;
  state: VenueOrderState;
  attempts: number;
  sentAt: Date | null;
  recvWindowMs: number;
  venueOrderId: string | null;
  executedQty: string | null;
  quoteQty: string | null;
  proceedsQuoteMinor: bigint | null;
  reason: string | null;
  /** Fees charged in other assets than the pair's quote, in their minimum units. */
  costs: VenueCost[];
}

export interface VenueCost {
  assetSymbol: string;
  amountMinor: bigint;
}

/** A row with its order's figures, as the desk lists them. */
export interface VenueOrderListed extends VenueOrderRow {
  organizationId: string;
  orderState: string;
  baseSymbol: string;
  quoteSymbol: string;
  quoteDecimals: number;
  owedQuoteMinor: bigint;
  updatedAt: Date;
}
