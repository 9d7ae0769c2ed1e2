import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverCryptoWithdrawals } from '../src/usecases/withdrawals/send-crypto.ts';
import { available, backends, held, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { startBinanceDouble, type BinanceDouble } from './venue-double/binance-double.ts';
import { venueHarness } from './venue-double/venue-harness.ts';

const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const AMOUNT = 1_000_000n; // 0.01 BTC
const FEE = 20_000n; // the double's BTC fee on BTC: 0.0002

/** The platform's books of one asset and account kind (market: minus what it holds at the venue). */
async function platform(h: Harness, asset: string, kind: string): Promise<bigint> {
  const r = await sql<{ amount: string | null }>`select coalesce(sum(amount), 0)::text as amount from postings
    where owner_id = 'platform' and asset_symbol = ${asset} and account_kind = ${kind}`.execute(h.store.db);
  return BigInt(r.rows[0]?.amount ?? '0');
}

for (const backend of backends()) {
  describe(`crypto withdrawals executed at the venue (${backend})`, () => {
    let double: BinanceDouble;
    let h: Harness;
    let o: SeededOrg;
    let dst: string;
    before(async () => {
      double = await startBinanceDouble();
      h = await venueHarness(backend, double);
      assert.equal((await h.op('PUT', '/market/assets/BTC', { decimals: 8, kind: 'crypto' })).status, 200);
      o = await seedOrg(h, { balances: { BTC: 100_000_000n } });
      const d = await h.call(o.key, 'POST', '/withdrawals/destinations/crypto', {
        label: 'Cold',
        assetSymbol: 'BTC',
        network: 'BTC',
        address: ADDRESS,
      });
      assert.equal(d.status, 201, d.raw);
      assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
      dst = d.body.data.id;
    });
    beforeEach(() => {
      double.setBalance('BTC', '100');
      double.clearFaults();
      double.completeWithdrawalsAtOnce(true);
    });
    after(async () => {
      await h.close();
      await double.close();
    });

    const request = async () => {
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst,
        assetSymbol: 'BTC',
        assetDecimals: 8,
        amountMinor: AMOUNT.toString(),
      });
      assert.equal(w.status, 201, w.raw);
      return w.body.data.id as string;
    };
    const read = async (id: string) => (await h.op('GET', `/withdrawals?limit=100`)).body.data.find((w: { id: string }) => w.id === id);

    test('production refuses a testnet address', async () => {
      const r = await h.call(o.key, 'POST', '/withdrawals/destinations/crypto', {
        label: 'Test',
        assetSymbol: 'BTC',
        network: 'BTC',
        address: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      });
      assert.equal(r.status, 422);
      assert.equal(r.body.code, 'destinations.invalid_address');
    });

    test('nothing reaches the venue before approval; the approval sends one withdrawal with its id, amount plus fee; completed with the txid; the fee its own entry', async () => {
      const id = await request();
      assert.equal(double.withdrawalsPerOrderId().get(id), undefined);
      const before = await available(h, o.key, 'BTC');
      const [market, revenue] = [await platform(h, 'BTC', 'market'), await platform(h, 'BTC', 'revenue')];
      const a = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.equal(a.status, 200, a.raw);
      assert.equal(a.body.data.state, 'completed');
      const sent = double.withdrawals.filter((w) => w.withdrawOrderId === id);
      assert.equal(sent.length, 1);
      assert.deepEqual(
        { coin: sent[0]!.coin, network: sent[0]!.network, address: sent[0]!.address, amount: sent[0]!.amount },
        { coin: 'BTC', network: 'BTC', address: ADDRESS, amount: '0.0102' },
      );
      assert.equal(a.body.data.txid, sent[0]!.txId);
      assert.equal(a.body.data.payoutReference, sent[0]!.txId);
      assert.equal(a.body.data.venue.state, 'completed');
      // The client pays exactly the amount; the platform's account at the venue goes down by amount + fee.
      assert.equal(await available(h, o.key, 'BTC'), before);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal((await platform(h, 'BTC', 'market')) - market, AMOUNT + FEE);
      assert.equal((await platform(h, 'BTC', 'revenue')) - revenue, -FEE);
      const fees = await sql<{ n: string; org: string | null }>`select count(*)::text as n, max(organization_id) as org from journal_entries
        where kind = 'venue_fee' and reference_id = ${id}`.execute(h.store.db);
      assert.deepEqual({ ...fees.rows[0] }, { n: '1', org: null }, 'one fee entry, touching no organization');
      const client = await h.call(o.key, 'GET', `/withdrawals/${id}`);
      assert.equal(client.body.data.txid, sent[0]!.txId);
    });

    test('processing at the venue: approved until the venue completes it; followed by its id', async () => {
      double.completeWithdrawalsAtOnce(false);
      const id = await request();
      const a = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.equal(a.body.data.state, 'approved');
      assert.equal(a.body.data.venue.state, 'processing');
      await recoverCryptoWithdrawals(h.deps);
      assert.equal((await read(id)).state, 'approved');
      double.completeWithdrawal(id);
      await recoverCryptoWithdrawals(h.deps);
      const done = await read(id);
      assert.equal(done.state, 'completed');
      assert.equal(done.txid, double.withdrawals.find((w) => w.withdrawOrderId === id)!.txId);
      assert.equal(double.withdrawalsPerOrderId().get(id), 1);
    });

    test('a dropped connection after the venue recorded it: looked up by id, completed, never sent twice', async () => {
      double.dropAfterNextWithdrawal();
      const id = await request();
      const a = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.equal(a.status, 200, a.raw);
      // The unknown outcome is looked up by the withdrawal's id at once: the venue has it.
      assert.equal(a.body.data.state, 'completed');
      (h.clock as ManualClock).advance(60_000);
      await recoverCryptoWithdrawals(h.deps);
      assert.equal((await read(id)).state, 'completed');
      assert.equal(double.withdrawalsPerOrderId().get(id), 1);
    });

    test('a connection dropped before the venue got it: sent again once its recvWindow has passed; one withdrawal', async () => {
      double.fail('/sapi/v1/capital/withdraw/apply', 'drop', 1, 'POST');
      const id = await request();
      assert.equal((await h.op('POST', `/withdrawals/${id}/approve`)).body.data.state, 'approved');
      await recoverCryptoWithdrawals(h.deps);
      assert.equal(double.withdrawalsPerOrderId().get(id), undefined, 'not sent again inside the recvWindow');
      (h.clock as ManualClock).advance(60_000);
      await recoverCryptoWithdrawals(h.deps);
      assert.equal((await read(id)).state, 'completed');
      assert.equal(double.withdrawalsPerOrderId().get(id), 1);
    });

    test('refused by the venue, or failed there: failed, the hold released exactly once', async () => {
      double.refuseNextWithdrawal();
      const before = await available(h, o.key, 'BTC');
      const id = await request();
      const a = await h.op('POST', `/withdrawals/${id}/approve`);
      assert.equal(a.body.data.state, 'failed');
      assert.match(a.body.data.reason, /insufficient balance/);
      assert.equal(await available(h, o.key, 'BTC'), before);
      assert.equal(await held(h, o.key, 'BTC'), 0n);

      double.completeWithdrawalsAtOnce(false);
      const id2 = await request();
      await h.op('POST', `/withdrawals/${id2}/approve`);
      double.failWithdrawal(id2);
      await Promise.all([recoverCryptoWithdrawals(h.deps), recoverCryptoWithdrawals(h.deps)]);
      await recoverCryptoWithdrawals(h.deps);
      assert.equal((await read(id2)).state, 'failed');
      assert.equal(await available(h, o.key, 'BTC'), before);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      const releases = await sql<{ n: string }>`select count(*)::text as n from postings
        where reference_id = ${id2} and entry_kind = 'withdrawal_release' and account_kind = 'available'`.execute(h.store.db);
      assert.equal(releases.rows[0]!.n, '1');
    });

    test('concurrent approvals and followers: one withdrawal at the venue', async () => {
      const id = await request();
      const [a, b] = await Promise.all([
        h.op('POST', `/withdrawals/${id}/approve`),
        h.op('POST', `/withdrawals/${id}/approve`),
        recoverCryptoWithdrawals(h.deps),
      ]);
      assert.deepEqual([a.status, b.status].sort(), [200, 409]);
      await recoverCryptoWithdrawals(h.deps);
      assert.equal((await read(id)).state, 'completed');
      assert.equal(double.withdrawalsPerOrderId().get(id), 1);
    });
  });
}
