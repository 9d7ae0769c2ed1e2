import { DomainError } from '../errors.ts';
import { fourEyesRule, matchRule, type CountingRole, type OperatorRequest, type OperatorRule } from './operator-rules.ts';

/**
 * Who approves an order or a withdrawal at the operator (docs/controls.md, "The operator's policy"): a
 * staff person (one approval counts per person), or the bootstrap token (`person: null`), which may
 * approve only what no rule covers.
 */
export interface Approver {
  /** The audit trail's actor: `staff:<id>` or `bootstrap`. */
  actor: string;
  person: { id: string; name: string; email: string; role: string } | null;
}

export interface Approval {
  staffId: string;
  name: string;
  at: Date;
}

export interface ApprovalState {
  approvals: Approval[];
  approvalsRequired: number;
}

/**
 * How many approvals a request needs and whose count: the first matching rule of the operator's policy,
 * else the asset's four-eyes threshold (the rule `{action, assetSymbol, fromAmountMinor, approvals: 2}`),
 * else one approval by anyone who may decide (`roles: null`, the bootstrap token included), as without a policy.
 */
export interface Requirement {
  required: number;
  roles: readonly CountingRole[] | null;
}

export function requirementOf(rules: readonly OperatorRule[], fourEyesFrom: bigint | null, r: OperatorRequest): Requirement {
  let rule = matchRule(rules, r);
  if (!rule && fourEyesFrom !== null && r.amount >= fourEyesFrom && (r.action === 'order' || r.action === 'withdrawal'))
    rule = fourEyesRule(r.action, r.assetSymbol, fourEyesFrom);
  return rule ? { required: rule.approvals, roles: rule.roles } : { required: 1, roles: null };
}

export type ApprovalSubject = 'order' | 'withdrawal';

/**
 * Decides whether this approval is the deciding one, given the approvals already recorded. Under a rule,
 * refuses the bootstrap token, a person whose role does not count and the same person twice.
 */
export function nextApproval(
  kind: ApprovalSubject,
  need: Requirement,
  recorded: readonly Approval[],
  approver: Approver,
): { record: boolean; decides: boolean } {
  // No rule: one approval decides. A person who approved while a rule applied (since removed) has their
  // approval recorded already: it is not written twice.
  if (need.roles === null)
    return { record: approver.person !== null && !recorded.some((a) => a.staffId === approver.person!.id), decides: true };
  if (!approver.person)
    throw new DomainError(kind === 'order' ? 'orders.approval_needs_person' : 'withdrawals.approval_needs_person', {
      required: String(need.required),
    });
  checkCounts(need.roles, approver.person.role);
  if (recorded.some((a) => a.staffId === approver.person!.id)) {
    throw new DomainError(kind === 'order' ? 'orders.already_approved_by_you' : 'withdrawals.already_approved_by_you');
  }
  return { record: true, decides: recorded.length + 1 >= need.required };
}

/** A person whose role the rule does not name is refused (403), their approval not recorded. */
export function checkCounts(roles: readonly CountingRole[], role: string): void {
  if (!(roles as readonly string[]).includes(role)) throw new DomainError('policies.role_not_counted', { role, roles: roles.join(', ') });
}
