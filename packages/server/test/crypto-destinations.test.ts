import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { available, backends, held, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

// Test vectors of BIP 173 / BIP 350 and EIP-55.
const BECH32 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const TAPROOT = 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0';
const P2SH = '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy';
const TESTNET = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const crypto = (h: Harness, o: SeededOrg, body: Record<string, string>) =>
  h.call(o.key, 'POST', '/withdrawals/destinations/crypto', { label: 'Cold', assetSymbol: 'BTC', network: 'bitcoin', ...body });

for (const backend of backends()) {
  describe(`crypto destinations (${backend})`, () => {
    let h: Harness;
    let o: SeededOrg;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      for (const [symbol, decimals, kind] of [
        ['USD', 2, 'fiat'],
        ['BTC', 8, 'crypto'],
        ['USDT', 6, 'crypto'],
        ['XAU', 2, undefined],
      ] as const) {
        const r = await h.op('PUT', `/market/assets/${symbol}`, { decimals, ...(kind ? { kind } : {}) });
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.body.data.kind, kind);
      }
      o = await seedOrg(h, { balances: { BTC: 100_000_000n } });
    });
    after(() => h.close());

    test('Bitcoin addresses: bech32, bech32m and base58check are registered; the list shows kind, network, address and a summary', async () => {
      const a = await crypto(h, o, { address: BECH32 });
      assert.equal(a.status, 201, a.raw);
      assert.deepEqual(
        { kind: a.body.data.kind, network: a.body.data.network, address: a.body.data.address, summary: a.body.data.summary },
        { kind: 'crypto', network: 'bitcoin', address: BECH32, summary: 'bc1q…f3t4 (bitcoin)' },
      );
      assert.equal((await crypto(h, o, { address: TAPROOT })).status, 201);
      assert.equal((await crypto(h, o, { address: P2SH })).status, 201);
      // A testnet address is fine in the sandbox (refused in production: crypto-withdrawals-venue.test.ts).
      assert.equal((await crypto(h, o, { address: TESTNET })).status, 201);
      const list = await h.call(o.key, 'GET', '/withdrawals/destinations');
      const mine = (list.body.data as Array<{ address?: string; kind: string }>).filter((d) => d.kind === 'crypto').map((d) => d.address);
      assert.deepEqual(mine, [TESTNET, P2SH, TAPROOT, BECH32]);
    });

    test('a bad address is 422 destinations.invalid_address; an unsupported network 422 destinations.network_not_supported', async () => {
      for (const address of [BECH32.slice(0, -1) + '5', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3', EVM]) {
        const r = await crypto(h, o, { address });
        assert.equal(r.status, 422, address);
        assert.equal(r.body.code, 'destinations.invalid_address');
        assert.ok(!r.raw.includes(address), 'the answer never repeats the address');
      }
      const r = await crypto(h, o, { network: 'SOL', address: BECH32 });
      assert.equal(r.status, 422);
      assert.equal(r.body.code, 'destinations.network_not_supported');
      // Bitcoin's chain carries BTC only.
      const usdt = await crypto(h, o, { assetSymbol: 'USDT', address: BECH32 });
      assert.equal(usdt.body.code, 'destinations.network_not_supported');
    });

    test('EVM: a mixed-case address must pass EIP-55; all lower or all upper case is fine; kept with its checksum', async () => {
      const bad = await crypto(h, o, { assetSymbol: 'USDT', network: 'ETH', address: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' });
      assert.equal(bad.status, 422);
      assert.equal(bad.body.code, 'destinations.invalid_address');
      const ok = await crypto(h, o, { assetSymbol: 'USDT', network: 'ETH', address: EVM.toLowerCase() });
      assert.equal(ok.status, 201, ok.raw);
      assert.equal(ok.body.data.address, EVM);
      // The same address, asset and network twice: 409, whatever its case.
      const again = await crypto(h, o, { assetSymbol: 'USDT', network: 'ETH', address: EVM, label: 'Other' });
      assert.equal(again.status, 409);
      // Another network is another destination.
      assert.equal((await crypto(h, o, { assetSymbol: 'USDT', network: 'BSC', address: EVM })).status, 201);
    });

    test('kinds: a bank account for a crypto asset, or an address for a fiat one, is 422 destinations.kind_mismatch; no kind takes both', async () => {
      const bank = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'BTC cold',
        assetSymbol: 'BTC',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '12345634',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal(bank.status, 422);
      assert.equal(bank.body.code, 'destinations.kind_mismatch');
      const usd = await crypto(h, o, { assetSymbol: 'USD', network: 'ETH', address: EVM });
      assert.equal(usd.status, 422);
      assert.equal(usd.body.code, 'destinations.kind_mismatch');
      const xauBank = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Gold',
        assetSymbol: 'XAU',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '12345635',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal(xauBank.status, 201, xauBank.raw);
      assert.equal(xauBank.body.data.kind, undefined, 'a bank account keeps the fields it had');
      assert.equal((await crypto(h, o, { assetSymbol: 'XAU', network: 'ETH', address: EVM })).status, 201);
      // A PUT without a kind keeps the asset's.
      assert.equal((await h.op('PUT', '/market/assets/BTC', { decimals: 8 })).body.data.kind, 'crypto');
    });

    test('sandbox: an approved withdrawal to an address completes with a made-up txid; withdrawal.completed carries it', async () => {
      const d = await crypto(h, o, { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', label: 'Payout' });
      assert.equal(d.status, 201, d.raw);
      assert.equal((await h.op('POST', `/destinations/${d.body.data.id}/register-in-market`)).status, 200);
      const before = await available(h, o.key, 'BTC');
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: d.body.data.id,
        assetSymbol: 'BTC',
        assetDecimals: 8,
        amountMinor: '2500000',
      });
      assert.equal(w.status, 201, w.raw);
      assert.equal(w.body.data.txid, null);
      assert.equal(await held(h, o.key, 'BTC'), 2_500_000n);
      const a = await h.op('POST', `/withdrawals/${w.body.data.id}/approve`);
      assert.equal(a.status, 200, a.raw);
      assert.equal(a.body.data.state, 'completed');
      assert.match(a.body.data.txid, /^[0-9a-f]{64}$/);
      assert.equal(a.body.data.payoutReference, a.body.data.txid);
      assert.equal(await available(h, o.key, 'BTC'), before - 2_500_000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      const read = await h.call(o.key, 'GET', `/withdrawals/${w.body.data.id}`);
      assert.equal(read.body.data.txid, a.body.data.txid);
      const events = await h.call(o.key, 'GET', '/events?limit=100');
      const done = (events.body.data as Array<{ type: string; data: { id: string; txid: string | null } }>).find(
        (e) => e.type === 'withdrawal.completed' && e.data.id === w.body.data.id,
      );
      assert.equal(done?.data.txid, a.body.data.txid);
      assert.deepEqual(done?.data, read.body.data);
      const registered = (events.body.data as Array<{ type: string; data: { id: string } }>).find(
        (e) => e.type === 'destination.registered' && e.data.id === d.body.data.id,
      );
      assert.deepEqual(registered?.data, { ...d.body.data });
    });
  });
}
