import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePgHosts } from './pg-hosts.ts';
import { isStoreUnavailable, StoreUnavailableError } from './store-unavailable.ts';

test('a multi-host DATABASE_URL becomes one URL per host, in order, read-write only', () => {
  const h = parsePgHosts('postgres://u:p%40ss@h1:5432,h2:5433/db?target_session_attrs=read-write&application_name=x');
  assert.deepEqual(h.urls, ['postgres://u:p%40ss@h1:5432/db?application_name=x', 'postgres://u:p%40ss@h2:5433/db?application_name=x']);
  assert.deepEqual(h.hosts, ['h1:5432', 'h2:5433']);
  assert.equal(h.readWrite, true);
});

test('one host without target_session_attrs is used as it is; sslmode=prefer falls back to plain text as libpq does', () => {
  assert.deepEqual(parsePgHosts('postgres://postgres@127.0.0.1:5432/test'), {
    urls: ['postgres://postgres@127.0.0.1:5432/test'],
    hosts: ['127.0.0.1:5432'],
    readWrite: false,
  });
  const h = parsePgHosts('postgresql://a@127.0.0.1:6001,127.0.0.1:6002/cambio?target_session_attrs=read-write&sslmode=prefer');
  assert.deepEqual(h.urls, ['postgresql://a@127.0.0.1:6001/cambio', 'postgresql://a@127.0.0.1:6002/cambio']);
  assert.equal(parsePgHosts('postgres://a@h/db?target_session_attrs=primary').readWrite, true);
});

test('connection-class failures are "store unavailable"; a constraint or a data error is not', () => {
  for (const e of [
    new StoreUnavailableError('x'),
    Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('x'), { code: '08006' }),
    Object.assign(new Error('x'), { code: '57P01' }),
    Object.assign(new Error('x'), { code: '25006' }),
    new Error('Connection terminated unexpectedly'),
    new Error('wrapped', { cause: Object.assign(new Error('x'), { code: 'ECONNRESET' }) }),
  ])
    assert.equal(isStoreUnavailable(e), true, e.message);
  for (const e of [
    Object.assign(new Error('dup'), { code: '23505' }),
    Object.assign(new Error('overflow'), { code: '22003' }),
    new Error('boom'),
    null,
    'text',
  ]) {
    assert.equal(isStoreUnavailable(e), false);
  }
});
