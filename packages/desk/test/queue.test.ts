import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OperatorOrder, OperatorWithdrawal } from '@cambio/sdk';
import { fourEyes, oldestFirst } from '../src/features/approvals/queue.ts';

const at = (id: string, createdAt: string) => ({ id, createdAt }) as unknown;

test('orders and withdrawals in one queue, what waits longest first, ties by id', () => {
  const q = oldestFirst(
    [at('o2', '2026-11-23T10:05:00Z'), at('o1', '2026-11-23T10:00:00Z')] as OperatorOrder[],
    [at('w1', '2026-11-23T10:02:00Z'), at('w0', '2026-11-23T10:05:00Z')] as OperatorWithdrawal[],
  );
  assert.deepEqual(
    q.map((i) => `${i.kind}:${i.record.id}`),
    ['order:o1', 'withdrawal:w1', 'order:o2', 'withdrawal:w0'],
  );
});

test('the four-eyes state names who approved and whether it was me', () => {
  assert.deepEqual(fourEyes({}, 's1'), { required: 1, given: [], text: 'No approval yet (1 needed)', mine: false });
  const one = fourEyes({ approvalsRequired: 2, approvals: [{ staffId: 's1', name: 'Ana Ruiz', at: 'x' }] }, 's1');
  assert.equal(one.text, '1 of 2 approvals, by Ana Ruiz');
  assert.equal(one.mine, true);
  assert.equal(fourEyes({ approvalsRequired: 2, approvals: [{ staffId: 's1', name: 'Ana Ruiz', at: 'x' }] }, 's2').mine, false);
});
