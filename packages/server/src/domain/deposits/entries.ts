import { clearingEntry, PLATFORM, type Entry } from '../ledger/entry.ts';

/**
 * The ledger side of a deposit. Money that arrives makes the platform's `market` account more
 * negative (the platform holds more at the market) and lands either in the organization's
 * `available` (matched) or in the platform's `unattributed` (waiting for a person).
 */
type Arrival = { assetSymbol: string; amount: bigint; depositId: string };

/** The organization's entry (against `clearing`), then the platform's own that carries it on to `market`. */
export const depositCreditEntries = (r: Arrival & { organizationId: string }): [Entry, Entry] => {
  const own: Entry = {
    kind: 'deposit',
    organizationId: r.organizationId,
    referenceId: r.depositId,
    memo: null,
    postings: [
      { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'available', amount: r.amount },
      { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'clearing', amount: -r.amount },
    ],
  };
  return [own, clearingEntry(own, 'market')];
};

export const depositUnattributedEntry = (r: Arrival): Entry => ({
  kind: 'deposit_unattributed',
  organizationId: null,
  referenceId: r.depositId,
  memo: null,
  postings: [
    { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'unattributed', amount: r.amount },
    { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'market', amount: -r.amount },
  ],
});

/**
 * A person credits an unattributed arrival: it leaves `unattributed` for the organization's `available`,
 * through `clearing` (the organization's entry first, the platform's own second).
 */
export const depositAttributionEntries = (r: Arrival & { organizationId: string }): [Entry, Entry] => {
  const own: Entry = {
    kind: 'deposit_attribution',
    organizationId: r.organizationId,
    referenceId: r.depositId,
    memo: null,
    postings: [
      { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'clearing', amount: -r.amount },
      { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'available', amount: r.amount },
    ],
  };
  return [own, clearingEntry(own, 'unattributed')];
};
