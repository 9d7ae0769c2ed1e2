import { clearingEntry, PLATFORM, type Entry } from './entry.ts';

/** The entries Cambio writes. Each is balanced by construction; the store asserts it again. */
type Ref = { organizationId: string; assetSymbol: string; amount: bigint; referenceId: string };

/** available → held: the amount backs one request and nothing else. */
export const holdEntry = (kind: 'order_hold' | 'withdrawal_hold', r: Ref): Entry => ({
  kind,
  organizationId: r.organizationId,
  referenceId: r.referenceId,
  memo: null,
  postings: [
    { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'available', amount: -r.amount },
    { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'held', amount: r.amount },
  ],
});

/** held → available: the request was rejected or failed. */
export const releaseEntry = (kind: 'order_release' | 'withdrawal_release', r: Ref): Entry => ({
  kind,
  organizationId: r.organizationId,
  referenceId: r.referenceId,
  memo: null,
  postings: [
    { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'held', amount: -r.amount },
    { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'available', amount: r.amount },
  ],
});

/**
 * A signed manual adjustment; it also changes what the platform holds. The organization's entry posts
 * against `clearing`, the platform's own entry (second) carries it on to `market`.
 */
export const adjustmentEntries = (r: { organizationId: string; assetSymbol: string; amount: bigint; memo: string }): [Entry, Entry] => {
  const own: Entry = {
    kind: 'adjustment',
    organizationId: r.organizationId,
    referenceId: null,
    memo: r.memo,
    postings: [
      { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'available', amount: r.amount },
      { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'clearing', amount: -r.amount },
    ],
  };
  return [own, clearingEntry(own, 'market')];
};
