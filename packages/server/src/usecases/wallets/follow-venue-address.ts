import type { UseCaseDeps } from '../ports.ts';
import { walletAudit } from './audit-view.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * The venue gave this address for a venue wallet (docs/market.md): when it differs, it replaces the old
 * one, audited, once. A wallet the operator took back (another source or network) is left alone.
 * Answers whether the address changed.
 */
export async function followVenueAddress(d: Deps, assetSymbol: string, network: string, address: string): Promise<boolean> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.wallets.lockVenueWallet(tx, assetSymbol, network);
    if (!cur || cur.address === address) return false;
    const w = await d.store.wallets.setAddress(tx, at, assetSymbol, address);
    await d.store.audit.record(tx, d.ids, at, {
      actor: 'system:venue-wallets',
      action: 'deposit.wallet.put',
      subjectType: 'asset',
      subjectId: assetSymbol,
      before: walletAudit(cur),
      after: walletAudit(w),
    });
    return true;
  });
}
