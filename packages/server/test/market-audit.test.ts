import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, BTC_USD, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

// What the operator's configuration writes leave in the audit trail: each write one entry, in its own
// transaction, with the state before and after; a refused or idle write leaves none.
type Entry = { actor: string; action: string; before: unknown; after: unknown };

for (const backend of backends()) {
  describe(`market configuration audit [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    /** The entries about `subjectId` with this action, oldest first. */
    const trail = async (subjectId: string, action: string): Promise<Array<Omit<Entry, 'action'>>> =>
      ((await h.op('GET', `/audit?subjectId=${encodeURIComponent(subjectId)}&limit=100`)).body.data as Entry[])
        .filter((e) => e.action === action)
        .reverse()
        .map(({ actor, before: b, after: a }) => ({ actor, before: b, after: a }));

    test('assets: listing and changing decimals are audited; the same decimals again and a refused change are not', async () => {
      await listAssets(h, { AUD: 2 });
      await listAssets(h, { AUD: 2 });
      assert.equal((await h.op('PUT', '/market/assets/AUD', { decimals: 3 })).status, 200);
      await seedOrg(h, { balances: { AUD: 500n } });
      const r = await h.op('PUT', '/market/assets/AUD', { decimals: 4 });
      assert.deepEqual([r.status, r.body.code], [409, 'market.decimals_locked']);
      assert.deepEqual(await trail('AUD', 'market.asset.put'), [
        { actor: 'bootstrap', before: null, after: { symbol: 'AUD', decimals: 2 } },
        { actor: 'bootstrap', before: { symbol: 'AUD', decimals: 2 }, after: { symbol: 'AUD', decimals: 3 } },
      ]);
    });

    test('pairs: pricing, repricing and removing are audited with the terms before and after; unknown ones change nothing', async () => {
      await listAssets(h, { ETH: 8, EUR: 2 });
      assert.equal((await h.op('PUT', '/market/pairs/ETH/EUR', BTC_USD)).status, 200);
      assert.equal((await h.op('PUT', '/market/pairs/ETH/EUR', { ...BTC_USD, midRate: '3000.5', spreadBps: 20 })).status, 200);
      let r = await h.op('PUT', '/market/pairs/ETH/XYZ', BTC_USD);
      assert.deepEqual([r.status, r.body.code], [422, 'market.asset_not_listed']);
      r = await h.op('DELETE', '/market/pairs/ETH/EUR');
      assert.deepEqual([r.status, r.body.data.midRate], [200, '3000.5']);
      r = await h.op('DELETE', '/market/pairs/ETH/EUR');
      assert.deepEqual([r.status, r.body.code], [404, 'market.pair_not_found']);
      const first = {
        midRate: '65000.00',
        spreadBps: 50,
        feeBps: 10,
        fixedFeeQuoteMinor: '100',
        minBaseMinor: '10000',
        maxBaseMinor: '1000000000',
      };
      const second = { ...first, midRate: '3000.5', spreadBps: 20 };
      assert.deepEqual(await trail('ETH/EUR', 'market.pair.put'), [
        { actor: 'bootstrap', before: null, after: first },
        { actor: 'bootstrap', before: first, after: second },
      ]);
      assert.deepEqual(await trail('ETH/EUR', 'market.pair.delete'), [{ actor: 'bootstrap', before: second, after: null }]);
      assert.deepEqual(await trail('ETH/XYZ', 'market.pair.put'), []);
    });

    test('wallets: setting, replacing and removing a wallet are audited; an unlisted asset or no wallet changes nothing', async () => {
      await listAssets(h, { CHF: 2 });
      let r = await h.op('PUT', '/wallets/CHF', { network: 'wire', address: 'chf-acct-1' });
      assert.deepEqual([r.status, r.body.data.address], [200, 'sandbox-chf-acct-1']);
      assert.equal((await h.op('PUT', '/wallets/CHF', { network: 'sepa', address: 'chf-acct-2' })).status, 200);
      r = await h.op('PUT', '/wallets/NOK', { network: 'wire', address: 'nok-acct-1' });
      assert.deepEqual([r.status, r.body.code], [422, 'market.asset_not_listed']);
      assert.equal((await h.op('DELETE', '/wallets/CHF')).status, 200);
      r = await h.op('DELETE', '/wallets/CHF');
      assert.deepEqual([r.status, r.body.code], [404, 'deposits.wallet_not_found']);
      assert.deepEqual(await trail('CHF', 'deposit.wallet.put'), [
        { actor: 'bootstrap', before: null, after: { network: 'wire', address: 'sandbox-chf-acct-1' } },
        {
          actor: 'bootstrap',
          before: { network: 'wire', address: 'sandbox-chf-acct-1' },
          after: { network: 'sepa', address: 'sandbox-chf-acct-2' },
        },
      ]);
      assert.deepEqual(await trail('CHF', 'deposit.wallet.delete'), [
        { actor: 'bootstrap', before: { network: 'sepa', address: 'sandbox-chf-acct-2' }, after: null },
      ]);
      assert.deepEqual(await trail('NOK', 'deposit.wallet.put'), []);
    });
  });
}
