import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertBalanced } from '../ledger/entry.ts';
import { expiresInSeconds } from './declaration.ts';
import { depositAttributionEntry, depositCreditEntry, depositUnattributedEntry } from './entries.ts';
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

test('deposit entries balance and move the right accounts', () => {
  const r = { organizationId: 'org_1', assetSymbol: 'USD', amount: 12345n, depositId: 'dep_1' };
  for (const e of [depositCreditEntry(r), depositUnattributedEntry(r), depositAttributionEntry(r)]) assertBalanced(e);
  assert.deepEqual(
    depositCreditEntry(r).postings.map((p) => [p.ownerId, p.kind, p.amount]),
    [
      ['org_1', 'available', 12345n],
      ['platform', 'market', -12345n],
    ],
  );
  assert.deepEqual(
    depositUnattributedEntry(r).postings.map((p) => [p.ownerId, p.kind, p.amount]),
    [
      ['platform', 'unattributed', 12345n],
      ['platform', 'market', -12345n],
    ],
  );
  assert.deepEqual(
    depositAttributionEntry(r).postings.map((p) => [p.ownerId, p.kind, p.amount]),
    [
      ['platform', 'unattributed', -12345n],
      ['org_1', 'available', 12345n],
    ],
  );
});

test('sandbox addresses are marked as not real; production refuses a sandbox address', () => {
  assert.equal(walletAddressFor('sandbox', 'bc1qxyz'), 'sandbox-bc1qxyz');
  assert.equal(walletAddressFor('sandbox', 'sandbox-bc1qxyz'), 'sandbox-bc1qxyz');
  assert.equal(walletAddressFor('production', 'bc1qxyz'), 'bc1qxyz');
  assert.throws(() => walletAddressFor('production', 'sandbox-bc1qxyz'), /request.validation_failed/);
});
