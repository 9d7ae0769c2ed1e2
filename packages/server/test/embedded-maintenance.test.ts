import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { backgroundTasks } from '../src/background.ts';
import { HOT_TABLES } from '../src/store/maintenance.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/** PGlite runs no autovacuum; a background task vacuums and analyses the hot tables instead. */
for (const backend of backends()) {
  describe(`the embedded store's maintenance [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    const reltuples = async (t: string) =>
      Number((await sql<{ n: number }>`select reltuples as n from pg_class where relname = ${t}`.execute(h.store.db)).rows[0]!.n);

    test('PGlite: the hot tables get statistics (quotes counted exactly); PostgreSQL: left to autovacuum', async () => {
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/BTC/USD', {
            midRate: '60000',
            spreadBps: 50,
            feeBps: 10,
            fixedFeeQuoteMinor: '0',
            minBaseMinor: '1000',
            maxBaseMinor: '100000000',
          })
        ).status,
        200,
      );
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const quotes = [];
      for (let i = 0; i < 3; i++)
        quotes.push(
          (await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' })).body.data.id,
        );
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: quotes[0] })).status, 201);
      assert.equal(await reltuples('quotes'), -1, 'a fresh table has never been analysed');
      const done = await h.store.maintain();
      if (backend === 'pglite') {
        assert.deepEqual(done, [...HOT_TABLES]);
        assert.equal(await reltuples('quotes'), 3);
        assert.equal(await reltuples('orders'), 1);
      } else {
        assert.deepEqual(done, []);
        assert.equal(await reltuples('quotes'), -1);
      }
      // The store still answers as before: the accepted quote is used, the others are accepted.
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: quotes[0] })).status, 410);
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: quotes[1] })).status, 201);
      assert.ok(backgroundTasks.some((t) => t.name === 'maintain-embedded-store'));
    });
  });
}
