import { POLICY_ACTIONS, type PolicyAction } from '@cambio/contract';
import { DomainError } from '../errors.ts';
import { toMinor } from '../money.ts';

/**
 * The organization's policy (docs/controls.md): ordered rules, the first that matches a request decides
 * how many members other than its initiator must approve it. No rule matching: none, as without a policy.
 */
export interface PolicyRule {
  action: PolicyAction;
  /** Only requests in this asset; null: any. */
  assetSymbol: string | null;
  /** At or above this amount (an order's base amount, a withdrawal's amount); null: any amount. */
  fromAmount: bigint | null;
  approvals: number;
}

/** What a rule looks at: a destination has an asset and no amount; a policy change has neither. */
export interface PolicyRequest {
  action: PolicyAction;
  assetSymbol?: string;
  amount?: bigint;
}

export const MAX_APPROVALS = 5;

/** How many members other than the initiator must approve `r`: the first matching rule's count, else 0. */
export function requiredApprovals(rules: readonly PolicyRule[], r: PolicyRequest): number {
  for (const rule of rules) if (matches(rule, r)) return rule.approvals;
  return 0;
}

function matches(rule: PolicyRule, r: PolicyRequest): boolean {
  if (rule.action !== r.action) return false;
  if (rule.assetSymbol !== null && rule.assetSymbol !== r.assetSymbol) return false;
  if (rule.fromAmount !== null && (r.amount === undefined || r.amount < rule.fromAmount)) return false;
  return true;
}

/** Whether `earlier` takes every request `later` would: `later` can then never match. */
function shadows(earlier: PolicyRule, later: PolicyRule): boolean {
  if (earlier.action !== later.action) return false;
  if (earlier.assetSymbol !== null && earlier.assetSymbol !== later.assetSymbol) return false;
  if (earlier.fromAmount !== null && (later.fromAmount === null || later.fromAmount < earlier.fromAmount)) return false;
  return true;
}

/** A rule as sent (the wire's shape, its amount a digit string or an integer). */
export interface RuleInput {
  action: string;
  assetSymbol?: string | null | undefined;
  fromAmountMinor?: unknown;
  approvals: number;
}

/**
 * Checks rules as sent and answers them in the domain's terms; a rule that is not valid, or that an
 * earlier one leaves nothing to match, is refused with a code of its own (rules are counted from 1).
 */
export function checkRules(input: readonly RuleInput[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  input.forEach((x, i) => {
    const index = String(i + 1);
    if (!(POLICY_ACTIONS as readonly string[]).includes(x.action))
      throw new DomainError('policy.unknown_action', { index, action: x.action });
    const action = x.action as PolicyAction;
    if (!Number.isInteger(x.approvals) || x.approvals < 0 || x.approvals > MAX_APPROVALS)
      throw new DomainError('policy.approvals_out_of_range', { index, approvals: String(x.approvals) });
    let fromAmount: bigint | null = null;
    if (x.fromAmountMinor !== undefined && x.fromAmountMinor !== null) {
      fromAmount = toMinor(x.fromAmountMinor);
      if (fromAmount === null) throw new DomainError('request.invalid_amount', { field: `rules[${i}].fromAmountMinor` });
      if (action === 'destination' || action === 'policy')
        throw new DomainError('policy.field_not_applicable', { index, field: 'fromAmountMinor', action });
    }
    const assetSymbol = x.assetSymbol ?? null;
    if (assetSymbol !== null && action === 'policy')
      throw new DomainError('policy.field_not_applicable', { index, field: 'assetSymbol', action });
    const rule = { action, assetSymbol, fromAmount, approvals: x.approvals };
    const by = rules.findIndex((earlier) => shadows(earlier, rule));
    if (by >= 0) throw new DomainError('policy.rule_never_matches', { index, by: String(by + 1) });
    rules.push(rule);
  });
  return rules;
}
