import type { NewDestination } from '../../domain/destinations/register.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { DestinationRow } from '../repositories.ts';

/**
 * The organization registers a bank account (validated and sealed for its row by prepareDestination): usable
 * once its cooldown has run out and the operator registered it in the market. 409 when the organization
 * already registered that account. Refused while not reconciled, like every write on the way to money
 * leaving. Its event (destination.registered) is written by the table's trigger.
 */
export async function registerDestination(d: UseCaseDeps, organizationId: string, dst: NewDestination): Promise<DestinationRow> {
  const at = d.clock.now();
  const row = await d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    if (!(await d.store.destinations.isListed(tx, dst.assetSymbol)))
      throw new DomainError('market.asset_not_listed', { asset: dst.assetSymbol });
    return d.store.destinations.insert(tx, organizationId, dst, at);
  });
  if (!row) throw new DomainError('withdrawals.destination_already_registered');
  return row;
}
