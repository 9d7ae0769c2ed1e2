import type { UseCaseDeps } from '../ports.ts';

/**
 * A signed manual adjustment (docs/operator-guide.md): sandbox funding and corrections, against the platform's
 * `clearing` account, carried on to `market` by the platform's own entry, so the venue's books follow in the same transaction. Audited.
 */
export async function adjustBalance(
  d: UseCaseDeps,
  actor: string,
  r: { organizationId: string; assetSymbol: string; amount: bigint; reason: string },
): Promise<{ entryId: string; available: bigint }> {
  const at = d.clock.now();
  const entryId = d.ids.next('je');
  const clearingId = d.ids.next('je');
  return d.store.uow.run(async (tx) => {
    const { before, after } = await d.store.accounts.adjust(tx, [entryId, clearingId], at, r);
    await d.venue.fundsMoved(tx, r.assetSymbol, r.amount);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'ledger.adjustment',
      subjectType: 'organization',
      subjectId: r.organizationId,
      before: { assetSymbol: r.assetSymbol, availableMinor: before.toString() },
      after: { assetSymbol: r.assetSymbol, availableMinor: after.toString(), amountMinor: r.amount.toString(), reason: r.reason, entryId },
    });
    return { entryId, available: after };
  });
}
