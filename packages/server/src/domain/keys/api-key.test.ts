import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateApiKey, hashSecret, parseApiKey, sameHash } from './api-key.ts';
import { effectivePermissions } from './permissions.ts';
import { ipAllowed } from './ip-allow.ts';

test('keys have the form <tag>_live_<prefix>.<secret> and parse back', () => {
  const g = generateApiKey('cmb');
  assert.match(g.key, /^cmb_live_[a-z0-9]{12}\.[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(parseApiKey(g.key, 'cmb'), { prefix: g.prefix, secret: g.secret });
  assert.equal(parseApiKey(g.key, 'xyz'), null);
  assert.equal(parseApiKey('cmb_live_abc', 'cmb'), null);
  assert.equal(parseApiKey(undefined, 'cmb'), null);
});

test('secrets are compared as keyed hashes', () => {
  const h1 = hashSecret('server-secret', 's1');
  assert.equal(h1.length, 64);
  assert.ok(sameHash(h1, hashSecret('server-secret', 's1')));
  assert.ok(!sameHash(h1, hashSecret('server-secret', 's2')));
  assert.ok(!sameHash(h1, hashSecret('other-secret', 's1')));
});

test('effective permissions are the intersection of scopes and role', () => {
  assert.deepEqual(effectivePermissions(['portal:read', 'portal:trade'], ['portal:trade', 'portal:withdraw']), ['portal:trade']);
  assert.deepEqual(effectivePermissions(['portal:read'], ['portal:api_keys']), []);
});

test('allowed IPs: empty allows all; IPv4-mapped IPv6 matches IPv4', () => {
  assert.ok(ipAllowed(null, '1.2.3.4'));
  assert.ok(ipAllowed(['127.0.0.1'], '::ffff:127.0.0.1'));
  assert.ok(!ipAllowed(['10.0.0.1'], '127.0.0.1'));
});
