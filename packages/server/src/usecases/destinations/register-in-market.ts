import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { DestinationRow } from '../repositories.ts';

/**
 * The operator records that the destination is registered in the market. Idempotent: the first call sets
 * the time and is audited; a repeat changes nothing and answers the same record.
 */
export async function registerInMarket(d: UseCaseDeps, actor: string, id: string): Promise<DestinationRow> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const row = await d.store.destinations.markRegisteredInMarket(tx, id, at);
    if (!row) {
      const cur = await d.store.destinations.getIn(tx, id);
      if (!cur) throw new DomainError('destinations.not_found');
      return cur;
    }
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'destination.register_in_market',
      subjectType: 'destination',
      subjectId: id,
      before: { organizationId: row.organizationId, summary: row.summary, registeredInMarketAt: null },
      after: { organizationId: row.organizationId, summary: row.summary, registeredInMarketAt: at.toISOString() },
    });
    return row;
  });
}
