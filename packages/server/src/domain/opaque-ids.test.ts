import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpaqueIds } from './opaque-ids.ts';

test('ids are stable, reversible, of one length, and say nothing of their neighbours', () => {
  const o = new OpaqueIds('a secret of the service 0123456789');
  const ids = ['1', '2', '3', '58', '62', '9223372036854775807'].map((n) => o.encode('evt', n));
  for (const id of ids) assert.match(id, /^evt_[a-z2-7]{26}$/);
  assert.deepEqual(
    ids.map((id) => o.decode('evt', id)),
    ['1', '2', '3', '58', '62', '9223372036854775807'],
  );
  assert.equal(o.encode('evt', '58'), new OpaqueIds('a secret of the service 0123456789').encode('evt', '58'), 'the same after a restart');
  assert.notEqual(o.encode('evt', '58'), new OpaqueIds('another secret 0123456789abcdef').encode('evt', '58'));
  assert.notEqual(o.encode('pst', '58').slice(4), o.encode('evt', '58').slice(4), 'each prefix its own key');
  for (const bad of [
    'evt_1',
    'evt_58',
    'evt_aaaaaaaaaaaaaaaaaaaaaaaaaa',
    `pst_${ids[0]!.slice(4)}`,
    `${ids[0]}x`,
    'evt_99999999999999999999999999',
  ])
    assert.equal(o.decode('evt', bad), null, bad);
});
