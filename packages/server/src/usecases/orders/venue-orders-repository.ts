import type { Tx } from '../tx.ts';

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

/** What the venue sends for an order the first time: the row it is created as, `new`. */
export interface VenueOrderInit {
  orderId: string;
  venue: string;
  venueSymbol: string;
  side: 'sell' | 'buy';
  amountText: string;
  recvWindowMs: number;
}

/** What the venue said of an order, written to its row with the lease given back. */
export interface VenueOrderSettlement {
  state: VenueOrderState;
  venueOrderId?: string;
  executedQty?: string;
  quoteQty?: string;
  proceedsQuoteMinor?: bigint;
  reason?: string;
  costs?: VenueCost[];
}

/**
 * The rows of orders sent to an exchange (store/venue-orders-store.ts). Work on a row needs its lease: a
 * conditional update only one instance can win while the lease runs, so two instances never send one
 * order; a lease cut short by a crash runs out and the next holder looks the order up first.
 */
export interface VenueOrdersRepository {
  get(orderId: string): Promise<VenueOrderRow | null>;
  /**
   * The row (created `new` if absent) with its lease taken by `owner` until `until`; null when it is settled
   * at the venue (filled, refused, partial) or another holder's lease still runs.
   */
  claim(init: VenueOrderInit, owner: string, now: Date, until: Date): Promise<VenueOrderRow | null>;
  /** Written before the order leaves: a crash from here on leaves `sending`, which is looked up, never resent blind. */
  markSending(orderId: string, owner: string, at: Date): Promise<boolean>;
  settle(orderId: string, owner: string, at: Date, v: VenueOrderSettlement): Promise<void>;
  release(orderId: string, owner: string): Promise<void>;
  /** The rows newest first (by their last change), with their orders' figures; `state` narrows them. */
  list(p: { state?: VenueOrderState | undefined; limit: number }): Promise<VenueOrderListed[]>;
  /** How many rows are sent with no outcome yet, and partial fills waiting for the desk. */
  watch(): Promise<{ awaitingOutcome: number; partial: number }>;
  /** Orders sent whose outcome is not known yet (a metric). */
  awaitingOutcome(): Promise<number>;
  /**
   * The state of the order's row, locked in `tx` until it ends (the venue's next write to it waits); null
   * when the order was never sent to an exchange. The desk reads it before recording a fill or a failure.
   */
  lockForDesk(tx: Tx, orderId: string): Promise<VenueOrderState | null>;
}
