import { DomainError } from '../errors.ts';

/**
 * Double entry (docs/design/money-and-states.md): an entry is postings that sum to zero per asset. Organization accounts
 * are `available` and `held`, and never go below zero. The platform's own accounts, per asset:
 * - `market`: minus what the platform holds at the market (deposits in make it more negative);
 * - `revenue`: spread and fees the platform earned;
 * - `unattributed`: money that arrived and belongs to nobody known yet;
 * - `equity`: the counterpart of manual adjustments;
 * - `clearing`: the one platform account an entry that touches an organization posts against, at the
 *   amounts the client saw; the platform's own entry of the same transaction moves it on to `market`,
 *   `revenue` or `unattributed`, so it is back to zero after every transaction (docs/transparency.md).
 */
export const PLATFORM = 'platform';
export type OrgAccountKind = 'available' | 'held';
export type PlatformAccountKind = 'market' | 'revenue' | 'unattributed' | 'equity' | 'clearing';
export type AccountKind = OrgAccountKind | PlatformAccountKind;

export interface AccountRef {
  ownerId: string; // organization id, or PLATFORM
  assetSymbol: string;
  kind: AccountKind;
}

export interface Posting extends AccountRef {
  amount: bigint; // signed
}

export type EntryKind =
  | 'adjustment'
  | 'order_hold'
  | 'order_settlement'
  | 'order_release'
  | 'deposit'
  | 'deposit_unattributed'
  | 'deposit_attribution'
  | 'withdrawal_hold'
  | 'withdrawal_settlement'
  | 'withdrawal_release'
  | 'venue_fee'
  | 'order_execution'
  | 'clearing'
  | 'reversal';

export interface Entry {
  kind: EntryKind;
  organizationId: string | null;
  referenceId: string | null;
  memo: string | null;
  postings: Posting[];
}

export const accountKey = (a: AccountRef) => `${a.ownerId}\u0000${a.assetSymbol}\u0000${a.kind}`;

/** Refuses an entry that does not sum to zero per asset, or that is empty. */
export function assertBalanced(entry: Entry): void {
  if (entry.postings.length < 2) throw new DomainError('ledger.unbalanced_entry');
  const sums = new Map<string, bigint>();
  for (const p of entry.postings) sums.set(p.assetSymbol, (sums.get(p.assetSymbol) ?? 0n) + p.amount);
  for (const s of sums.values()) if (s !== 0n) throw new DomainError('ledger.unbalanced_entry');
}

/**
 * The net change per account, sorted by account key: one row per account (one statement can touch a
 * row once) and the same lock order in every transaction (no deadlocks between two entries).
 */
export function netChanges(entry: Entry): Posting[] {
  const byKey = new Map<string, Posting>();
  for (const p of entry.postings) {
    const k = accountKey(p);
    const cur = byKey.get(k);
    byKey.set(k, cur ? { ...cur, amount: cur.amount + p.amount } : { ...p });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** The reversal of an entry: every posting negated. Entries are never edited. */
export function reversalOf(entry: Entry, memo: string): Entry {
  return { ...entry, kind: 'reversal', memo, postings: entry.postings.map((p) => ({ ...p, amount: -p.amount })) };
}

export const isOrgAccount = (kind: AccountKind) => kind === 'available' || kind === 'held';

/**
 * The platform's own entry that takes what an organization's entry left in `clearing` (per asset) on to
 * `to`: it touches no organization, so it shows nothing in any client's proof.
 */
export function clearingEntry(of: Entry, to: PlatformAccountKind): Entry {
  const left = new Map<string, bigint>();
  for (const p of of.postings)
    if (p.ownerId === PLATFORM && p.kind === 'clearing') left.set(p.assetSymbol, (left.get(p.assetSymbol) ?? 0n) + p.amount);
  const postings: Posting[] = [];
  for (const [assetSymbol, amount] of left) {
    if (amount === 0n) continue;
    postings.push(
      { ownerId: PLATFORM, assetSymbol, kind: 'clearing', amount: -amount },
      { ownerId: PLATFORM, assetSymbol, kind: to, amount },
    );
  }
  return { kind: 'clearing', organizationId: null, referenceId: of.referenceId, memo: null, postings };
}
