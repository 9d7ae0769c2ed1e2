import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomIds } from '../ids.ts';
import { QuoteIds } from './quote-id.ts';

const ids = new QuoteIds('a-secret-of-at-least-32-characters!!', randomIds);
const at = new Date('2026-11-22T10:00:00.000Z');

test('a quote id tells its own organization that it expired, and only after its expiry', () => {
  const id = ids.next('org_a', at);
  assert.ok(id.startsWith('quo_') && id.length <= 64, id);
  assert.equal(ids.expiredFor('org_a', id, new Date(at.getTime() - 1)), false);
  assert.equal(ids.expiredFor('org_a', id, at), true);
  assert.equal(ids.expiredFor('org_a', id, new Date(at.getTime() + 86_400_000 * 30)), true);
});

test('another organization, a changed id, another secret or a foreign shape learn nothing', () => {
  const id = ids.next('org_a', at);
  const later = new Date(at.getTime() + 1000);
  assert.equal(ids.expiredFor('org_b', id, later), false);
  const [head, exp, tag] = [id.slice(0, id.lastIndexOf('_', id.lastIndexOf('_') - 1)), id.split('_').at(-2)!, id.split('_').at(-1)!];
  assert.equal(ids.expiredFor('org_a', `${head}_${(Number.parseInt(exp, 36) + 1).toString(36)}_${tag}`, later), false);
  assert.equal(new QuoteIds('another-secret-of-at-least-32-chars!', randomIds).expiredFor('org_a', id, later), false);
  for (const bad of ['quo_nope', '', `${id}0`, id.toUpperCase()]) assert.equal(ids.expiredFor('org_a', bad, later), false);
});
