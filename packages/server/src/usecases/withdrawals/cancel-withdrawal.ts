import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { countedWithdrawal, releaseWithdrawal } from './decide-withdrawal.ts';
import type { WithdrawalRow } from '../repositories.ts';

/**
 * The organization withdraws its own request while pending_approval: the hold is released in
 * the same transaction. Another organization's is not found; a decided one is 409; racing a decision,
 * exactly one of them happens.
 */
export async function cancelWithdrawal(d: UseCaseDeps, actor: string, organizationId: string, id: string): Promise<WithdrawalRow> {
  return countedWithdrawal(
    d,
    await d.store.uow.run(async (tx) => {
      if (!(await d.store.withdrawals.belongsTo(tx, id, organizationId))) throw new DomainError('withdrawals.not_found');
      return releaseWithdrawal(d, tx, actor, id, 'cancelled', null);
    }),
  );
}
