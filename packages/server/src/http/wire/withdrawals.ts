import { isUsable } from '../../domain/destinations/bank-destination.ts';
import type { DestinationRow } from '../../store/destinations-store.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { withApprovals } from './organization-approvals.ts';

/**
 * The client's view of a destination: masked, and `usable` computed at the moment it is read. One that a
 * `destination` rule matched also says its `state` and `approvals` (docs/controls.md).
 */
export const destinationWire = (d: DestinationRow, now: Date, approvals?: OrganizationApprovals | null) => ({
  id: d.id,
  label: d.label,
  assetSymbol: d.assetSymbol,
  summary: d.summary,
  usable: isUsable(d, now),
  createdAt: d.createdAt.toISOString(),
  // A crypto address says so, with its network, and is shown whole to the organization's members (masking
  // it would only make it harder to check); a bank account keeps the spec's fields alone.
  ...(d.kind === 'crypto' ? { kind: 'crypto' as const, network: d.network ?? '', address: d.address ?? '', memo: d.memo } : {}),
  ...(approvals ? { state: d.state, ...withApprovals(approvals) } : {}),
});

/** `approvals` only when its organization's policy asked for them (docs/controls.md). */
export const withdrawalWire = (w: WithdrawalRow, approvals?: OrganizationApprovals | null) => ({
  id: w.id,
  state: w.state,
  money: { assetSymbol: w.assetSymbol, assetDecimals: w.assetDecimals, amountMinor: w.amount.toString() },
  destinationId: w.destinationId,
  destinationSummary: w.destinationSummary,
  reason: w.reason,
  txid: w.txid,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
  ...withApprovals(approvals),
});

/**
 * The withdrawal as requesting it wrote it: what the organization was answered then. Every later change
 * (a decision, the payout, a cancellation) moves only the state, the reason, the payout reference and
 * `updatedAt`; the destination's summary never changes.
 */
export const asRequested = (w: WithdrawalRow): WithdrawalRow => ({
  ...w,
  state: 'pending_approval',
  reason: null,
  payoutReference: null,
  txid: null,
  updatedAt: w.createdAt,
});
