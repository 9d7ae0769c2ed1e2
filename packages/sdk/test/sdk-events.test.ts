// The organization's events through the SDK: one page after a cursor, and a walk of every page, oldest
// first, with the record's amounts as bigints, as webhooks deliver them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { btcUsdMarket, eventsSettled, makeHarness, seedOrg, type Harness } from '../../server/test/harness.ts';
import { Cambio, collect } from '../src/index.ts';

describe('SDK events against the real server', () => {
  let h: Harness;
  let base: string;
  before(async () => {
    h = await makeHarness();
    await btcUsdMarket(h);
    base = await h.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => h?.close());

  test("list pages after a cursor; iterate walks every page oldest first; an order's events carry its amounts as bigints", async () => {
    const s = await seedOrg(h, { balances: { BTC: 100_000_000n } });
    const cambio = new Cambio({ apiKey: s.key, baseUrl: base, lang: 'en', retry: { sleep: async () => {} } });
    const q = await cambio.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 1_000_000n });
    const order = (await cambio.orders.create({ quoteId: q.id })).data;
    assert.equal((await h.op('POST', `/orders/${order.id}/approve`, {})).status, 200);
    for (const n of ['1111', '2222', '3333']) {
      await cambio.withdrawals.registerBankDestination({
        label: `D${n}`,
        assetSymbol: 'USD',
        bankName: 'Banco',
        accountKind: 'checking',
        accountNumber: `0000${n}`,
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
    }
    await eventsSettled(h, s.orgId);

    const all = await collect(cambio.events.iterate({ limit: 2 }));
    assert.deepEqual(
      all.map((e) => e.type),
      ['order.created', 'order.approved', 'order.completed', 'destination.registered', 'destination.registered', 'destination.registered'],
    );
    assert.deepEqual(
      all.slice(0, 3).map((e) => [e.data.id, e.data.state]),
      [
        [order.id, 'pending_approval'],
        [order.id, 'approved'],
        [order.id, 'completed'],
      ],
    );
    assert.equal((all[0]!.data.base as { amountMinor: unknown }).amountMinor, 1_000_000n);
    assert.ok(
      all.every((e, i) => i === 0 || e.createdAt >= all[i - 1]!.createdAt),
      'oldest first',
    );

    const first = await cambio.events.list({ limit: 2 });
    assert.deepEqual(
      first.map((e) => e.id),
      all.slice(0, 2).map((e) => e.id),
    );
    const rest = await cambio.events.list({ after: all[2]!.id });
    assert.deepEqual(
      rest.map((e) => e.id),
      all.slice(3).map((e) => e.id),
    );
    assert.deepEqual(await cambio.events.list({ after: all[5]!.id }), [], 'caught up: an empty page');
    assert.deepEqual(
      (await collect(cambio.events.iterate({ after: all[3]!.id, limit: 100 }))).map((e) => e.id),
      all.slice(4).map((e) => e.id),
    );
  });
});
