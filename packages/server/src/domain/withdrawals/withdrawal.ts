import { DomainError } from '../errors.ts';
import { clearingEntry, PLATFORM, type Entry } from '../ledger/entry.ts';
import type { Limits } from '../organizations/organization.ts';
import { isUsable } from '../destinations/bank-destination.ts';

/** docs/design/money-and-states.md: pending_approval → approved → completed | failed; pending_approval → rejected, or cancelled by its organization. */
export type WithdrawalState = 'pending_approval' | 'approved' | 'completed' | 'rejected' | 'failed' | 'cancelled';

export interface DestinationForWithdrawal {
  organizationId: string;
  assetSymbol: string;
  cooldownUntil: Date;
  registeredInMarketAt: Date | null;
  /** pending_approval or rejected by the organization's members: not usable (docs/controls.md). */
  state?: string;
}

/**
 * The rules of POST /withdrawals, in the order a caller should meet them. The balance is checked last,
 * by the hold itself. A destination of another organization is answered as unknown: never revealed.
 */
export function checkWithdrawal(r: {
  organizationId: string;
  destination: DestinationForWithdrawal | null;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  marketDecimals: number | null;
  limits: Limits;
  now: Date;
}): void {
  if (r.amount <= 0n) throw new DomainError('request.invalid_amount', { field: 'amountMinor' });
  const d = r.destination;
  if (!d || d.organizationId !== r.organizationId) throw new DomainError('withdrawals.destination_not_found');
  if (d.assetSymbol !== r.assetSymbol) throw new DomainError('withdrawals.asset_mismatch', { asset: d.assetSymbol });
  if (r.marketDecimals === null) throw new DomainError('market.asset_not_listed', { asset: r.assetSymbol });
  // docs/design/money-and-states.md: a factor error is caught, not guessed.
  if (r.assetDecimals !== r.marketDecimals) {
    throw new DomainError('market.decimals_mismatch', {
      sent: String(r.assetDecimals),
      asset: r.assetSymbol,
      expected: String(r.marketDecimals),
    });
  }
  if (!isUsable(d, r.now)) throw new DomainError('withdrawals.destination_not_usable');
  const cap = r.limits?.[r.assetSymbol]?.maxWithdrawalMinor;
  if (cap !== undefined && r.amount > cap) throw new DomainError('withdrawals.limit_exceeded', { asset: r.assetSymbol });
}

/**
 * The amount leaves: out of the organization's `held` into `clearing` (the organization's entry), and the
 * platform's own entry carries it on to `market` (minus what the platform holds at the market, so it goes up).
 */
export const withdrawalSettlementEntries = (r: {
  organizationId: string;
  assetSymbol: string;
  amount: bigint;
  referenceId: string;
}): [Entry, Entry] => {
  const own: Entry = {
    kind: 'withdrawal_settlement',
    organizationId: r.organizationId,
    referenceId: r.referenceId,
    memo: null,
    postings: [
      { ownerId: r.organizationId, assetSymbol: r.assetSymbol, kind: 'held', amount: -r.amount },
      { ownerId: PLATFORM, assetSymbol: r.assetSymbol, kind: 'clearing', amount: r.amount },
    ],
  };
  return [own, clearingEntry(own, 'market')];
};
