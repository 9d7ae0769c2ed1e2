import { DomainError } from '../errors.ts';
import { toMinor } from '../money.ts';

/**
 * The operator's policy (docs/controls.md, "The operator's policy"): ordered rules, the first that matches
 * a request decides how many different staff persons, and of which roles, must approve it. The bootstrap
 * token never counts as one of them.
 */
export const OPERATOR_ACTIONS = ['order', 'withdrawal', 'adjustment', 'attribution'] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

/** The roles whose approvals may count; an auditor never decides anything. */
export const COUNTING_ROLES = ['viewer', 'approver', 'admin'] as const;
export type CountingRole = (typeof COUNTING_ROLES)[number];
export const DEFAULT_ROLES: readonly CountingRole[] = ['approver', 'admin'];
export const MAX_OPERATOR_APPROVALS = 5;

export interface OperatorRule {
  action: OperatorAction;
  /** Only requests in this asset; null: any. */
  assetSymbol: string | null;
  /** Only requests of (or, an attribution, to) this organization; null: any. */
  organizationId: string | null;
  /** At or above this amount (an adjustment by its size, either sign); null: any amount. */
  fromAmount: bigint | null;
  approvals: number;
  roles: readonly CountingRole[];
}

export interface OperatorRequest {
  action: OperatorAction;
  assetSymbol: string;
  organizationId: string;
  amount: bigint;
}

const abs = (x: bigint) => (x < 0n ? -x : x);

/** The first rule that matches `r`, or null (then the per-asset four-eyes threshold, or one approval, applies). */
export function matchRule(rules: readonly OperatorRule[], r: OperatorRequest): OperatorRule | null {
  for (const rule of rules) {
    if (rule.action !== r.action) continue;
    if (rule.assetSymbol !== null && rule.assetSymbol !== r.assetSymbol) continue;
    if (rule.organizationId !== null && rule.organizationId !== r.organizationId) continue;
    if (rule.fromAmount !== null && abs(r.amount) < rule.fromAmount) continue;
    return rule;
  }
  return null;
}

/** The four-eyes threshold of an asset (PUT /operator/v1/policies/approvals/:asset) as the rule it stands for. */
export const fourEyesRule = (action: 'order' | 'withdrawal', assetSymbol: string, fromAmount: bigint): OperatorRule => ({
  action,
  assetSymbol,
  organizationId: null,
  fromAmount,
  approvals: 2,
  roles: DEFAULT_ROLES,
});

/** Whether `earlier` takes every request `later` would: `later` can then never match. */
function shadows(earlier: OperatorRule, later: OperatorRule): boolean {
  if (earlier.action !== later.action) return false;
  if (earlier.assetSymbol !== null && earlier.assetSymbol !== later.assetSymbol) return false;
  if (earlier.organizationId !== null && earlier.organizationId !== later.organizationId) return false;
  if (earlier.fromAmount !== null && (later.fromAmount === null || later.fromAmount < earlier.fromAmount)) return false;
  return true;
}

/** A rule as sent (the wire's shape). */
export interface OperatorRuleInput {
  action: string;
  assetSymbol?: string | null | undefined;
  organizationId?: string | null | undefined;
  fromAmountMinor?: unknown;
  approvals: number;
  roles?: readonly string[] | null | undefined;
}

/** Checks rules as sent (counted from 1 in the codes' params) and answers them in the domain's terms. */
export function checkOperatorRules(input: readonly OperatorRuleInput[]): OperatorRule[] {
  const rules: OperatorRule[] = [];
  input.forEach((x, i) => {
    const index = String(i + 1);
    if (!(OPERATOR_ACTIONS as readonly string[]).includes(x.action))
      throw new DomainError('policies.unknown_action', { index, action: x.action });
    if (!Number.isInteger(x.approvals) || x.approvals < 1 || x.approvals > MAX_OPERATOR_APPROVALS)
      throw new DomainError('policies.approvals_out_of_range', { index, approvals: String(x.approvals) });
    let fromAmount: bigint | null = null;
    if (x.fromAmountMinor !== undefined && x.fromAmountMinor !== null) {
      fromAmount = toMinor(x.fromAmountMinor);
      if (fromAmount === null) throw new DomainError('request.invalid_amount', { field: `rules[${i}].fromAmountMinor` });
    }
    let roles: readonly CountingRole[] = DEFAULT_ROLES;
    if (x.roles !== undefined && x.roles !== null) {
      const bad = x.roles.find((r) => !(COUNTING_ROLES as readonly string[]).includes(r));
      if (bad !== undefined || x.roles.length === 0) throw new DomainError('policies.unknown_role', { index, role: bad ?? '' });
      roles = COUNTING_ROLES.filter((r) => x.roles!.includes(r));
    }
    const rule: OperatorRule = {
      action: x.action as OperatorAction,
      assetSymbol: x.assetSymbol ?? null,
      organizationId: x.organizationId ?? null,
      fromAmount,
      approvals: x.approvals,
      roles,
    };
    const by = rules.findIndex((earlier) => shadows(earlier, rule));
    if (by >= 0) throw new DomainError('policies.rule_never_matches', { index, by: String(by + 1) });
    rules.push(rule);
  });
  return rules;
}

/** A draft is published by an admin other than its author; the bootstrap token publishes none. */
export function checkPublisher(draft: { author: string; state: string }, publisher: { actor: string; isPerson: boolean }): void {
  if (draft.state !== 'draft') throw new DomainError('policies.draft_not_open', { state: draft.state });
  if (!publisher.isPerson) throw new DomainError('policies.publish_needs_person');
  if (draft.author === publisher.actor) throw new DomainError('policies.own_draft');
}
