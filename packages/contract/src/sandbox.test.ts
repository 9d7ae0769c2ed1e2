import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxOutcome } from './sandbox.ts';

test('the last four digits in minimum units decide; anything else, and shorter amounts, wait for a person', () => {
  assert.equal(sandboxOutcome(1111n), 'complete');
  assert.equal(sandboxOutcome(1_001_111n), 'complete');
  assert.equal(sandboxOutcome(2222n), 'reject');
  assert.equal(sandboxOutcome(10n ** 70n + 3333n), 'fail');
  for (const a of [0n, 111n, 11_110n, 1_112n, 21_111_0n, 4444n, -1111n]) assert.equal(sandboxOutcome(a), null, String(a));
});
