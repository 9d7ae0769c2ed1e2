import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backgroundTasks } from '../src/background.ts';
import { loadConfig } from '../src/config.ts';
import { TAIL_QUARANTINE_MS } from '../src/domain/deposits/tail.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { declareDeposit } from '../src/usecases/deposits/declare-deposit.ts';
import { available, backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

const TTL_MS = 600_000;

for (const backend of backends()) {
  describe(`deposits [${backend}]`, () => {
    let h: Harness;
    let txn = 0;
    const txid = () => `tx-${backend}-${++txn}-${Date.now()}`;
    const declare = (key: string, body: Record<string, unknown>) => h.call(key, 'POST', '/deposits/declarations', body);
    const arrive = (assetSymbol: string, amountMinor: string | bigint, id = txid(), network?: string) =>
      h.op('POST', '/deposits', {
        assetSymbol,
        network: network ?? (assetSymbol === 'BTC' ? 'bitcoin' : assetSymbol === 'USD' ? 'wire' : 'testnet'),
        amountMinor: amountMinor.toString(),
        txid: id,
      });
    // The platform's books against the venue's: what the platform holds at the market = −(market account).
    const books = async (asset: string) => {
      const m = await h.store.db
        .selectFrom('accounts')
        .select('balance')
        .where('owner_id', '=', 'platform')
        .where('asset_symbol', '=', asset)
        .where('kind', '=', 'market')
        .executeTakeFirst();
      const u = await h.store.db
        .selectFrom('accounts')
        .select('balance')
        .where('owner_id', '=', 'platform')
        .where('asset_symbol', '=', asset)
        .where('kind', '=', 'unattributed')
        .executeTakeFirst();
      const v = await h.store.db.selectFrom('venue_balances').select('amount').where('asset_symbol', '=', asset).executeTakeFirst();
      return { market: BigInt(m?.balance ?? '0'), unattributed: BigInt(u?.balance ?? '0'), venue: BigInt(v?.amount ?? '0') };
    };

    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_DECLARATION_TTL_MS: String(TTL_MS) } });
      await listAssets(h, { USD: 2, BTC: 8, EUR: 2, TEN: 1 });
      for (const [s, network, address] of [
        ['USD', 'wire', 'usd-acct-1'],
        ['BTC', 'bitcoin', 'bc1qdemo'],
        ['TEN', 'testnet', 'ten-1'],
      ]) {
        const r = await h.op('PUT', `/wallets/${s}`, { network, address });
        assert.equal(r.status, 200, r.raw);
      }
    });
    after(async () => h?.close());

    test('wallets: one per asset with its network, sandbox addresses marked, never cached; a removed asset is absent', async () => {
      const o = await seedOrg(h, { scopes: ['portal:deposit'] });
      const r = await h.call(o.key, 'GET', '/deposits/wallets');
      assert.equal(r.status, 200);
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.deepEqual(r.body.data, [
        { assetSymbol: 'BTC', network: 'bitcoin', address: 'sandbox-bc1qdemo' },
        { assetSymbol: 'TEN', network: 'testnet', address: 'sandbox-ten-1' },
        { assetSymbol: 'USD', network: 'wire', address: 'sandbox-usd-acct-1' },
      ]);

      assert.equal((await h.op('PUT', '/wallets/EUR', { network: 'sepa', address: 'eur-1' })).status, 200);
      assert.ok((await h.call(o.key, 'GET', '/deposits/wallets')).body.data.some((w: { assetSymbol: string }) => w.assetSymbol === 'EUR'));
      const del = await h.op('DELETE', '/wallets/EUR');
      assert.equal(del.status, 200);
      const after = await h.call(o.key, 'GET', '/deposits/wallets');
      assert.deepEqual(
        after.body.data.map((w: { assetSymbol: string }) => w.assetSymbol),
        ['BTC', 'TEN', 'USD'],
      );
      assert.equal((await h.op('DELETE', '/wallets/EUR')).body.code, 'deposits.wallet_not_found');
      // An asset not listed at the market cannot get a wallet.
      const unlisted = await h.op('PUT', '/wallets/DOGE', { network: 'doge', address: 'd-1' });
      assert.equal(unlisted.status, 422);
      assert.equal(unlisted.body.code, 'market.asset_not_listed');
    });

    test('wallets and declarations need portal:deposit and an organization that can operate', async () => {
      const readOnly = await seedOrg(h, { scopes: ['portal:read'] });
      const r = await h.call(readOnly.key, 'GET', '/deposits/wallets');
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'auth.scope_missing');
      const draft = await seedOrg(h, { status: 'draft' });
      for (const res of [
        await h.call(draft.key, 'GET', '/deposits/wallets'),
        await declare(draft.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '10000' }),
      ]) {
        assert.equal(res.status, 403);
        assert.equal(res.body.code, 'clients.client_cannot_operate');
      }
      // Reads of its own records keep working (docs/design/money-and-states.md).
      const open = await h.call(draft.key, 'GET', '/deposits/open-declaration');
      assert.equal(open.status, 200);
      assert.equal(open.body.data, null);
    });

    test('a declaration gives the exact amount: declared plus a tail in the last decimals, with reference, wallet and expiry', async () => {
      const o = await seedOrg(h);
      const now = h.clock.now();
      const r = await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '150000' });
      assert.equal(r.status, 201, r.raw);
      const d = r.body.data;
      const expected = BigInt(d.expectedAmountMinor);
      assert.ok(expected > 150000n && expected <= 150099n, `expected ${expected} in (150000, 150099]`);
      assert.equal(d.expectedAmount, `1500.${(expected - 150000n).toString().padStart(2, '0')}`);
      assert.match(d.reference, /^[2-9A-Z]{4}-[2-9A-Z]{4}$/);
      assert.equal(d.network, 'wire');
      assert.equal(d.address, 'sandbox-usd-acct-1');
      assert.equal(d.state, 'open');
      assert.equal(d.expiresAt, new Date(now.getTime() + TTL_MS).toISOString());
      assert.equal(d.expiresInSeconds, TTL_MS / 1000);

      (h.clock as ManualClock).advance(60_000);
      const open = await h.call(o.key, 'GET', '/deposits/open-declaration');
      assert.equal(open.status, 200);
      assert.deepEqual(open.body.data, { ...d, expiresInSeconds: TTL_MS / 1000 - 60 });

      const again = await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '100000000' });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'deposits.declaration_already_open');
    });

    test('CAMBIO_DECLARATION_TTL_MS is honoured with a non-default value: expiresInSeconds equals it and the declaration closes then', async () => {
      // This suite starts the service with CAMBIO_DECLARATION_TTL_MS=600000, not the default.
      assert.notEqual(TTL_MS, loadConfig({}).declarationTtlMs);
      assert.equal(h.config.declarationTtlMs, TTL_MS);
      const o = await seedOrg(h);
      const now = h.clock.now();
      const r = await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '60000' });
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.expiresInSeconds, TTL_MS / 1000);
      assert.equal(r.body.data.expiresAt, new Date(now.getTime() + TTL_MS).toISOString());
      (h.clock as ManualClock).advance(TTL_MS - 1);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data.expiresInSeconds, 1);
      (h.clock as ManualClock).advance(1);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
    });

    test('a declaration is refused (422) when too small for a tail, when the asset has no wallet, or with the wrong decimals', async () => {
      const o = await seedOrg(h);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '999' }, 'deposits.amount_too_small'],
        [{ assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: 99999 }, 'deposits.amount_too_small'],
        [{ assetSymbol: 'EUR', assetDecimals: 2, declaredAmountMinor: '100000' }, 'deposits.asset_not_receivable'],
        [{ assetSymbol: 'DOGE', assetDecimals: 8, declaredAmountMinor: '100000000' }, 'deposits.asset_not_receivable'],
        [{ assetSymbol: 'USD', assetDecimals: 4, declaredAmountMinor: '100000' }, 'market.decimals_mismatch'],
        [{ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '12.5' }, 'request.invalid_amount'],
      ];
      for (const [body, code] of cases) {
        const r = await declare(o.key, body);
        assert.equal(r.status, 422, `${JSON.stringify(body)}: ${r.raw}`);
        assert.equal(r.body.code, code);
      }
      // Nothing was left open by the refusals; the smallest amount that fits a tail is accepted.
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      assert.equal((await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '1000' })).status, 201);
    });

    test('an asset with no decimals can be declared: the tail is in the last two units, from a declared amount of 1000', async () => {
      await listAssets(h, { JPY: 0 });
      assert.equal((await h.op('PUT', '/wallets/JPY', { network: 'zengin', address: 'jpy-1' })).status, 200);
      const o = await seedOrg(h);
      const small = await declare(o.key, { assetSymbol: 'JPY', assetDecimals: 0, declaredAmountMinor: '999' });
      assert.equal(small.status, 422, small.raw);
      assert.equal(small.body.code, 'deposits.amount_too_small');

      const r = await declare(o.key, { assetSymbol: 'JPY', assetDecimals: 0, declaredAmountMinor: '150000' });
      assert.equal(r.status, 201, r.raw);
      const x = BigInt(r.body.data.expectedAmountMinor);
      assert.ok(x > 150000n && x <= 150099n, `expected ${x} in (150000, 150099]`);
      assert.equal(r.body.data.expectedAmount, x.toString());
      const paid = await arrive('JPY', x, txid(), 'zengin');
      assert.equal(paid.body.data.state, 'credited');
      assert.equal(await available(h, o.key, 'JPY'), x);

      const smallest = await declare(o.key, { assetSymbol: 'JPY', assetDecimals: 0, declaredAmountMinor: '1000' });
      assert.equal(smallest.status, 201, smallest.raw);
      const y = BigInt(smallest.body.data.expectedAmountMinor);
      assert.ok(y > 1000n && y <= 1099n, `expected ${y} in (1000, 1099]`);
    });

    test('many organizations declaring the same amount in parallel all get different expected amounts', async () => {
      const orgs = await Promise.all(Array.from({ length: 30 }, () => seedOrg(h)));
      const rs = await Promise.all(
        orgs.map((o) => declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '500000' })),
      );
      for (const r of rs) assert.equal(r.status, 201, r.raw);
      const amounts = rs.map((r) => BigInt(r.body.data.expectedAmountMinor));
      assert.equal(new Set(amounts).size, 30);
      for (const a of amounts) assert.ok(a > 500000n && a <= 500099n);
    });

    test('the unique amount is a constraint: when every tail of a band is taken the next declaration gets 503', async () => {
      // TEN has 1 decimal: tails 1..9, so nine open declarations of 10.0 fill the band.
      const orgs = await Promise.all(Array.from({ length: 10 }, () => seedOrg(h)));
      const rs = await Promise.all(
        orgs.slice(0, 9).map((o) => declare(o.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '100' })),
      );
      assert.deepEqual(
        rs.map((r) => r.status),
        Array(9).fill(201),
      );
      assert.deepEqual(
        rs.map((r) => BigInt(r.body.data.expectedAmountMinor)).sort((a, b) => Number(a - b)),
        [101n, 102n, 103n, 104n, 105n, 106n, 107n, 108n, 109n],
      );
      const tenth = await declare(orgs[9]!.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '100' });
      assert.equal(tenth.status, 503);
      assert.equal(tenth.body.code, 'deposits.no_unique_amount');
      assert.equal((await h.call(orgs[9]!.key, 'GET', '/deposits/open-declaration')).body.data, null);
      // A matched amount is not free again at once: it is held back for the quarantine, like the open ones.
      assert.equal((await arrive('TEN', rs[0]!.body.data.expectedAmountMinor)).body.data.state, 'credited');
      assert.equal((await declare(orgs[9]!.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '100' })).status, 503);
      // Once the quarantine after the declarations' expiry has passed, the band is free again.
      (h.clock as ManualClock).advance(TTL_MS + TAIL_QUARANTINE_MS - 1);
      assert.equal((await declare(orgs[9]!.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '100' })).status, 503);
      (h.clock as ManualClock).advance(1);
      const retry = await declare(orgs[9]!.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '100' });
      assert.equal(retry.status, 201, retry.raw);
    });

    test('one organization declaring in parallel gets exactly one 201; the rest are 409', async () => {
      const o = await seedOrg(h);
      const rs = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: String(100000 + i * 1000) }),
        ),
      );
      assert.equal(rs.filter((r) => r.status === 201).length, 1);
      assert.equal(rs.filter((r) => r.status === 409 && r.body.code === 'deposits.declaration_already_open').length, 11);
      const open = await h.call(o.key, 'GET', '/deposits/open-declaration');
      assert.equal(open.body.data.id, rs.find((r) => r.status === 201)!.body.data.id);
    });

    test('an arrival of exactly the expected amount is credited once, and the declaration closes', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5n } });
      const d = (await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '25000000' })).body.data;
      const x = BigInt(d.expectedAmountMinor);
      const before = await books('BTC');

      const id = txid();
      const r = await arrive('BTC', x, id);
      assert.equal(r.status, 201, r.raw);
      assert.equal(r.body.data.state, 'credited');
      assert.equal(r.body.data.organizationId, o.orgId);
      assert.equal(r.body.data.declarationId, d.id);
      assert.equal(await available(h, o.key, 'BTC'), 5n + x);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);

      // The same txid again: 409, nothing credited. The same amount under another txid: the declaration is closed.
      const dup = await arrive('BTC', x, id);
      assert.equal(dup.status, 409);
      assert.equal(dup.body.code, 'deposits.txid_already_recorded');
      const second = await arrive('BTC', x);
      assert.equal(second.body.data.state, 'unattributed');
      assert.equal(await available(h, o.key, 'BTC'), 5n + x);

      const list = await h.call(o.key, 'GET', '/deposits');
      assert.equal(list.status, 200);
      assert.match(list.body.pagination.asOf, /^[A-Za-z0-9_-]{48}$/);
      assert.deepEqual(list.body.pagination, { asOf: list.body.pagination.asOf, page: 1, limit: 10, total: 1, totalPages: 1 });
      assert.deepEqual(list.body.data, [
        {
          id: r.body.data.id,
          state: 'credited',
          money: { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: x.toString() },
          txid: id,
          network: 'bitcoin',
          declarationId: d.id,
          createdAt: r.body.data.createdAt,
          updatedAt: r.body.data.updatedAt,
        },
      ]);
      // The venue's books followed both arrivals; the platform's books agree with them.
      const after = await books('BTC');
      assert.equal(after.venue - before.venue, 2n * x);
      assert.equal(after.market - before.market, -2n * x);
      assert.equal(after.unattributed - before.unattributed, x);
    });

    test('an amount off by one unit stays unattributed; a person attributes it once', async () => {
      const o = await seedOrg(h);
      const other = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '2000000' })).body.data;
      const x = BigInt(d.expectedAmountMinor);
      const before = await books('USD');

      const plus = await arrive('USD', x + 1n);
      const minus = await arrive('USD', x - 1n);
      for (const r of [plus, minus]) {
        assert.equal(r.status, 201);
        assert.equal(r.body.data.state, 'unattributed');
        assert.equal(r.body.data.organizationId, null);
        assert.equal(r.body.data.declarationId, null);
      }
      assert.equal(await available(h, o.key, 'USD'), 0n);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data.id, d.id);
      assert.equal((await h.call(o.key, 'GET', '/deposits')).body.data.length, 0);
      const waiting = await h.op('GET', '/deposits?state=unattributed&limit=100');
      assert.ok(waiting.body.data.some((w: { id: string }) => w.id === plus.body.data.id));
      assert.equal((await books('USD')).unattributed - before.unattributed, 2n * x);

      assert.equal(
        (await h.op('POST', `/deposits/${plus.body.data.id}/attribute`, { organizationId: 'org_nope' })).body.code,
        'organizations.not_found',
      );
      assert.equal((await h.op('POST', '/deposits/dep_nope/attribute', { organizationId: o.orgId })).body.code, 'deposits.not_found');
      const [a1, a2] = await Promise.all([
        h.op('POST', `/deposits/${plus.body.data.id}/attribute`, { organizationId: o.orgId }),
        h.op('POST', `/deposits/${plus.body.data.id}/attribute`, { organizationId: other.orgId }),
      ]);
      assert.deepEqual([a1.status, a2.status].sort(), [200, 409]);
      const winner = a1.status === 200 ? a1 : a2;
      assert.equal((a1.status === 200 ? a2 : a1).body.code, 'deposits.already_attributed');
      assert.equal(winner.body.data.state, 'credited');
      const credited = winner.body.data.organizationId === o.orgId ? o : other;
      const notCredited = credited === o ? other : o;
      assert.equal(await available(h, credited.key, 'USD'), x + 1n);
      assert.equal(await available(h, notCredited.key, 'USD'), 0n);
      assert.equal((await books('USD')).unattributed - before.unattributed, x - 1n);
      const again = await h.op('POST', `/deposits/${plus.body.data.id}/attribute`, { organizationId: credited.orgId });
      assert.equal(again.status, 409);
      assert.equal(await available(h, credited.key, 'USD'), x + 1n);
      // The attribution is audited.
      const audit = await h.op('GET', `/audit?subjectId=${plus.body.data.id}`);
      assert.equal(audit.status, 200);
      assert.deepEqual(
        audit.body.data.map((a: { action: string }) => a.action),
        ['deposit.attribute', 'deposit.arrival'],
      );
    });

    test('an arrival is never matched across assets or networks', async () => {
      const o = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'TEN', assetDecimals: 1, declaredAmountMinor: '1000' })).body.data;
      // Same digits, another asset: unattributed.
      const otherAsset = await arrive('USD', d.expectedAmountMinor);
      assert.equal(otherAsset.body.data.state, 'unattributed');
      // The right amount on another network than the declaration's: recorded, never refused, never matched.
      const wrongNet = await arrive('TEN', d.expectedAmountMinor, txid(), 'mainnet');
      assert.equal(wrongNet.status, 201, wrongNet.raw);
      assert.equal(wrongNet.body.data.state, 'unattributed');
      assert.equal(wrongNet.body.data.network, 'mainnet');
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data.id, d.id);
      assert.equal(await available(h, o.key, 'TEN'), 0n);
      const zero = await arrive('TEN', '0');
      assert.equal(zero.status, 422);
      assert.equal(zero.body.code, 'request.invalid_amount');
    });

    test('a wallet moved to another network strands no open declaration: it matches on the network it was given', async () => {
      const o = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '40000000' })).body.data;
      assert.equal(d.network, 'bitcoin');
      assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin-testnet', address: 'tb1qdemo' })).status, 200);
      try {
        // The exact amount on the wallet's new network: not the network the client was told, so it waits.
        const onNew = await arrive('BTC', d.expectedAmountMinor, txid(), 'bitcoin-testnet');
        assert.equal(onNew.status, 201, onNew.raw);
        assert.equal(onNew.body.data.state, 'unattributed');
        assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data.id, d.id);
        // The exact amount on the declaration's network is recorded and credited, although the wallet moved.
        const onOld = await arrive('BTC', d.expectedAmountMinor, txid(), 'bitcoin');
        assert.equal(onOld.status, 201, onOld.raw);
        assert.equal(onOld.body.data.state, 'credited');
        assert.equal(onOld.body.data.organizationId, o.orgId);
        assert.equal(onOld.body.data.declarationId, d.id);
        assert.equal(await available(h, o.key, 'BTC'), BigInt(d.expectedAmountMinor));
        assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
        // A new declaration is told the new network.
        const next = await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '40000000' });
        assert.equal(next.status, 201, next.raw);
        assert.equal(next.body.data.network, 'bitcoin-testnet');
        // A repeated txid is still a 409, whatever the network.
        const dup = await arrive('BTC', d.expectedAmountMinor, onOld.body.data.txid, 'bitcoin-testnet');
        assert.equal(dup.status, 409);
        assert.equal(dup.body.code, 'deposits.txid_already_recorded');
      } finally {
        assert.equal((await h.op('PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1qdemo' })).status, 200);
      }
    });

    test('the same txid recorded in parallel credits once', async () => {
      const o = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '300000' })).body.data;
      const id = txid();
      const rs = await Promise.all(Array.from({ length: 6 }, () => arrive('USD', d.expectedAmountMinor, id)));
      assert.equal(rs.filter((r) => r.status === 201).length, 1);
      assert.equal(rs.filter((r) => r.status === 409 && r.body.code === 'deposits.txid_already_recorded').length, 5);
      assert.equal(await available(h, o.key, 'USD'), BigInt(d.expectedAmountMinor));
      assert.equal((await h.call(o.key, 'GET', '/deposits')).body.data.length, 1);
    });

    test('expiry closes a declaration whether or not anything reads it, and frees the organization to declare again', async () => {
      const o = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '1000000' })).body.data;
      (h.clock as ManualClock).advance(TTL_MS - 1000);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data.expiresInSeconds, 1);
      (h.clock as ManualClock).advance(1000);
      // The background task closes it without any read.
      const task = backgroundTasks.find((t) => t.name === 'expire-declarations')!;
      await task.run(h.deps);
      const row = await h.store.db.selectFrom('deposit_declarations').select('state').where('id', '=', d.id).executeTakeFirstOrThrow();
      assert.equal(row.state, 'expired');
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      // Money arriving for an expired declaration waits for a person.
      assert.equal((await arrive('BTC', d.expectedAmountMinor)).body.data.state, 'unattributed');
      assert.equal(await available(h, o.key, 'BTC'), 0n);
      const again = await declare(o.key, { assetSymbol: 'BTC', assetDecimals: 8, declaredAmountMinor: '1000000' });
      assert.equal(again.status, 201);
    });

    test('an expected amount stays out of use for a quarantine after its declaration closes, expired or matched', async () => {
      // Always the lowest free tail: without the quarantine the next organization would draw the amount just closed.
      const lowest = { ...h.deps, random: () => 0n };
      const declareLowest = (orgId: string) =>
        declareDeposit(lowest, orgId, { assetSymbol: 'USD', assetDecimals: 2, declaredAmount: 424200n, ttlMs: TTL_MS });
      const [a, b, c] = [await seedOrg(h), await seedOrg(h), await seedOrg(h)];
      const first = await declareLowest(a.orgId);
      assert.equal(first.expectedAmount, 424201n);
      (h.clock as ManualClock).advance(TTL_MS);
      assert.equal((await h.call(a.key, 'GET', '/deposits/open-declaration')).body.data, null);

      // Another organization declaring the same amount never gets the expired declaration's amount...
      const second = await declareLowest(b.orgId);
      assert.equal(second.expectedAmount, 424202n);
      assert.equal(
        (await h.store.db.selectFrom('deposit_declarations').select('state').where('id', '=', first.id).executeTakeFirstOrThrow()).state,
        'expired',
      );
      // ...so a late transfer for it waits for a person instead of being credited to the wrong organization.
      const late = await arrive('USD', first.expectedAmount);
      assert.equal(late.body.data.state, 'unattributed');
      assert.equal(await available(h, b.key, 'USD'), 0n);

      // A matched declaration's amount is held back too (a repeated transfer must not credit someone else).
      const paid = await arrive('USD', second.expectedAmount);
      assert.equal(paid.body.data.state, 'credited');
      assert.equal(paid.body.data.organizationId, b.orgId);
      const third = await declareLowest(c.orgId);
      assert.equal(third.expectedAmount, 424203n);

      // The quarantine counts from each declaration's expiry: the first amount is drawn again once it has
      // passed, while the later ones are still held back.
      (h.clock as ManualClock).advance(TAIL_QUARANTINE_MS - 1);
      assert.equal((await declareLowest(a.orgId)).expectedAmount, 424204n);
      (h.clock as ManualClock).advance(1);
      assert.equal((await declareLowest(b.orgId)).expectedAmount, 424201n);
      assert.equal((await declareLowest(c.orgId)).expectedAmount, 424205n);
    });

    test('expiry is exact even before the background task runs', async () => {
      const o = await seedOrg(h);
      const d = (await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '70000' })).body.data;
      (h.clock as ManualClock).advance(TTL_MS);
      assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      const again = await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '70000' });
      assert.equal(again.status, 201);
      assert.notEqual(again.body.data.id, d.id);
      const old = await h.store.db.selectFrom('deposit_declarations').select('state').where('id', '=', d.id).executeTakeFirstOrThrow();
      assert.equal(old.state, 'expired');
    });

    test("an asset's decimals cannot change while an open declaration, a live quote, or a pending order or withdrawal carries them", async () => {
      const clock = h.clock as ManualClock;
      await listAssets(h, { LKD: 2, LKB: 2, LKQ: 2, LKW: 2 });
      const setDecimals = (symbol: string, decimals: number) => h.op('PUT', `/market/assets/${symbol}`, { decimals });
      const inUse = async (symbol: string) => {
        const r = await setDecimals(symbol, 3);
        assert.equal(r.status, 409, r.raw);
        assert.equal(r.body.code, 'market.decimals_in_use');
      };
      const o = await seedOrg(h, { balances: { LKB: 1_000_000n, LKW: 50_000n } });

      // An open declaration: its expected amount was given in the old decimals. No account holds LKD.
      assert.equal((await h.op('PUT', '/wallets/LKD', { network: 'lk', address: 'lkd-1' })).status, 200);
      assert.equal((await declare(o.key, { assetSymbol: 'LKD', assetDecimals: 2, declaredAmountMinor: '100000' })).status, 201);
      await inUse('LKD');
      assert.equal((await setDecimals('LKD', 2)).status, 200); // the same decimals again is no change
      clock.advance(TTL_MS);
      assert.equal((await setDecimals('LKD', 3)).status, 200); // expired: nothing carries them any more

      // A live quote carries both assets' decimals; an expired one no longer does.
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/LKB/LKQ', {
            midRate: '2.00',
            spreadBps: 50,
            feeBps: 10,
            fixedFeeQuoteMinor: '0',
            minBaseMinor: '100',
            maxBaseMinor: '100000000',
          })
        ).status,
        200,
      );
      const quote = async () => {
        const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'LKB', quoteSymbol: 'LKQ', amountBaseMinor: '10000' });
        assert.equal(q.status, 201, q.raw);
        return q.body.data.id as string;
      };
      await quote();
      await inUse('LKQ');
      clock.advance(h.config.quoteTtlMs);
      assert.equal((await setDecimals('LKQ', 2)).status, 200);

      // A pending order carries its quote side too, though no account holds LKQ yet.
      const placed = await h.call(o.key, 'POST', '/orders', { quoteId: await quote() });
      assert.equal(placed.status, 201, placed.raw);
      await inUse('LKQ');
      await inUse('LKB');
      assert.equal((await h.op('POST', `/orders/${placed.body.data.id}/reject`, {})).status, 200);
      assert.equal((await setDecimals('LKQ', 3)).status, 200);

      // A pending withdrawal.
      const dst = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'LKW account',
        assetSymbol: 'LKW',
        bankName: 'Banco Galicia',
        accountKind: 'savings',
        accountNumber: '400077770001',
        holderName: 'Acme SA',
        holderDocument: '30-71234567-1',
      });
      assert.equal(dst.status, 201, dst.raw);
      assert.equal((await h.op('POST', `/destinations/${dst.body.data.id}/register-in-market`)).status, 200);
      clock.advance(h.config.destinationCooldownMs);
      const w = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: dst.body.data.id,
        assetSymbol: 'LKW',
        assetDecimals: 2,
        amountMinor: '20000',
      });
      assert.equal(w.status, 201, w.raw);
      await inUse('LKW');
      assert.equal((await h.op('POST', `/withdrawals/${w.body.data.id}/reject`, {})).status, 200);
      // Once nothing pending carries them, balances still lock them.
      const locked = await setDecimals('LKW', 3);
      assert.equal(locked.status, 409);
      assert.equal(locked.body.code, 'market.decimals_locked');
    });

    test('while the books are not reconciled a declaration is stopped (409); reads go on', async () => {
      const o = await seedOrg(h);
      const run = await h.op('POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] });
      assert.equal(run.status, 200, run.raw);
      try {
        const r = await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '80000' });
        assert.equal(r.status, 409);
        assert.equal(r.body.code, 'ledger.ledger_not_reconciled');
        assert.equal((await h.call(o.key, 'GET', '/deposits/wallets')).status, 200);
        assert.equal((await h.call(o.key, 'GET', '/deposits/open-declaration')).body.data, null);
      } finally {
        assert.equal((await h.op('POST', '/reconciliation/resolve')).status, 200);
      }
      assert.equal((await declare(o.key, { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '80000' })).status, 201);
    });
  });
}
