import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeRows } from '../src/features/audit/change.ts';

const decimals = (s: string) => (({ BTC: 8, USD: 2 }) as Record<string, number>)[s] ?? null;

test("an audit change reads field by field, amounts in their asset's decimals, the changed fields marked", () => {
  const rows = changeRows(
    { state: 'pending_approval', assetSymbol: 'USD', amountMinor: 25000n, reason: null },
    {
      state: 'approved',
      assetSymbol: 'USD',
      amountMinor: 25000n,
      reason: null,
      approvals: [{ staffId: 'stf_1', name: 'Ada Admin', at: 'x' }],
    },
    'withdrawal',
    'wdr_1',
    decimals,
  );
  assert.deepEqual(
    rows.map((r) => [r.field, r.before, r.after, r.changed]),
    [
      ['state', 'pending_approval', 'approved', true],
      ['assetSymbol', 'USD', 'USD', false],
      ['amountMinor', '250.00 USD', '250.00 USD', false],
      ['reason', '—', '—', false],
      ['approvals', '', 'Ada Admin', true],
    ],
  );
});

test("an order's base and quote amounts, a pair's terms from its subject, and an unknown asset left in minor units", () => {
  const order = changeRows(
    null,
    { baseSymbol: 'BTC', amountBaseMinor: '1000000', quoteSymbol: 'USD', amountQuoteMinor: '59700' },
    'order',
    'ord_1',
    decimals,
  );
  assert.deepEqual(
    order.map((r) => r.after),
    ['BTC', '0.01000000 BTC', 'USD', '597.00 USD'],
  );
  const pair = changeRows(null, { midRate: '60000', fixedFeeQuoteMinor: '0', minBaseMinor: '10000' }, 'pair', 'BTC/USD', decimals);
  assert.deepEqual(
    pair.map((r) => r.after),
    ['60000', '0.00 USD', '0.00010000 BTC'],
  );
  assert.deepEqual(
    changeRows(null, { assetSymbol: 'XYZ', amountMinor: '5' }, 'deposit', 'dep_1', decimals).map((r) => r.after),
    ['XYZ', '5 minor units'],
  );
});
