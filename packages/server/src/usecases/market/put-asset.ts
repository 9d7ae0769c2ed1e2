import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { MarketAsset } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/** The asset as answered and audited: its kind only when it has one (an asset without one reads as before). */
export const assetView = (a: MarketAsset) => ({ symbol: a.symbol, decimals: a.decimals, ...(a.kind ? { kind: a.kind } : {}) });

/**
 * Lists an asset (docs/operator-guide.md), audited. Its decimals cannot change while anything carries the old
 * ones: an amount would change meaning by a factor of ten per decimal. `market.decimals_in_use` while an
 * open declaration (its expected amount), an unexpired unconsumed quote, a pending order (either side)
 * or a pending withdrawal refers to the asset; `market.decimals_locked` once any account holds it. The
 * same decimals and kind again change nothing and record nothing. `kind` (fiat or crypto) says which kind
 * of destination the asset takes; left out, the asset keeps the one it has (none: both).
 */
export async function putAsset(
  d: Deps,
  actor: string,
  symbol: string,
  decimals: number,
  kindGiven?: 'fiat' | 'crypto',
): Promise<MarketAsset> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    // Locked first: a declaration or an arrival that reads the decimals is seen below or reads the new ones.
    const cur = await d.store.marketAssets.lock(tx, symbol);
    // A PUT without a kind keeps the asset's (docs/market.md "Crypto destinations").
    const kind = kindGiven ?? cur?.kind ?? null;
    if (cur && cur.decimals === decimals && cur.kind === kind) return cur;
    if (cur && cur.decimals !== decimals) {
      if (await d.store.marketAssets.carriesDecimals(tx, symbol, at)) throw new DomainError('market.decimals_in_use', { asset: symbol });
      if (await d.store.marketAssets.isHeld(tx, symbol)) throw new DomainError('market.decimals_locked');
    }
    await d.store.marketAssets.upsert(tx, at, symbol, decimals, kind);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'market.asset.put',
      subjectType: 'asset',
      subjectId: symbol,
      before: cur && assetView(cur),
      after: assetView({ symbol, decimals, kind }),
    });
    return { symbol, decimals, kind };
  });
}
