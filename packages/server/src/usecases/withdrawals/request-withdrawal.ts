import type { Organization } from '../../domain/organizations/organization.ts';
import { checkWithdrawal } from '../../domain/withdrawals/withdrawal.ts';
import type { OrganizationApprovals } from '../../domain/policy/approvals.ts';
import { openApprovals } from '../controls/open-approvals.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { WithdrawalRow } from '../repositories.ts';

export interface WithdrawalRequest {
  destinationId: string;
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
}

/**
 * The organization asks for an amount to leave to one of its destinations: pending_approval, the amount
 * held until a person at the operator decides. The hold is taken in the same transaction that writes the
 * request (docs/design/money-and-states.md). Refused while not reconciled: money does not leave while the books and the market
 * disagree. Its event (withdrawal.created) is written by the table's trigger. When the organization's
 * policy asks its members to approve it, it waits for them first (docs/controls.md), its hold taken all
 * the same; `initiatorMemberId` is the member who asks, or who issued the API key that asks.
 */
export async function requestWithdrawal(
  d: UseCaseDeps,
  org: Organization,
  r: WithdrawalRequest,
  initiatorMemberId = '',
): Promise<WithdrawalRow & { approvals: OrganizationApprovals | null }> {
  const at = d.clock.now();
  const id = d.ids.next('wdr');
  const w = await d.store.uow.run(async (tx) => {
    await d.store.platform.assertReconciled(tx);
    const dest = await d.store.withdrawals.destinationFor(tx, r.destinationId);
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
    await d.store.holds.take(
      tx,
      d.ids,
      at,
      { organizationId: org.id, assetSymbol: r.assetSymbol, amount: r.amount, kind: 'withdrawal_hold', referenceId: id },
      (holdId) => d.store.withdrawals.insert(tx, { ...w, holdId }),
    );
    const approvals = await openApprovals(d, tx, at, {
      kind: 'withdrawals',
      action: 'withdrawal',
      requestId: id,
      organizationId: org.id,
      initiatorMemberId,
      assetSymbol: r.assetSymbol,
      amount: r.amount,
    });
    return { ...w, approvals };
  });
  d.tally?.transition('withdrawal', w.state);
  return w;
}
