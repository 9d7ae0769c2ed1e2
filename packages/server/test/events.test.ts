import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { ManualClock } from '../src/domain/ports.ts';
import { expireDeclarations } from '../src/usecases/deposits/expire-declarations.ts';
import { backends, eventsSettled, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

interface Ev {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

const PAIR = {
  midRate: '65000.00',
  spreadBps: 100,
  feeBps: 10,
  fixedFeeQuoteMinor: '0',
  minBaseMinor: '10000',
  maxBaseMinor: '1000000000000',
};

for (const backend of backends()) {
  describe(`events [${backend}]`, () => {
    let h: Harness;
    const clock = () => h.clock as ManualClock;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '60000' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', PAIR)).status, 200);
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1q-events' })).status, 200);
    });
    after(async () => h?.close());

    async function events(o: SeededOrg, query = ''): Promise<Ev[]> {
      await eventsSettled(h, o.orgId);
      const r = await h.call(o.key, 'GET', `/events${query}`);
      assert.equal(r.status, 200, r.raw);
      return r.body.data;
    }
    const list = async (o: SeededOrg, path: string) => (await h.call(o.key, 'GET', path)).body.data as Array<Record<string, unknown>>;

    async function order(o: SeededOrg): Promise<Record<string, unknown>> {
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      const r = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id });
      assert.equal(r.status, 201, r.raw);
      return r.body.data;
    }

    test('orders: created, then approved and completed, or rejected; data is the record as the list shows it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const a = await order(o);
      const b = await order(o);
      assert.equal((await h.op('POST', `/orders/${a.id}/approve`)).status, 200);
      assert.equal((await h.op('POST', `/orders/${b.id}/reject`, { reason: 'no' })).status, 200);
      const all = await events(o);
      assert.deepEqual(
        all.map((e) => [e.type, e.data.id]),
        [
          ['order.created', a.id],
          ['order.created', b.id],
          ['order.approved', a.id],
          ['order.completed', a.id],
          ['order.rejected', b.id],
        ],
      );
      assert.deepEqual(all[0]!.data, a, 'the created event carries the record as POST answered it');
      const now = await list(o, '/orders');
      assert.deepEqual(
        all[3]!.data,
        now.find((x) => x.id === a.id),
      );
      assert.deepEqual(
        all[4]!.data,
        now.find((x) => x.id === b.id),
      );
      assert.equal(all[2]!.data.state, 'approved');
      for (const e of all) assert.match(e.id, /^evt_[a-z2-7]{26}$/);
      assert.equal(new Set(all.map((e) => e.id)).size, all.length);
    });

    test('withdrawals and destinations: registered, usable once its cooldown is over, then created, approved, completed', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const d = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Main',
        assetSymbol: 'USD',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '55556666',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal(d.status, 201, d.raw);
      assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
      assert.equal(await h.store.events.emitUsableDestinations(clock().now()), 0, 'not usable during its cooldown');
      clock().advance(60_001);
      assert.ok((await h.store.events.emitUsableDestinations(clock().now())) >= 1);
      assert.equal(await h.store.events.emitUsableDestinations(clock().now()), 0, 'once');
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: d.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '25000',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/approve`)).status, 200);
      const all = await events(o);
      assert.deepEqual(
        all.map((e) => e.type),
        ['destination.registered', 'destination.usable', 'withdrawal.created', 'withdrawal.approved', 'withdrawal.completed'],
      );
      assert.deepEqual(all[0]!.data, d.body.data);
      assert.deepEqual(all[1]!.data, (await list(o, '/withdrawals/destinations'))[0]);
      assert.deepEqual(all[2]!.data, w.body.data);
      assert.deepEqual(all[4]!.data, (await list(o, '/withdrawals'))[0]);
    });

    test('a request its organization cancels: order.cancelled and withdrawal.cancelled, with the record as the list shows it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n, USD: 100_000n } });
      const a = await order(o);
      const c = await h.call(o.key, 'POST', `/orders/${a.id}/cancel`);
      assert.equal(c.status, 200, c.raw);
      const d = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Cancel',
        assetSymbol: 'USD',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '55557777',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
      clock().advance(60_001);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: d.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '1000',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal((await h.call(o.key, 'POST', `/withdrawals/${w.body.data.id}/cancel`)).status, 200);
      const all = await events(o);
      const cancelled = all.filter((e) => e.type.endsWith('.cancelled'));
      assert.deepEqual(
        cancelled.map((e) => [e.type, e.data.id, e.data.state]),
        [
          ['order.cancelled', a.id, 'cancelled'],
          ['withdrawal.cancelled', w.body.data.id, 'cancelled'],
        ],
      );
      assert.deepEqual(
        cancelled[0]!.data,
        (await list(o, '/orders')).find((x) => x.id === a.id),
      );
      assert.deepEqual(
        cancelled[1]!.data,
        (await list(o, '/withdrawals')).find((x) => x.id === w.body.data.id),
      );
    });

    test('declarations and deposits: created, matched with deposit.credited; another expires', async () => {
      const o = await seedOrg(h);
      const decl = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '5000000',
      });
      assert.equal(decl.status, 201, decl.raw);
      const arrival = await h.op('POST', '/deposits', {
        assetSymbol: 'BTC',
        network: 'bitcoin',
        amountMinor: decl.body.data.expectedAmountMinor,
        txid: `tx-${decl.body.data.id}`,
      });
      assert.equal(arrival.status, 201, arrival.raw);
      const second = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '6000000',
      });
      assert.equal(second.status, 201, second.raw);
      clock().advance(h.config.declarationTtlMs + 1);
      await expireDeclarations(h.deps);
      const all = await events(o);
      // One transaction closes the declaration and credits the arrival: its two events, in write order.
      assert.deepEqual(
        all.map((e) => e.type),
        ['declaration.created', 'declaration.matched', 'deposit.credited', 'declaration.created', 'declaration.expired'],
      );
      assert.deepEqual(all[0]!.data, decl.body.data);
      assert.equal(all[1]!.data.state, 'matched');
      assert.deepEqual(all[2]!.data, (await list(o, '/deposits'))[0]);
      assert.equal(all[4]!.data.state, 'expired');
      assert.equal(all[4]!.data.expiresInSeconds, 0);
    });

    test('the cursor: after=<id> and limit walk them oldest first; another organization sees none of them', async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      for (let i = 0; i < 3; i++) await order(o);
      const all = await events(o);
      assert.equal(all.length, 3);
      assert.deepEqual(
        (await events(o, '?limit=2')).map((e) => e.id),
        all.slice(0, 2).map((e) => e.id),
      );
      assert.deepEqual(
        (await events(o, `?after=${all[1]!.id}`)).map((e) => e.id),
        [all[2]!.id],
      );
      assert.deepEqual(await events(o, `?after=${all[2]!.id}`), []);
      const other = await seedOrg(h);
      assert.deepEqual(await events(other), []);
      const foreign = await h.call(other.key, 'GET', `/events?after=${all[0]!.id}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'events.cursor_not_found');
      assert.equal((await h.call(o.key, 'GET', '/events?limit=101')).status, 400);
      const noRead = await seedOrg(h, { scopes: ['portal:trade'] });
      assert.equal((await h.call(noRead.key, 'GET', '/events')).body.code, 'auth.scope_missing');
    });

    test("subjectId: one record's events only, with the cursor; another organization's record shows nothing", async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const a = await order(o);
      const b = await order(o);
      assert.equal((await h.op('POST', `/orders/${a.id}/approve`)).status, 200);
      assert.equal((await h.op('POST', `/orders/${b.id}/reject`, { reason: 'no' })).status, 200);
      const mine = await events(o, `?subjectId=${a.id}`);
      assert.deepEqual(
        mine.map((e) => [e.type, e.data.id]),
        [
          ['order.created', a.id],
          ['order.approved', a.id],
          ['order.completed', a.id],
        ],
      );
      assert.deepEqual(
        (await events(o, `?subjectId=${b.id}&limit=1`)).map((e) => e.type),
        ['order.created'],
      );
      const after = (await events(o, `?subjectId=${b.id}`))[0]!.id;
      assert.deepEqual(
        (await events(o, `?subjectId=${b.id}&after=${after}`)).map((e) => e.type),
        ['order.rejected'],
      );
      const other = await seedOrg(h);
      assert.deepEqual(await events(other, `?subjectId=${a.id}`), [], "another organization's order has no events here");
      const bad = await h.call(o.key, 'GET', '/events?subjectId=a%20b');
      assert.equal(bad.status, 400, bad.raw);
    });

    test("a change rolled back leaves no event (the event is written in the change's own transaction)", async () => {
      const o = await seedOrg(h, { balances: { BTC: 10_000_000n } });
      const a = await order(o);
      await assert.rejects(
        h.store.db.transaction().execute(async (tx) => {
          await sql`update orders set state = 'rejected', updated_at = now() where id = ${a.id}`.execute(tx);
          throw new Error('the process dies before commit');
        }),
        /dies before commit/,
      );
      assert.deepEqual(
        (await events(o)).map((e) => e.type),
        ['order.created'],
      );
      assert.equal((await list(o, '/orders'))[0]!.state, 'pending_approval');
    });
  });
}
