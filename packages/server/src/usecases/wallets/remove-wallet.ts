import type { DepositWallet } from '../../domain/deposits/wallet.ts';
import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { walletAudit } from './audit-view.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/** The asset leaves the wallet list, audited. Open declarations keep the address they were given. */
export async function removeWallet(d: Deps, actor: string, assetSymbol: string): Promise<DepositWallet> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const w = await d.store.wallets.delete(tx, assetSymbol);
    if (!w) throw new DomainError('deposits.wallet_not_found', { asset: assetSymbol });
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'deposit.wallet.delete',
      subjectType: 'asset',
      subjectId: assetSymbol,
      before: walletAudit(w),
      after: null,
    });
    return w;
  });
}
