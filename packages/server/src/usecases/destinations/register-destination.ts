import type { NewDestination } from '../../domain/destinations/register.ts';
import { DomainError } from '../../domain/errors.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { openApprovals } from '../controls/open-approvals.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { DestinationRow } from '../repositories.ts';

/**
 * The organization registers a bank account or a crypto address (validated, and a bank account sealed for
 * its row, by prepareDestination / prepareCryptoDestination): usable once its cooldown has run out and the
 * operator registered it in the market. One path for both kinds, so the same rules apply to both. A bank
 * account takes a fiat asset, an address a crypto one (an asset listed without a kind takes both:
 * destinations.kind_mismatch otherwise). 409 when the organization already registered that account, or
 * that address on that network for that asset. Refused while not reconciled, like every write on the way
 * to money leaving. Its event (destination.registered) is written by the table's trigger. When the
 * organization's `destination` rule asks its members to approve it (docs/controls.md), it is
 * `pending_approval` until they do, and its cooldown starts then; `initiatorMemberId` is the member who
 * registers it, or who issued the API key that does.
 */
export async function registerDestination(
  d: UseCaseDeps,
  organizationId: string,
  dst: NewDestination,
  initiatorMemberId = '',
): Promise<DestinationRow & { approvals: OrganizationApprovals | null }> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    const kind = await d.store.destinations.listedKind(tx, dst.assetSymbol);
    if (kind === undefined) throw new DomainError('market.asset_not_listed', { asset: dst.assetSymbol });
    if (kind !== null && kind !== (dst.kind === 'bank' ? 'fiat' : 'crypto'))
      throw new DomainError('destinations.kind_mismatch', { asset: dst.assetSymbol, kind });
    const row = await d.store.destinations.insert(tx, organizationId, dst, at);
    if (!row) throw new DomainError('withdrawals.destination_already_registered');
    const approvals = await openApprovals(d, tx, at, {
      kind: 'destinations',
      action: 'destination',
      requestId: row.id,
      organizationId,
      initiatorMemberId,
      assetSymbol: row.assetSymbol,
    });
    if (!approvals) return { ...row, approvals };
    await d.store.destinations.markPending(tx, row.id);
    return { ...row, state: 'pending_approval' as const, approvals };
  });
}
