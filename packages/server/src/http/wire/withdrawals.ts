import { isUsable } from '../../domain/destinations/bank-destination.ts';
import type { DestinationRow } from '../../store/destinations-store.ts';
import type { WithdrawalRow } from '../../store/withdrawals-store.ts';

/** The client's view of a destination: masked, and `usable` computed at the moment it is read. */
export const destinationWire = (d: DestinationRow, now: Date) => ({
  id: d.id, label: d.label, assetSymbol: d.assetSymbol, summary: d.summary, usable: isUsable(d, now), createdAt: d.createdAt.toISOString(),
});

export const withdrawalWire = (w: WithdrawalRow) => ({
  id: w.id, state: w.state,
  money: { assetSymbol: w.assetSymbol, assetDecimals: w.assetDecimals, amountMinor: w.amount.toString() },
  destinationId: w.destinationId, destinationSummary: w.destinationSummary, reason: w.reason,
  createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString(),
});
