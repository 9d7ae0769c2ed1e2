import type { OperatorRule } from '../../domain/approvals/operator-rules.ts';

/** A rule of the operator's policy as the wire and the audit trail show it: amounts as digit strings. */
export const ruleAudit = (r: OperatorRule) => ({
  action: r.action,
  assetSymbol: r.assetSymbol,
  organizationId: r.organizationId,
  fromAmountMinor: r.fromAmount === null ? null : r.fromAmount.toString(),
  approvals: r.approvals,
  roles: [...r.roles],
});
