import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Declaration } from '../../domain/deposits/declaration.ts';
import { declarationWire } from './deposits.ts';

test('the wire declaration carries the exact expected amount in minor units and in decimal text', () => {
  const at = new Date('2026-01-01T00:00:00.000Z');
  const d: Declaration = {
    id: 'dcl_1',
    organizationId: 'org_1',
    reference: 'K7QM-3XPA',
    assetSymbol: 'BTC',
    assetDecimals: 8,
    declaredAmount: 150000000n,
    expectedAmount: 150004321n,
    network: 'bitcoin',
    address: 'sandbox-x',
    state: 'open',
    expiresAt: new Date('2026-01-01T00:10:00.000Z'),
    depositId: null,
    createdAt: at,
    updatedAt: at,
  };
  const w = declarationWire(d, new Date('2026-01-01T00:05:00.000Z'));
  assert.equal(w.expectedAmountMinor, '150004321');
  assert.equal(w.expectedAmount, '1.50004321');
  assert.equal(w.declaredAmountMinor, '150000000');
  assert.equal(w.expiresInSeconds, 300);
  assert.equal(w.expiresAt, '2026-01-01T00:10:00.000Z');
});
