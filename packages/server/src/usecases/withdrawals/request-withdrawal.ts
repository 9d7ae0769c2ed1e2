import type { Organization } from '../../domain/organizations/organization.ts';
import { checkWithdrawal } from '../../domain/withdrawals/withdrawal.ts';
import { AnswersOfWork, type AnswerInWork } from '../../domain/idempotency/answers-of-work.ts';
import type { Tx, UseCaseDeps } from '../ports.ts';
import type { DestinationForRequest, WithdrawalRow } from '../repositories.ts';

export interface WithdrawalRequest {
  destinationId: string;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
}

/**
 * The organization asks for an amount to leave to one of its destinations: pending_approval, the amount
 * held until a person at the operator decides. The hold is taken in the same transaction that writes the
 * request (CONTRACT §2). Refused while not reconciled: money does not leave while the books and the market
 * disagree. Its event (withdrawal.created) is written by the table's trigger.
 *
 * A keyed request's answer, a reference to the request, is kept in that transaction too; on PostgreSQL its
 * key is claimed there as well (KeptAnswer.claimInWork), by the statement that reads the destination: null
 * when the key could not be claimed, and nothing was written (the request is told why: `unclaimed`).
 */
export async function requestWithdrawal(
  d: UseCaseDeps,
  org: Organization,
  r: WithdrawalRequest,
  keep?: AnswerInWork<string>,
): Promise<WithdrawalRow | null> {
  const at = d.clock.now();
  const id = d.ids.next('wdr');
  const answers = new AnswersOfWork();
  const w = await d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    answers.add(keep, id);
    const dest = await destinationClaimingKeys(d, tx, r.destinationId, answers);
    if (dest === null) return null;
    checkWithdrawal({
      organizationId: org.id,
      assetSymbol: r.assetSymbol,
      assetDecimals: r.assetDecimals,
      amount: r.amount,
      marketDecimals: await d.store.withdrawals.marketDecimals(tx, r.assetSymbol),
      limits: org.limits,
      now: at,
      destination: dest ?? null,
    });
    const w: WithdrawalRow = {
      id,
      organizationId: org.id,
      state: 'pending_approval',
      assetSymbol: r.assetSymbol,
      assetDecimals: r.assetDecimals,
      amount: r.amount,
      destinationId: r.destinationId,
      destinationSummary: dest!.summary,
      reason: null,
      payoutReference: null,
      txid: null,
      createdAt: at,
      updatedAt: at,
    };
    // Keys claimed before the work (not by it) keep their answers with the request's own INSERT.
    const claimedBefore = answers.answers.filter((a) => !a.claimInWork);
    await d.store.holds.take(
      tx,
      d.ids,
      at,
      { organizationId: org.id, assetSymbol: r.assetSymbol, amount: r.amount, kind: 'withdrawal_hold', referenceId: id },
      async (holdId) => {
        const kept = await d.store.withdrawals.insert(tx, { ...w, holdId }, claimedBefore);
        // A claim whose lease lapsed and that another request took over keeps this answer not: the request is
        // that one's now, and this work rolls back rather than do the key's work twice.
        if (kept.length < claimedBefore.length) throw new Error('idempotency: the claim of this request was taken over by another');
        if (claimedBefore.length > 0) answers.answered(kept);
      },
    );
    return w;
  });
  answers.tell();
  if (w) d.tally?.transition('withdrawal', w.state);
  return w;
}

/**
 * The request's destination (undefined: none). When its key is to be claimed in the work, the statement
 * that reads the destination claims it: null when it could not be, and the request writes nothing.
 */
async function destinationClaimingKeys(
  d: UseCaseDeps,
  tx: Tx,
  destinationId: string,
  answers: AnswersOfWork,
): Promise<DestinationForRequest | undefined | null> {
  const inWork = answers.answers.filter((a) => a.claimInWork);
  if (inWork.length === 0) return d.store.withdrawals.destinationFor(tx, destinationId);
  const { claims, destination } = await d.store.withdrawals.claimingDestination(tx, destinationId, inWork);
  answers.answered(claims);
  return claims.every((c) => c.kept) ? destination : null;
}
