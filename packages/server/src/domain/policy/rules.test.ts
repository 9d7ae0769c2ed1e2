import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DomainError } from '../errors.ts';
import { checkRules, requiredApprovals, type PolicyRule } from './rules.ts';

const rule = (r: Partial<PolicyRule> & Pick<PolicyRule, 'action' | 'approvals'>): PolicyRule => ({
  assetSymbol: null,
  fromAmount: null,
  ...r,
});

test('no rule: nobody else needs to approve', () => {
  assert.equal(requiredApprovals([], { action: 'withdrawal', assetSymbol: 'USD', amount: 10n ** 70n }), 0);
});

test('the first matching rule decides, even when a later one asks for more', () => {
  const rules = [
    rule({ action: 'withdrawal', assetSymbol: 'USD', fromAmount: 1_000_000n, approvals: 2 }),
    rule({ action: 'withdrawal', approvals: 1 }),
  ];
  assert.equal(requiredApprovals(rules, { action: 'withdrawal', assetSymbol: 'USD', amount: 1_000_000n }), 2);
  assert.equal(requiredApprovals(rules, { action: 'withdrawal', assetSymbol: 'USD', amount: 999_999n }), 1);
  assert.equal(requiredApprovals(rules, { action: 'order', assetSymbol: 'USD', amount: 5_000_000n }), 0);
});

test('a rule with an asset matches only that asset', () => {
  const rules = [rule({ action: 'order', assetSymbol: 'BTC', approvals: 3 })];
  assert.equal(requiredApprovals(rules, { action: 'order', assetSymbol: 'BTC', amount: 1n }), 3);
  assert.equal(requiredApprovals(rules, { action: 'order', assetSymbol: 'ETH', amount: 1n }), 0);
  assert.equal(
    requiredApprovals([rule({ action: 'destination', assetSymbol: 'USD', approvals: 1 })], { action: 'destination', assetSymbol: 'USD' }),
    1,
  );
});

test('the threshold matches at or above it, exactly, beyond 2^53 and 2^256', () => {
  const big = 2n ** 256n;
  const rules = [rule({ action: 'withdrawal', fromAmount: big, approvals: 1 })];
  assert.equal(requiredApprovals(rules, { action: 'withdrawal', assetSymbol: 'ETH', amount: big }), 1);
  assert.equal(requiredApprovals(rules, { action: 'withdrawal', assetSymbol: 'ETH', amount: big - 1n }), 0);
  const near = 9_007_199_254_740_993n; // 2^53 + 1: a float would read it as 2^53
  const r2 = [rule({ action: 'withdrawal', fromAmount: near, approvals: 1 })];
  assert.equal(requiredApprovals(r2, { action: 'withdrawal', amount: near - 1n }), 0);
  assert.equal(requiredApprovals(r2, { action: 'withdrawal', amount: near }), 1);
});

const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return `${e.code} ${JSON.stringify(e.params)}`;
    throw e;
  }
  return 'ok';
};

test('rules as sent: amounts exact, and each kind of bad rule has its code', () => {
  assert.deepEqual(checkRules([{ action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '1000000', approvals: 1 }]), [
    { action: 'withdrawal', assetSymbol: 'USD', fromAmount: 1_000_000n, approvals: 1 },
  ]);
  assert.equal(
    codeOf(() => checkRules([{ action: 'transfer', approvals: 1 }])),
    'policy.unknown_action {"index":"1","action":"transfer"}',
  );
  assert.equal(
    codeOf(() => checkRules([{ action: 'order', approvals: 6 }])),
    'policy.approvals_out_of_range {"index":"1","approvals":"6"}',
  );
  assert.equal(
    codeOf(() => checkRules([{ action: 'order', approvals: -1 }])),
    'policy.approvals_out_of_range {"index":"1","approvals":"-1"}',
  );
  assert.equal(
    codeOf(() => checkRules([{ action: 'order', fromAmountMinor: '1.5', approvals: 1 }])),
    'request.invalid_amount {"field":"rules[0].fromAmountMinor"}',
  );
  assert.equal(
    codeOf(() => checkRules([{ action: 'destination', fromAmountMinor: '10', approvals: 1 }])),
    'policy.field_not_applicable {"index":"1","field":"fromAmountMinor","action":"destination"}',
  );
  // Any withdrawal first: a later withdrawal rule, whatever its asset or amount, never matches.
  assert.equal(
    codeOf(() =>
      checkRules([
        { action: 'withdrawal', approvals: 1 },
        { action: 'withdrawal', assetSymbol: 'USD', fromAmountMinor: '5', approvals: 2 },
      ]),
    ),
    'policy.rule_never_matches {"index":"2","by":"1"}',
  );
  // A higher threshold first leaves the lower one the amounts below it: both stand.
  assert.equal(
    checkRules([
      { action: 'withdrawal', fromAmountMinor: '100', approvals: 2 },
      { action: 'withdrawal', fromAmountMinor: '10', approvals: 1 },
    ]).length,
    2,
  );
  assert.equal(
    codeOf(() =>
      checkRules([
        { action: 'withdrawal', fromAmountMinor: '10', approvals: 1 },
        { action: 'withdrawal', fromAmountMinor: '100', approvals: 2 },
      ]),
    ),
    'policy.rule_never_matches {"index":"2","by":"1"}',
  );
});
