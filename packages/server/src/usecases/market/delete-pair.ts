import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { pairTermsAudit } from './audit-view.ts';
import type { PricedPair } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * No price for the pair any more, audited: new quotes are refused and approvals of open orders fail at
 * the venue. Answers the pair as it was.
 */
export async function deletePair(d: Deps, actor: string, base: string, quote: string): Promise<PricedPair> {
  const cur = await d.store.marketPairs.get(base, quote);
  if (!cur) throw new DomainError('market.pair_not_found');
  const at = d.clock.now();
  await d.store.uow.run(async (tx) => {
    if (!(await d.store.marketPairs.delete(tx, base, quote))) throw new DomainError('market.pair_not_found');
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'market.pair.delete',
      subjectType: 'pair',
      subjectId: `${base}/${quote}`,
      before: pairTermsAudit(cur.terms),
      after: null,
    });
  });
  return cur;
}
