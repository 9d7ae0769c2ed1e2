import { DomainError } from '../../domain/errors.ts';
import type { PairTerms } from '../../domain/market/pair-terms.ts';
import type { UseCaseDeps } from '../ports.ts';
import { pairTermsAudit, storedTermsAudit } from './audit-view.ts';
import type { PricedPair } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * Prices a pair (or reprices it), audited (docs/operator-guide.md). Both assets must be listed, so the pair has
 * decimals on both sides. A venue-priced pair's book was checked by the caller, which reads the venue.
 */
export async function putPair(d: Deps, actor: string, base: string, quote: string, t: PairTerms): Promise<PricedPair> {
  const at = d.clock.now();
  await d.store.uow.run(async (tx) => {
    for (const symbol of [base, quote]) {
      if (!(await d.store.marketAssets.isListed(tx, symbol))) throw new DomainError('market.asset_not_listed', { asset: symbol });
    }
    const before = await d.store.marketPairs.lockTerms(tx, base, quote);
    await d.store.marketPairs.upsert(tx, at, base, quote, t);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'market.pair.put',
      subjectType: 'pair',
      subjectId: `${base}/${quote}`,
      before: before ? storedTermsAudit(before) : null,
      after: pairTermsAudit(t),
    });
  });
  // Read back after the commit: the answer carries both assets' decimals and the stored time.
  const p = await d.store.marketPairs.get(base, quote);
  if (!p) throw new DomainError('market.pair_not_found');
  return p;
}
