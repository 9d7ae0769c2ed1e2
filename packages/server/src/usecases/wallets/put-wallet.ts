import type { DepositWallet } from '../../domain/deposits/wallet.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { walletAudit } from './audit-view.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * The deposit wallet of a listed asset (docs/operator-guide.md), set or replaced, audited. `source: 'venue'`: the
 * address was read from the CCXT venue and follows it (follow-venue-address.ts); the caller reads it.
 */
export async function putWallet(
  d: Deps,
  actor: string,
  r: { assetSymbol: string; network: string; address: string; source?: 'operator' | 'venue' },
): Promise<DepositWallet> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const { assetSymbol, network, address } = r;
    if (!(await d.store.marketAssets.isListed(tx, assetSymbol))) throw new DomainError('market.asset_not_listed', { asset: assetSymbol });
    const cur = await d.store.wallets.lockFor(tx, assetSymbol);
    const w = await d.store.wallets.upsert(tx, at, { assetSymbol, network, address, source: r.source ?? 'operator' });
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'deposit.wallet.put',
      subjectType: 'asset',
      subjectId: assetSymbol,
      before: walletAudit(cur),
      after: walletAudit(w),
    });
    return w;
  });
}
