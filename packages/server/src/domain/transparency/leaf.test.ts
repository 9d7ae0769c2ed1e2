import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalLeaf } from './leaf.ts';

test('the canonical leaf: keys in order, no spaces, accounts named, postings in stored order', () => {
  const leaf = canonicalLeaf({
    index: 12,
    entryId: 'je_01',
    createdAt: new Date('2026-01-02T03:04:05.006Z'),
    kind: 'order_settlement',
    postings: [
      { ownerId: 'org_9', accountKind: 'held', assetSymbol: 'USD', amount: -123n },
      { ownerId: 'platform', accountKind: 'market', assetSymbol: 'USD', amount: 123n },
      { ownerId: 'org_9', accountKind: 'available', assetSymbol: 'BTC', amount: 123456789012345678901234567890n },
      { ownerId: 'platform', accountKind: 'market', assetSymbol: 'BTC', amount: -123456789012345678901234567890n },
    ],
  });
  assert.equal(
    leaf,
    '{"index":12,"entryId":"je_01","createdAt":"2026-01-02T03:04:05.006Z","kind":"order_settlement","postings":[' +
      '{"account":"org:org_9:held","assetSymbol":"USD","amountMinor":"-123"},' +
      '{"account":"platform:market","assetSymbol":"USD","amountMinor":"123"},' +
      '{"account":"org:org_9:available","assetSymbol":"BTC","amountMinor":"123456789012345678901234567890"},' +
      '{"account":"platform:market","assetSymbol":"BTC","amountMinor":"-123456789012345678901234567890"}]}',
  );
  // It is JSON that parses back to the same keys in the same order.
  assert.deepEqual(Object.keys(JSON.parse(leaf) as object), ['index', 'entryId', 'createdAt', 'kind', 'postings']);
});

test('strings are escaped as JSON.stringify escapes them', () => {
  const leaf = canonicalLeaf({ index: 0, entryId: 'a"b\\c\u2028', createdAt: new Date(0), kind: 'k\n', postings: [] });
  assert.equal(
    leaf,
    `{"index":0,"entryId":${JSON.stringify('a"b\\c\u2028')},"createdAt":"1970-01-01T00:00:00.000Z","kind":"k\\n","postings":[]}`,
  );
});
