import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ActionKey, CambioPortal, IdempotencyInProgressError, InsufficientBalanceError, TimeoutError } from '../src/index.ts';
import { fail, ok, routedFetch } from './fake-fetch.ts';

// ActionKey: one Idempotency-Key per action a person takes in an app, the same on a second try after an answer that never came.
const err = {
  lost: () => new TimeoutError({ status: 0, code: 'sdk.timeout', message: 'no response' }),
  refused: () => new InsufficientBalanceError({ status: 422, code: 'ledger.insufficient_balance', message: 'not enough' }),
  running: () => new IdempotencyInProgressError({ status: 409, code: 'idempotency.in_progress', message: 'running' }),
};

test('the same action tried again after a lost answer, or while the first runs, carries the same key; a definite answer ends it', async () => {
  const a = new ActionKey('portal-');
  const keys: string[] = [];
  const attempt = (e?: Error) =>
    a.run({ amountMinor: 100n }, async (k) => {
      keys.push(k);
      if (e) throw e;
      return k;
    });
  await assert.rejects(attempt(err.lost()), TimeoutError);
  await assert.rejects(attempt(err.running()), IdempotencyInProgressError);
  await attempt();
  await assert.rejects(attempt(err.refused()), InsufficientBalanceError);
  await attempt();
  assert.match(keys[0]!, /^portal-[0-9a-f]{32}$/);
  assert.deepEqual([keys[1], keys[2]], [keys[0], keys[0]], 'tried again: the same act');
  assert.notEqual(keys[3], keys[0], 'after it was done, the next action is a new one');
  assert.notEqual(keys[4], keys[3], 'after a refusal (nothing was done), trying again is a new act');
  assert.equal(new Set(keys.slice(2)).size, 3);
});

test('a change in what the action sends is another action: a fresh key', async () => {
  const a = new ActionKey();
  const keys: string[] = [];
  await assert.rejects(
    a.run({ amountMinor: 100n }, async (k) => {
      keys.push(k);
      throw err.lost();
    }),
  );
  await a.run({ amountMinor: 101n }, async (k) => {
    keys.push(k);
  });
  assert.notEqual(keys[0], keys[1]);
  assert.match(keys[0]!, /^[0-9a-f]{32}$/);
});

test("the portal's writes send the key they are given, on /api/v1 and /portal/v1, and a fresh one when none is given", async () => {
  const r = routedFetch({
    'POST /api/v1/orders': [() => ok({ id: 'ord_1' }, {}, 201)],
    'POST /portal/v1/team/members': [() => ok({ member: { id: 'mem_2' }, invitation: { url: 'u', expiresAt: 'x' } }, {}, 201)],
    'POST /portal/v1/password': [() => ok({ changed: true }), () => fail(401, 'auth.sign_in_failed', 'no')],
  });
  const portal = new CambioPortal({ baseUrl: 'https://cambio.test', fetch: r.fetch });
  await portal.orders.create({ quoteId: 'q_1' }, { idempotencyKey: 'portal-order-1' });
  await portal.team.invite({ name: 'B', email: 'b@x.test', permissions: ['portal:read'] }, { idempotencyKey: 'portal-invite-1' });
  await portal.session.changePassword({ currentPassword: 'a', newPassword: 'b' }, { idempotencyKey: 'portal-password-1' });
  await assert.rejects(portal.session.changePassword({ currentPassword: 'a', newPassword: 'b' }));
  const keys = r.calls.map((c) => c.headers['idempotency-key']);
  assert.deepEqual(keys.slice(0, 3), ['portal-order-1', 'portal-invite-1', 'portal-password-1']);
  assert.match(keys[3]!, /^[0-9a-f]{32}$/, 'none given: a fresh one');
});
