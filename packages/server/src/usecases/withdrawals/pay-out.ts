import { withdrawalSettlementEntries } from '../../domain/withdrawals/withdrawal.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';

/**
 * The amount leaves, inside the caller's transaction: the hold is consumed, the platform's `market`
 * account follows (it holds that much less at the venue) and so do the venue's books.
 */
export async function payOut(
  d: UseCaseDeps,
  tx: Tx,
  at: Date,
  w: { id: string; holdId: string; organizationId: string; assetSymbol: string; amount: bigint },
): Promise<void> {
  await d.store.holds.capture(tx, w.holdId, at);
  const entries = withdrawalSettlementEntries({
    organizationId: w.organizationId,
    assetSymbol: w.assetSymbol,
    amount: w.amount,
    referenceId: w.id,
  });
  for (const e of entries) await d.store.ledger.post(tx, d.ids.next('je'), e, at);
  await d.venue.fundsMoved(tx, w.assetSymbol, -w.amount);
}
