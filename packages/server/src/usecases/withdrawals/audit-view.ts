import type { WithdrawalRow } from '../repositories.ts';

/** A withdrawal as the audit trail records it, before and after a change. */
export const withdrawalAudit = (w: WithdrawalRow) => ({
  organizationId: w.organizationId,
  state: w.state,
  assetSymbol: w.assetSymbol,
  amountMinor: w.amount.toString(),
  destinationId: w.destinationId,
  reason: w.reason,
  ...(w.payoutReference !== null ? { payoutReference: w.payoutReference } : {}),
});
