import type { CryptoWithdrawalView } from '../venue-port.ts';

export type { CryptoWithdrawalView };

/** Where a crypto withdrawal sent by an exchange account stands there (docs/market.md "Crypto withdrawals at the venue"). */
export type VenueWithdrawalState = 'new' | 'sending' | 'unknown' | 'processing' | 'completed' | 'failed';

/** One crypto withdrawal sent by the venue account (migrations/060), keyed by the withdrawal's id. */
export interface VenueWithdrawalRow {
  withdrawalId: string;
  coin: string;
  network: string;
  address: string;
  memo: string | null;
  /** What the venue is asked to send: the amount plus its network fee, decimal text. */
  amountText: string;
  feeText: string;
  state: VenueWithdrawalState;
  attempts: number;
  sentAt: Date | null;
  recvWindowMs: number;
  venueWithdrawalId: string | null;
  txid: string | null;
  reason: string | null;
}

/** The row a withdrawal is created as, `new`, before it is sent. */
export interface VenueWithdrawalInit {
  withdrawalId: string;
  venue: string;
  coin: string;
  network: string;
  address: string;
  memo: string | null;
  amountText: string;
  feeText: string;
  recvWindowMs: number;
}

/** What the venue said of a withdrawal, written to its row with the lease given back. */
export interface VenueWithdrawalSettlement {
  state: VenueWithdrawalState;
  venueWithdrawalId?: string;
  venueStatus?: string;
  txid?: string;
  reason?: string;
  feeText?: string;
}

/**
 * The rows of crypto withdrawals sent by an exchange account (store/venue-withdrawals-store.ts). Work on a
 * row needs its lease (a conditional update only one instance wins), as for the venue's orders.
 */
export interface VenueWithdrawalsRepository {
  get(withdrawalId: string): Promise<VenueWithdrawalRow | null>;
  /** Writes the row `new` unless it is there already. */
  create(init: VenueWithdrawalInit, at: Date): Promise<void>;
  /** The row with its lease taken by `owner` until `until`; null when it is over or another holder's lease still runs. */
  claim(withdrawalId: string, owner: string, now: Date, until: Date): Promise<VenueWithdrawalRow | null>;
  /** Written before the request leaves: a crash from here on leaves `sending`, looked up, never sent blind. */
  markSending(withdrawalId: string, owner: string, at: Date): Promise<boolean>;
  settle(withdrawalId: string, owner: string, at: Date, v: VenueWithdrawalSettlement): Promise<void>;
  release(withdrawalId: string, owner: string): Promise<void>;
  /** What the desk sees of each of these withdrawals at the venue (absent: never sent there). */
  views(withdrawalIds: string[]): Promise<Map<string, CryptoWithdrawalView>>;
}
