import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBalanced } from '../ledger/entry.ts';
import { expiresInSeconds } from './declaration.ts';
import { depositAttributionEntries, depositCreditEntries, depositUnattributedEntry } from './entries.ts';
import { newReference, REFERENCE_ALPHABET } from './reference.ts';
import { walletAddressFor } from './wallet.ts';

test('a reference is 8 dictatable characters in two groups', () => {
  for (let i = 0; i < 200; i++) {
    const r = newReference();
    assert.match(r, /^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
    for (const c of r.replace('-', '')) assert.ok(REFERENCE_ALPHABET.includes(c), `${c} in ${r}`);
    assert.doesNotMatch(r, /[01ILOU]/);
  }
});

test('expiresInSeconds rounds up and never goes below zero', () => {
  const now = new Date('2026-01-01T00:00:00.000Z');
  assert.equal(expiresInSeconds(new Date('2026-01-01T01:00:00.000Z'), now), 3600);
  assert.equal(expiresInSeconds(new Date('2026-01-01T00:00:00.400Z'), now), 1);
  assert.equal(expiresInSeconds(now, now), 0);
  assert.equal(expiresInSeconds(new Date('2025-12-31T23:59:00.000Z'), now), 0);
});

test("deposit entries balance, and the organization's touch only its own accounts and the platform's clearing", () => {
  const r = { organizationId: 'org_1', assetSymbol: 'USD', amount: 12345n, depositId: 'dep_1' };
  const rows = (e: { postings: Array<{ ownerId: string; kind: string; amount: bigint }> }) =>
    e.postings.map((p) => [p.ownerId, p.kind, p.amount]);
  for (const e of [...depositCreditEntries(r), depositUnattributedEntry(r), ...depositAttributionEntries(r)]) assertBalanced(e);
  const [credit, creditClearing] = depositCreditEntries(r);
  assert.deepEqual(rows(credit), [
    ['org_1', 'available', 12345n],
    ['platform', 'clearing', -12345n],
  ]);
  assert.equal(creditClearing.organizationId, null);
  assert.deepEqual(rows(creditClearing), [
    ['platform', 'clearing', 12345n],
    ['platform', 'market', -12345n],
  ]);
  assert.deepEqual(rows(depositUnattributedEntry(r)), [
    ['platform', 'unattributed', 12345n],
    ['platform', 'market', -12345n],
  ]);
  const [attribution, attributionClearing] = depositAttributionEntries(r);
  assert.deepEqual(rows(attribution), [
    ['platform', 'clearing', -12345n],
    ['org_1', 'available', 12345n],
  ]);
  assert.deepEqual(rows(attributionClearing), [
    ['platform', 'clearing', 12345n],
    ['platform', 'unattributed', -12345n],
  ]);
});

test('sandbox addresses are marked as not real; production refuses a sandbox address', () => {
  assert.equal(walletAddressFor('sandbox', 'bc1qxyz'), 'sandbox-bc1qxyz');
  assert.equal(walletAddressFor('sandbox', 'sandbox-bc1qxyz'), 'sandbox-bc1qxyz');
  assert.equal(walletAddressFor('production', 'bc1qxyz'), 'bc1qxyz');
  assert.throws(() => walletAddressFor('production', 'sandbox-bc1qxyz'), /request.validation_failed/);
});
