import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { formatDecimal } from '../src/domain/money.ts';
import { pollVenueDepositsTask, refreshVenueWalletsTask } from '../src/venue-tasks.ts';
import { available, backends, seedOrg, type Harness } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { venueHarness } from './venue-double/venue-harness.ts';

for (const backend of backends()) {
  describe(`deposits read from the venue's history (${backend})`, () => {
    let double: BinanceDouble;
    let h: Harness;
    before(async () => {
      double = await startBinanceDouble();
      h = await venueHarness(backend, double);
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'BTC', address: 'bc1qvenuewallet0' })).status, 200);
    });
    after(async () => {
      await h.close();
      await double.close();
    });

    const deposit = async (txid: string) => h.store.db.selectFrom('deposits').selectAll().where('txid', '=', txid).executeTakeFirst();

    test('a completed venue deposit is matched by its tail and credited once; pending, unlisted and over-precise ones are not credited', async () => {
      const o = await seedOrg(h);
      const decl = await h.call(o.key, 'POST', '/deposits/declarations', {
        assetSymbol: 'BTC',
        assetDecimals: 8,
        declaredAmountMinor: '1000000',
      });
      assert.equal(decl.status, 201, decl.raw);
      const expected = BigInt(decl.body.data.expectedAmountMinor);
      double.addDeposit({ coin: 'BTC', network: 'BTC', amount: formatDecimal(expected, 8), txId: 'tx-match', status: 1 });
      double.addDeposit({ coin: 'BTC', network: 'BTC', amount: '0.5', txId: 'tx-pending', status: 0 });
      double.addDeposit({ coin: 'DOGE', network: 'DOGE', amount: '100', txId: 'tx-unlisted', status: 1 });
      double.addDeposit({ coin: 'BTC', network: 'BTC', amount: '0.123456789', txId: 'tx-precise', status: 1 });

      await pollVenueDepositsTask.run(h.deps);
      await pollVenueDepositsTask.run(h.deps); // a second pass records nothing again
      assert.equal(await available(h, o.key, 'BTC'), expected);
      const matched = await deposit('tx-match');
      assert.equal(matched?.state, 'credited');
      assert.equal(matched?.organization_id, o.orgId);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      assert.equal(await deposit('tx-pending'), undefined);
      assert.equal(await deposit('tx-unlisted'), undefined);
      const precise = await deposit('tx-precise');
      assert.equal(precise?.state, 'unattributed');
      assert.equal(precise?.amount_minor, '12345678');

      double.completeDeposit('tx-pending');
      await pollVenueDepositsTask.run(h.deps);
      assert.equal((await deposit('tx-pending'))?.state, 'unattributed'); // no open declaration of that amount
      assert.equal(await available(h, o.key, 'BTC'), expected);
      const all = await h.store.db.selectFrom('deposits').select('txid').execute();
      assert.equal(all.length, 3);
    });

    test("a venue wallet shows the venue account's deposit address and follows it when it changes there", async () => {
      double.setDepositAddress('USDT', 'TRX', 'TVenueAddressOne1111');
      const put = await h.op('PUT', '/wallets/USDT', { source: 'venue', network: 'TRX' });
      assert.equal(put.status, 200, put.raw);
      assert.equal(put.body.data.address, 'TVenueAddressOne1111');
      const o = await seedOrg(h);
      const shown = async () =>
        ((await h.call(o.key, 'GET', '/deposits/wallets')).body.data as Array<{ assetSymbol: string; address: string }>).find(
          (w) => w.assetSymbol === 'USDT',
        )?.address;
      assert.equal(await shown(), 'TVenueAddressOne1111');
      double.setDepositAddress('USDT', 'TRX', 'TVenueAddressTwo2222');
      await refreshVenueWalletsTask.run(h.deps);
      assert.equal(await shown(), 'TVenueAddressTwo2222');
      // A network the venue gives no address on, or an address with the venue's, is refused.
      const none = await h.op('PUT', '/wallets/BTC', { source: 'venue', network: 'LIGHTNING' });
      assert.equal(none.status, 422, none.raw);
      const both = await h.op('PUT', '/wallets/USDT', { source: 'venue', network: 'TRX', address: 'x' });
      assert.equal(both.status, 422);
    });
  });
}
