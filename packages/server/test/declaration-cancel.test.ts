import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import {
  available,
  backends,
  eventsSettled,
  listAssets,
  makeHarness,
  seedOrg,
  signedInMember,
  withCookie,
  type Harness,
  type SeededOrg,
} from './harness.ts';

/** The client's own cancel of its open deposit declaration. */
for (const backend of backends()) {
  describe(`declaration cancel [${backend}]`, () => {
    let h: Harness;
    const clock = () => h.clock as ManualClock;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true });
      await listAssets(h, { USD: 2 });
      assert.equal((await h.op('PUT', '/wallets/USD', { network: 'ach', address: 'cancel-usd' })).status, 200);
    });
    after(async () => h?.close());

    const declare = async (o: SeededOrg, amount: string) => {
      const r = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'USD',
        assetDecimals: 2,
        declaredAmountMinor: amount,
      });
      assert.equal(r.status, 201, r.raw);
      return r.body.data as { id: string; expectedAmountMinor: string; state: string };
    };

    test('an open declaration is cancelled: no longer open, stops matching, a new one can be made; a second cancel answers the same', async () => {
      const o = await seedOrg(h);
      const other = await seedOrg(h);
      const d = await declare(o, '10000');
      const foreign = await h.call(other.key, 'POST', `/deposits/declarations/${d.id}/cancel`);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'deposits.declaration_not_found']);
      const r = await h.call(o.key, 'POST', `/deposits/declarations/${d.id}/cancel`);
      assert.equal(r.status, 200, r.raw);
      assert.deepEqual([r.body.data.id, r.body.data.state, r.body.data.expectedAmountMinor], [d.id, 'cancelled', d.expectedAmountMinor]);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      const again = await h.call(o.key, 'POST', `/deposits/declarations/${d.id}/cancel`);
      assert.deepEqual([again.status, again.body.data.state], [200, 'cancelled']);
      // A transfer of the exact amount that still arrives waits unattributed: nothing is credited.
      const arrival = await h.op('POST', '/deposits', {
        assetSymbol: 'USD',
        network: 'ach',
        amountMinor: d.expectedAmountMinor,
        txid: `late-${d.id}`,
      });
      assert.deepEqual([arrival.status, arrival.body.data.state], [201, 'unattributed']);
      assert.equal(await available(h, o.key, 'USD'), 0n);
      const next = await declare(o, '10000');
      assert.notEqual(next.expectedAmountMinor, d.expectedAmountMinor, 'the cancelled amount stays out of new tails');
      await eventsSettled(h, o.orgId);
      const events = (await h.call(o.key, 'GET', '/events')).body.data as Array<{ type: string; data: { id: string; state: string } }>;
      assert.deepEqual(
        events.filter((e) => e.data.id === d.id).map((e) => [e.type, e.data.state]),
        [
          ['declaration.created', 'open'],
          ['declaration.cancelled', 'cancelled'],
        ],
      );
      const trail = (await h.op('GET', `/audit?subjectId=${d.id}`)).body.data.map(
        (x: { actor: string; action: string }) => `${x.actor} ${x.action}`,
      );
      assert.deepEqual(trail, [`key:${o.keyId} declaration.cancel`]);
    });

    test("a matched or expired declaration is 409 in the person's language; portal:deposit is needed; a member's session cancels too", async () => {
      const o = await seedOrg(h);
      const matched = await declare(o, '20000');
      assert.equal(
        (
          await h.op('POST', '/deposits', {
            assetSymbol: 'USD',
            network: 'ach',
            amountMinor: matched.expectedAmountMinor,
            txid: `m-${matched.id}`,
          })
        ).body.data.state,
        'credited',
      );
      const m = await h.call(o.key, 'POST', `/deposits/declarations/${matched.id}/cancel`);
      assert.deepEqual(
        [m.status, m.body.code, m.body.message],
        [409, 'deposits.declaration_not_open', 'The deposit declaration is no longer open (matched); only an open one can be cancelled.'],
      );
      const late = await declare(o, '30000');
      clock().advance(h.config.declarationTtlMs + 1);
      const es = await h.call(o.key, 'POST', `/deposits/declarations/${late.id}/cancel`, undefined, { 'x-lang': 'es' });
      assert.deepEqual(
        [es.status, es.body.code, es.body.message],
        [
          409,
          'deposits.declaration_not_open',
          'La declaración de depósito ya no está abierta (expired); solo se puede cancelar una abierta.',
        ],
      );
      const reader = await signedInMember(h, o.orgId, ['portal:read']);
      const open = await declare(o, '40000');
      const refused = await withCookie(h, reader.cookie, 'POST', `/api/v1/deposits/declarations/${open.id}/cancel`);
      assert.deepEqual([refused.status, refused.body.code], [403, 'auth.scope_missing']);
      const person = await signedInMember(h, o.orgId, ['portal:read', 'portal:deposit']);
      const c = await withCookie(h, person.cookie, 'POST', `/api/v1/deposits/declarations/${open.id}/cancel`);
      assert.deepEqual([c.status, c.body.data.state], [200, 'cancelled']);
      const trail = (await h.op('GET', `/audit?subjectId=${open.id}`)).body.data.map(
        (x: { actor: string; action: string }) => `${x.actor} ${x.action}`,
      );
      assert.deepEqual(trail, [`member:${person.memberId} declaration.cancel`]);
    });
  });
}
