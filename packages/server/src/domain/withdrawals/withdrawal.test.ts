import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DomainError } from '../errors.ts';
import { assertBalanced } from '../ledger/entry.ts';
import { checkWithdrawal, withdrawalSettlementEntries } from './withdrawal.ts';

const now = new Date('2026-01-02T00:00:00Z');
const ok = {
  organizationId: 'org_a',
  assetSymbol: 'USD',
  assetDecimals: 2,
  amount: 500n,
  marketDecimals: 2,
  limits: {},
  now,
  destination: { organizationId: 'org_a', assetSymbol: 'USD', cooldownUntil: now, registeredInMarketAt: now },
};
const codeOf = (r: Parameters<typeof checkWithdrawal>[0]) => {
  try {
    checkWithdrawal(r);
    return null;
  } catch (e) {
    return (e as DomainError).code;
  }
};

describe('withdrawal rules', () => {
  test('a request that meets every rule passes', () => assert.equal(codeOf(ok), null));
  test('each rule has its own code', () => {
    assert.equal(codeOf({ ...ok, amount: 0n }), 'request.invalid_amount');
    assert.equal(codeOf({ ...ok, destination: null }), 'withdrawals.destination_not_found');
    assert.equal(codeOf({ ...ok, destination: { ...ok.destination, organizationId: 'org_b' } }), 'withdrawals.destination_not_found');
    assert.equal(codeOf({ ...ok, assetSymbol: 'BTC', marketDecimals: 8, assetDecimals: 8 }), 'withdrawals.asset_mismatch');
    assert.equal(codeOf({ ...ok, assetDecimals: 8 }), 'market.decimals_mismatch');
    assert.equal(codeOf({ ...ok, marketDecimals: null }), 'market.asset_not_listed');
    assert.equal(codeOf({ ...ok, destination: { ...ok.destination, registeredInMarketAt: null } }), 'withdrawals.destination_not_usable');
    assert.equal(
      codeOf({ ...ok, destination: { ...ok.destination, cooldownUntil: new Date(now.getTime() + 1) } }),
      'withdrawals.destination_not_usable',
    );
  });
  test('the limit caps a single withdrawal of that asset only', () => {
    assert.equal(codeOf({ ...ok, limits: { USD: { maxWithdrawalMinor: 500n } } }), null);
    assert.equal(codeOf({ ...ok, limits: { USD: { maxWithdrawalMinor: 499n } } }), 'withdrawals.limit_exceeded');
    assert.equal(codeOf({ ...ok, limits: { BTC: { maxWithdrawalMinor: 1n }, USD: { maxOrderMinor: 1n } } }), null);
  });
  test("the settlement takes the amount out of held and out of the platform's holding at the market", () => {
    const [e, platform] = withdrawalSettlementEntries({ organizationId: 'org_a', assetSymbol: 'USD', amount: 500n, referenceId: 'wdr_1' });
    assertBalanced(e);
    assertBalanced(platform);
    assert.deepEqual(
      e.postings.map((p) => [p.ownerId, p.kind, p.amount]),
      [
        ['org_a', 'held', -500n],
        ['platform', 'clearing', 500n],
      ],
    );
    assert.equal(platform.organizationId, null);
    assert.deepEqual(
      platform.postings.map((p) => [p.ownerId, p.kind, p.amount]),
      [
        ['platform', 'clearing', -500n],
        ['platform', 'market', 500n],
      ],
    );
  });
});
