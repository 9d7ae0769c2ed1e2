import { DomainError } from '../../domain/errors.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { withdrawalAudit } from './audit-view.ts';
import { countedWithdrawal, strip } from './decide-withdrawal.ts';
import { payOut } from './pay-out.ts';
import type { WithdrawalRow } from '../repositories.ts';

function assertDesk(d: UseCaseDeps): void {
  if (d.venue.kind === 'simulated') throw new DomainError('market.venue_simulated');
}

/**
 * The desk (docs/operator-guide.md): staff paid an approved withdrawal out (a bank transfer, or a crypto transaction whose txid
 * they give): completed, once, with the reference; the hold is consumed and the amount leaves the platform's books. Not gated by
 * reconciliation: it records money that already left. A second call is 409 and changes nothing.
 */
export async function recordPayout(
  d: UseCaseDeps,
  actor: string,
  id: string,
  payoutReference: string,
  txid?: string,
): Promise<WithdrawalRow> {
  assertDesk(d);
  const at = d.clock.now();
  const paid = await d.store.uow.run(async (tx) => {
    const w = await d.store.withdrawals.settle(tx, id, 'completed', at, { payoutReference });
    if (!w) throw await lost(d, tx, id);
    // A crypto withdrawal paid by hand: its txid is the one given, else the reference (docs/operator-guide.md).
    if ((await d.store.destinations.getIn(tx, w.destinationId))?.kind === 'crypto') {
      const set = await d.store.withdrawals.setTxid(tx, id, txid ?? payoutReference);
      w.txid = set;
    }
    await payOut(d, tx, at, w);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'withdrawal.payout',
      subjectType: 'withdrawal',
      subjectId: id,
      before: { state: 'approved' },
      after: withdrawalAudit(w),
    });
    return strip(w);
  });
  d.tally?.recorded('payout');
  return countedWithdrawal(d, paid);
}

/** docs/design/money-and-states.md: the payout did not happen: failed, hold released, once. */
export async function recordWithdrawalFailure(d: UseCaseDeps, actor: string, id: string, reason: string): Promise<WithdrawalRow> {
  assertDesk(d);
  const at = d.clock.now();
  const failed = await d.store.uow.run(async (tx) => {
    const w = await d.store.withdrawals.settle(tx, id, 'failed', at, { reason });
    if (!w) throw await lost(d, tx, id);
    await d.store.holds.release(tx, d.ids, at, w.holdId, 'withdrawal_release', id);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'withdrawal.fail',
      subjectType: 'withdrawal',
      subjectId: id,
      before: { state: 'approved' },
      after: withdrawalAudit(w),
    });
    return strip(w);
  });
  d.tally?.recorded('payout_failure');
  return countedWithdrawal(d, failed);
}

async function lost(d: UseCaseDeps, tx: Tx, id: string): Promise<DomainError> {
  const state = await d.store.withdrawals.stateIn(tx, id);
  return state === null ? new DomainError('withdrawals.not_found') : new DomainError('withdrawals.not_awaiting_payout', { state });
}
