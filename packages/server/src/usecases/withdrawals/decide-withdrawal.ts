import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { DomainError } from '../../domain/errors.ts';
import { checkOperatorMayDecide } from '../../domain/policy/approvals.ts';
import { recordApproval } from '../approvals/record-approval.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import { withdrawalAudit } from './audit-view.ts';
import { countedWithdrawal, strip } from './row.ts';
import { payOut } from './pay-out.ts';
import { madeUpTxid, sendCryptoWithdrawal } from './send-crypto.ts';
import type { WithdrawalRow } from '../repositories.ts';

/**
 * Approve, once. Sandbox: the simulated venue pays at once, so pending_approval → approved → completed
 * in one transaction (a crypto withdrawal with a made-up txid). Production: it stays `approved`, its hold
 * still held, until the desk records the payout or its failure (record-payout.ts), or, at a venue that
 * sends crypto withdrawals itself, until the venue says how it ended (send-crypto.ts). Refused while not reconciled: money does not leave while
 * the books and the market disagree.
 */
export async function approveWithdrawal(d: UseCaseDeps, approver: Approver, id: string, reason: string | null): Promise<WithdrawalRow> {
  const at = d.clock.now();
  const { actor } = approver;
  const { row, decided, crypto } = await d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    const pending = await d.store.withdrawals.lockPending(tx, id);
    if (!pending) throw await undecidable(d, tx, id);
    // The organization's own approvals come first (docs/controls.md); its members' approvals lock the same row.
    checkOperatorMayDecide(await d.store.controls.of(tx, 'withdrawals', id));
    const { decides, state } = await recordApproval(
      d.store.approvals,
      tx,
      at,
      'withdrawal',
      { id, asset: pending.assetSymbol, amount: pending.amount, organizationId: pending.organizationId },
      approver,
    );
    const approvals = state.approvals.map((a) => ({ staffId: a.staffId, name: a.name }));
    if (!decides) {
      // A first of two approvals (four-eyes): the withdrawal stays pending_approval.
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'withdrawal.approval',
        subjectType: 'withdrawal',
        subjectId: id,
        before: withdrawalAudit(pending),
        after: { ...withdrawalAudit(pending), approvals, approvalsRequired: state.approvalsRequired },
      });
      return { row: pending, decided: false, crypto: false };
    }
    const w = await d.store.withdrawals.decide(tx, id, 'approved', reason, at);
    if (!w) throw await undecidable(d, tx, id);
    let after: WithdrawalRow = w;
    let failed = false;
    const crypto = (await d.store.destinations.getIn(tx, w.destinationId))?.kind === 'crypto';
    if (d.venue.paysOutOnApproval) {
      const failure = d.venue.payoutFailure?.(w.amount) ?? null;
      if (failure === null) {
        await payOut(d, tx, at, w);
        // The sandbox's chain: a crypto withdrawal completes with a made-up txid (docs/market.md).
        const txid = crypto ? madeUpTxid() : undefined;
        after = (await d.store.withdrawals.settle(tx, id, 'completed', at, txid ? { txid, payoutReference: txid } : {}))!;
      } else {
        // The simulated payout failed (the sandbox's magic amount, docs/sandbox.md): approved, then failed, hold released.
        after = (await d.store.withdrawals.settle(tx, id, 'failed', at, { reason: failure }))!;
        await d.store.holds.release(tx, d.ids, at, w.holdId, 'withdrawal_release', id);
        failed = true;
      }
    }
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'withdrawal.approve',
      subjectType: 'withdrawal',
      subjectId: id,
      before: { ...withdrawalAudit(after), state: 'pending_approval', reason: null },
      after: { ...withdrawalAudit(failed ? w : after), approvals },
    });
    if (failed)
      await d.store.audit.record(tx, d.ids, at, {
        actor,
        action: 'withdrawal.fail',
        subjectType: 'withdrawal',
        subjectId: id,
        before: { state: 'approved' },
        after: withdrawalAudit(after),
      });
    return { row: strip(after), decided: true, crypto };
  });
  if (decided) {
    d.tally?.transition('withdrawal', 'approved');
    if (row.state !== 'approved') d.tally?.transition('withdrawal', row.state);
  }
  // A venue that sends crypto withdrawals itself gets this one now, the decision committed first: a
  // crash from here on leaves it approved, and it is followed (recoverCryptoWithdrawals) until it ends.
  if (decided && row.state === 'approved' && crypto && d.venue.cryptoPayouts) {
    try {
      return (await sendCryptoWithdrawal(d, actor, id)) ?? row;
    } catch {
      return row;
    }
  }
  return row;
}

/** Why a withdrawal could not be decided: there is none, or it was decided already (a lost race: 409). */
async function undecidable(d: UseCaseDeps, tx: Tx, id: string): Promise<DomainError> {
  const state = await d.store.withdrawals.stateIn(tx, id);
  return state === null ? new DomainError('withdrawals.not_found') : new DomainError('withdrawals.already_decided', { state });
}

/** Ends a pending withdrawal without paying it (reject or cancel): the hold is released; nothing leaves. */
export async function releaseWithdrawal(
  d: UseCaseDeps,
  tx: Tx,
  actor: string,
  id: string,
  to: 'rejected' | 'cancelled',
  reason: string | null,
): Promise<WithdrawalRow> {
  const at = d.clock.now();
  const w = await d.store.withdrawals.decide(tx, id, to, reason, at);
  if (!w) throw await undecidable(d, tx, id);
  await d.store.holds.release(tx, d.ids, at, w.holdId, 'withdrawal_release', id);
  await d.store.audit.record(tx, d.ids, at, {
    actor,
    action: to === 'rejected' ? 'withdrawal.reject' : 'withdrawal.cancel',
    subjectType: 'withdrawal',
    subjectId: id,
    before: { ...withdrawalAudit(w), state: 'pending_approval', reason: null },
    after: withdrawalAudit(w),
  });
  return strip(w);
}

/**
 * The operator rejects: the hold is released; nothing leaves. Allowed while not reconciled (it moves
 * nothing out). Not while it waits for its organization's members (docs/controls.md).
 */
export async function rejectWithdrawal(d: UseCaseDeps, actor: string, id: string, reason: string | null): Promise<WithdrawalRow> {
  return countedWithdrawal(
    d,
    await d.store.uow.run(async (tx) => {
      if (await d.store.withdrawals.lockPending(tx, id)) checkOperatorMayDecide(await d.store.controls.of(tx, 'withdrawals', id));
      return releaseWithdrawal(d, tx, actor, id, 'rejected', reason);
    }),
  );
}

export { countedWithdrawal, strip } from './row.ts';
