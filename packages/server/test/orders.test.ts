import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QUOTE_RETENTION_MS } from '../src/background.ts';
import type { ManualClock } from '../src/domain/ports.ts';
import { recoverApproved } from '../src/usecases/orders/execute-approved.ts';
import { available, backends, BTC_USD, held, listAssets, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';
import { kyselyOf } from '../src/store/unit-of-work.ts';

// BTC/USD at 65000.00, spread 0.5%, venue fee 0.1% + 1.00 USD: 0.01 BTC (1000000) → client 64675, venue pays 64835.
const A = 1_000_000n;
const Q = 64_675n;
const PROCEEDS = 64_835n;

const setReconciled = (h: Harness, reconciled: boolean) =>
  h.store.db.updateTable('platform_state').set({ reconciled }).where('id', '=', 1).execute();

async function quote(
  h: Harness,
  o: SeededOrg,
  body: Record<string, unknown> = { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: A.toString() },
): Promise<string> {
  const r = await h.call(o.key, 'POST', '/quotes', body);
  assert.equal(r.status, 201, r.raw);
  return r.body.data.id;
}
const order = (h: Harness, o: SeededOrg, quoteId: string) => h.call(o.key, 'POST', '/orders', { quoteId });
async function placed(h: Harness, o: SeededOrg, body?: Record<string, unknown>): Promise<string> {
  const r = await order(h, o, await quote(h, o, body));
  assert.equal(r.status, 201, r.raw);
  return r.body.data.id;
}

/** The platform's own books and the venue's, per asset: reconciliation compares −market with the venue. */
async function platformBooks(h: Harness, asset: string) {
  const acc = await h.store.db
    .selectFrom('accounts')
    .select(['kind', 'balance'])
    .where('owner_id', '=', 'platform')
    .where('asset_symbol', '=', asset)
    .execute();
  const venue = await h.store.db.selectFrom('venue_balances').select('amount').where('asset_symbol', '=', asset).executeTakeFirst();
  const k = (kind: string) => BigInt(acc.find((a) => a.kind === kind)?.balance ?? '0');
  return { market: k('market'), revenue: k('revenue'), venue: BigInt(venue?.amount ?? '0') };
}

for (const backend of backends()) {
  describe(`orders [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true, env: { CAMBIO_QUOTE_TTL_MS: '15000' } });
      await listAssets(h, { USD: 2, BTC: 8, ETH: 18 });
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', BTC_USD)).status, 200);
    });
    after(async () => h?.close());

    test('accepting a quote creates a pending request and holds the base amount; the list shows it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const quoteId = await quote(h, o);
      const r = await order(h, o, quoteId);
      assert.equal(r.status, 201, r.raw);
      const d = r.body.data;
      assert.match(d.id, /^ord_/);
      assert.deepEqual(d, {
        id: d.id,
        state: 'pending_approval',
        quoteId,
        base: { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '1000000' },
        quote: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '64675' },
        rateQuoteMinor: '6467500',
        reason: null,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      });
      assert.equal(await available(h, o.key, 'BTC'), 2_000_000n);
      assert.equal(await held(h, o.key, 'BTC'), A);
      const list = await h.call(o.key, 'GET', '/orders');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.data, [d]);
      assert.match(list.body.pagination.asOf, /^[A-Za-z0-9_-]{48}$/);
      assert.deepEqual(list.body.pagination, { asOf: list.body.pagination.asOf, page: 1, limit: 10, total: 1, totalPages: 1 });
      const ledger = (await h.call(o.key, 'GET', '/ledger')).body.data;
      assert.deepEqual(
        ledger
          .slice(0, 2)
          .map((p: { kind: string; account: string; amountMinor: string; referenceId: string }) => [
            p.kind,
            p.account,
            p.amountMinor,
            p.referenceId,
          ])
          .sort(),
        [
          ['order_hold', 'available', '-1000000', d.id],
          ['order_hold', 'held', '1000000', d.id],
        ],
      );
    });

    test('a quote is accepted once: the second acceptance is 410 orders.quote_already_used and creates nothing', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const quoteId = await quote(h, o);
      assert.equal((await order(h, o, quoteId)).status, 201);
      const again = await order(h, o, quoteId);
      assert.equal(again.status, 410);
      assert.equal(again.body.code, 'orders.quote_already_used');
      assert.equal((await h.call(o.key, 'GET', '/orders')).body.pagination.total, 1);
      assert.equal(await held(h, o.key, 'BTC'), A);
      // still "used", not "expired", once its window has also closed
      (h.clock as ManualClock).advance(15_001);
      assert.equal((await order(h, o, quoteId)).body.code, 'orders.quote_already_used');
    });

    test('an expired quote is 410 orders.quote_expired; the window ends exactly at expiresAt', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const clock = h.clock as ManualClock;
      const early = await quote(h, o);
      const late = await quote(h, o);
      clock.advance(14_999);
      assert.equal((await order(h, o, early)).status, 201);
      clock.advance(1);
      const r = await order(h, o, late);
      assert.equal(r.status, 410);
      assert.equal(r.body.code, 'orders.quote_expired');
      assert.equal((await h.call(o.key, 'GET', '/orders')).body.pagination.total, 1);
      assert.equal(await held(h, o.key, 'BTC'), A);
    });

    test('unaccepted quotes are purged a day after they expire; accepted ones stay; a purged one is still 410 to its organization only', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const clock = h.clock as ManualClock;
      const accepted = await quote(h, o);
      const unaccepted = await quote(h, o);
      assert.equal((await order(h, o, accepted)).status, 201);
      clock.advance(15_000);
      const purge = (at: Date) => h.store.quotes.purgeExpired(new Date(at.getTime() - QUOTE_RETENTION_MS));
      clock.advance(QUOTE_RETENTION_MS - 1);
      await purge(clock.now());
      assert.equal(
        (await order(h, o, unaccepted)).body.code,
        'orders.quote_expired',
        'kept for a day: a late acceptance learns it expired',
      );
      clock.advance(2);
      assert.ok((await purge(clock.now())) >= 1);
      const ids = (await h.store.db.selectFrom('quotes').select('id').where('id', 'in', [accepted, unaccepted]).execute()).map((r) => r.id);
      assert.deepEqual(ids, [accepted]);
      const late = await order(h, o, unaccepted);
      assert.deepEqual([late.status, late.body.code], [410, 'orders.quote_expired']);
      const stranger = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const foreign = await order(h, stranger, unaccepted);
      assert.deepEqual([foreign.status, foreign.body.code], [404, 'orders.quote_not_found']);
      const forged = await order(
        h,
        o,
        unaccepted.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0')),
      );
      assert.deepEqual([forged.status, forged.body.code], [404, 'orders.quote_not_found']);
    });

    test("another organization's quote, or no quote at all, is 404 orders.quote_not_found", async () => {
      const owner = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const other = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const quoteId = await quote(h, owner);
      for (const id of [quoteId, 'quo_nope']) {
        const r = await order(h, other, id);
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 'orders.quote_not_found');
      }
      assert.equal(await held(h, other.key, 'BTC'), 0n);
      assert.equal((await order(h, owner, quoteId)).status, 201); // untouched by the other's attempt
    });

    test('insufficient balance and a limit are 422 and leave the quote usable', async () => {
      const o = await seedOrg(h, { balances: { BTC: 999_999n } });
      const quoteId = await quote(h, o);
      const poor = await order(h, o, quoteId);
      assert.equal(poor.status, 422);
      assert.equal(poor.body.code, 'ledger.insufficient_balance');
      assert.equal(await available(h, o.key, 'BTC'), 999_999n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'BTC', amountMinor: '1', reason: 'top up' });
      assert.equal((await order(h, o, quoteId)).status, 201);

      const capped = await seedOrg(h, { balances: { BTC: 3_000_000n }, limits: { BTC: { maxOrderMinor: '999999' }, USD: {} } });
      const capQuote = await quote(h, capped);
      const over = await order(h, capped, capQuote);
      assert.equal(over.status, 422);
      assert.equal(over.body.code, 'orders.limit_exceeded');
      assert.equal(await held(h, capped.key, 'BTC'), 0n);
      await h.op('PATCH', `/organizations/${capped.orgId}`, { limits: { BTC: { maxOrderMinor: '1000000' } } });
      assert.equal((await order(h, capped, capQuote)).status, 201); // at the cap exactly
    });

    test('403 without portal:trade or when the organization cannot operate; 409 while not reconciled', async () => {
      const reader = await seedOrg(h, { balances: { BTC: 3_000_000n }, scopes: ['portal:read'] });
      const r1 = await order(h, reader, await quote(h, reader));
      assert.equal(r1.status, 403);
      assert.equal(r1.body.code, 'auth.scope_missing');

      const suspended = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const sq = await quote(h, suspended);
      await h.op('PATCH', `/organizations/${suspended.orgId}`, { status: 'suspended' });
      const r2 = await order(h, suspended, sq);
      assert.equal(r2.status, 403);
      assert.equal(r2.body.code, 'clients.client_cannot_operate');
      const unlimited = await seedOrg(h, { balances: { BTC: 3_000_000n }, limits: null });
      const r3 = await order(h, unlimited, await quote(h, unlimited));
      assert.equal(r3.status, 403);
      assert.equal(r3.body.code, 'clients.client_cannot_operate');

      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const q = await quote(h, o);
      await setReconciled(h, false);
      try {
        const r4 = await order(h, o, q);
        assert.equal(r4.status, 409);
        assert.equal(r4.body.code, 'ledger.ledger_not_reconciled');
      } finally {
        await setReconciled(h, true);
      }
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal((await order(h, o, q)).status, 201);
    });

    test('approval executes at the venue and settles: held base out, quote in, revenue booked, books and venue agree', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n, USD: 500n } });
      const id = await placed(h, o);
      const btc0 = await platformBooks(h, 'BTC');
      const usd0 = await platformBooks(h, 'USD');

      const pending = await h.op('GET', '/orders?state=pending_approval&limit=100');
      assert.ok(pending.body.data.some((x: { id: string; organizationId: string }) => x.id === id && x.organizationId === o.orgId));
      const r = await h.op('POST', `/orders/${id}/approve`, { reason: 'ok by desk' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'completed');
      assert.equal(r.body.data.proceedsQuoteMinor, PROCEEDS.toString());
      assert.equal(r.body.data.organizationId, o.orgId);
      assert.equal(r.body.data.reason, null);

      assert.equal(await available(h, o.key, 'BTC'), 2_000_000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 500n + Q);
      const mine = (await h.call(o.key, 'GET', '/orders')).body.data[0];
      assert.equal(mine.state, 'completed');
      assert.equal(mine.quote.amountMinor, '64675');

      const ledger = (await h.call(o.key, 'GET', '/ledger')).body.data;
      const settlement = ledger.filter((p: { kind: string }) => p.kind === 'order_settlement');
      assert.deepEqual(
        settlement
          .map((p: { account: string; assetSymbol: string; amountMinor: string; referenceId: string }) => [
            p.assetSymbol,
            p.account,
            p.amountMinor,
            p.referenceId,
          ])
          .sort(),
        [
          ['BTC', 'held', '-1000000', id],
          ['USD', 'available', '64675', id],
        ],
      );
      // the entry balances per asset, counting the platform's postings
      const entryId = settlement[0].entryId;
      const postings = await h.store.db
        .selectFrom('postings')
        .select(['asset_symbol', 'owner_id', 'account_kind', 'amount'])
        .where('entry_id', '=', entryId)
        .execute();
      for (const asset of ['BTC', 'USD'])
        assert.equal(
          postings.filter((p) => p.asset_symbol === asset).reduce((s, p) => s + BigInt(p.amount), 0n),
          0n,
        );

      const btc1 = await platformBooks(h, 'BTC');
      const usd1 = await platformBooks(h, 'USD');
      assert.equal(btc1.venue - btc0.venue, -A);
      assert.equal(usd1.venue - usd0.venue, PROCEEDS);
      assert.equal(usd1.revenue - usd0.revenue, PROCEEDS - Q);
      assert.equal(-btc1.market, btc1.venue);
      assert.equal(-usd1.market, usd1.venue);

      const audit = await h.op('GET', `/audit?subjectId=${id}`);
      assert.deepEqual(
        audit.body.data.map((a: { action: string }) => a.action),
        ['order.complete', 'order.approve'],
      );
      assert.equal(audit.body.data[1].after.note, 'ok by desk');

      const again = await h.op('POST', `/orders/${id}/approve`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'orders.already_decided');
      const rej = await h.op('POST', `/orders/${id}/reject`);
      assert.equal(rej.status, 409);
      assert.equal(await available(h, o.key, 'USD'), 500n + Q);
    });

    test('rejection releases the hold once and tells the client why', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const id = await placed(h, o);
      const r = await h.op('POST', `/orders/${id}/reject`, { reason: 'outside trading hours' });
      assert.equal(r.status, 200, r.raw);
      assert.equal(r.body.data.state, 'rejected');
      assert.equal(await available(h, o.key, 'BTC'), 3_000_000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      const mine = (await h.call(o.key, 'GET', '/orders')).body.data[0];
      assert.deepEqual([mine.state, mine.reason], ['rejected', 'outside trading hours']);
      for (const action of ['reject', 'approve']) {
        const again = await h.op('POST', `/orders/${id}/${action}`);
        assert.equal(again.status, 409);
        assert.equal(again.body.code, 'orders.already_decided');
        assert.equal(again.body.message, 'The exchange request was already decided (rejected).');
      }
      assert.equal(await available(h, o.key, 'BTC'), 3_000_000n);
      const unknown = await h.op('POST', '/orders/ord_nope/approve');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'orders.not_found');
    });

    test('a venue failure after approval leaves the order failed, the hold released and nothing credited', async () => {
      const ethUsd = {
        midRate: '3000.5',
        spreadBps: 30,
        feeBps: 10,
        fixedFeeQuoteMinor: 0,
        minBaseMinor: 1,
        maxBaseMinor: '1000000000000000000000',
      };
      assert.equal((await h.op('PUT', '/market/pairs/ETH/USD', ethUsd)).status, 200);
      const o = await seedOrg(h, { balances: { ETH: 10n ** 19n } });
      const body = { baseSymbol: 'ETH', quoteSymbol: 'USD', amountBaseMinor: (10n ** 18n).toString() };
      const unpriced = await placed(h, o, body);
      const moved = await placed(h, o, body);
      const usdVenue = (await platformBooks(h, 'USD')).venue;

      assert.equal((await h.op('DELETE', '/market/pairs/ETH/USD')).status, 200);
      const r1 = await h.op('POST', `/orders/${unpriced}/approve`);
      assert.equal(r1.status, 200, r1.raw);
      assert.equal(r1.body.data.state, 'failed');
      assert.equal(r1.body.data.reason, 'the market no longer prices ETH/USD');

      // repriced lower: the venue would pay less than the 2991.49 USD the order owes
      assert.equal((await h.op('PUT', '/market/pairs/ETH/USD', { ...ethUsd, midRate: '2900' })).status, 200);
      const r2 = await h.op('POST', `/orders/${moved}/approve`);
      assert.equal(r2.body.data.state, 'failed');
      assert.match(r2.body.data.reason, /price moved/);

      assert.equal(await available(h, o.key, 'ETH'), 10n ** 19n);
      assert.equal(await held(h, o.key, 'ETH'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 0n);
      assert.equal((await platformBooks(h, 'USD')).venue, usdVenue);
      const mine = (await h.call(o.key, 'GET', '/orders')).body.data;
      assert.deepEqual(
        mine.map((x: { state: string }) => x.state),
        ['failed', 'failed'],
      );
      assert.equal((await h.op('POST', `/orders/${moved}/approve`)).status, 409);
      await h.op('DELETE', '/market/pairs/ETH/USD');
    });

    test('concurrency: a balance that backs exactly 5 orders, 20 quotes accepted in parallel → 5 orders, 15 refusals', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5n * A } });
      const quoteIds: string[] = [];
      for (let i = 0; i < 20; i++) quoteIds.push(await quote(h, o));
      const results = await Promise.all(quoteIds.map((q) => order(h, o, q)));
      const created = results.filter((r) => r.status === 201);
      const refused = results.filter((r) => r.status !== 201);
      assert.equal(created.length, 5);
      assert.equal(refused.length, 15);
      for (const r of refused) assert.deepEqual([r.status, r.body.code], [422, 'ledger.insufficient_balance']);
      assert.equal(await available(h, o.key, 'BTC'), 0n);
      assert.equal(await held(h, o.key, 'BTC'), 5n * A);
      assert.equal((await h.call(o.key, 'GET', '/orders?limit=100')).body.pagination.total, 5);
      const negative = await h.store.db
        .selectFrom('accounts')
        .select('balance')
        .where('owner_id', '=', o.orgId)
        .where('balance', '<', '0')
        .execute();
      assert.deepEqual(negative, []);
      const holds = await h.store.db
        .selectFrom('holds')
        .select('amount')
        .where('organization_id', '=', o.orgId)
        .where('state', '=', 'active')
        .execute();
      assert.deepEqual(
        holds.map((x) => BigInt(x.amount)),
        [A, A, A, A, A],
      );
    });

    test('concurrency: twenty parallel approvals of one order settle it once', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const id = await placed(h, o);
      const results = await Promise.all(Array.from({ length: 20 }, () => h.op('POST', `/orders/${id}/approve`)));
      const won = results.filter((r) => r.status === 200);
      assert.equal(won.length, 1);
      assert.equal(won[0]!.body.data.state, 'completed');
      for (const r of results.filter((x) => x.status !== 200)) assert.deepEqual([r.status, r.body.code], [409, 'orders.already_decided']);
      assert.equal(await available(h, o.key, 'USD'), Q);
      assert.equal(await available(h, o.key, 'BTC'), 2_000_000n);
      const executions = await h.store.db.selectFrom('venue_executions').select('order_id').where('order_id', '=', id).execute();
      assert.equal(executions.length, 1);
      const entries = await h.store.db.selectFrom('journal_entries').select('kind').where('reference_id', '=', id).execute();
      assert.deepEqual(entries.map((e) => e.kind).sort(), ['order_execution', 'order_hold', 'order_settlement']);
    });

    test('an order left approved by a crash is settled once by recovery, whether or not the venue had executed it', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const market = h.deps.venue;
      const markApproved = (id: string) =>
        h.store.uow.run(async (tx) => (await h.store.orders.decide(kyselyOf(tx), id, 'approved', h.clock.now(), null)).after);
      // crash after the decision, before the venue
      const a = await placed(h, o);
      await markApproved(a);
      // crash after the venue filled, before the settlement
      const b = await placed(h, o);
      const approvedB = await markApproved(b);
      const fill = await market.execute({
        orderId: b,
        baseSymbol: 'BTC',
        quoteSymbol: 'USD',
        amountBaseMinor: A,
        minProceedsQuoteMinor: Q,
        baseDecimals: 8,
        quoteDecimals: 2,
      });
      assert.deepEqual(fill, { filled: true, proceedsQuoteMinor: PROCEEDS });
      assert.equal(approvedB.state, 'approved');
      assert.equal(await available(h, o.key, 'USD'), 0n);
      // the venue books a fill with its settlement: meanwhile the books and the venue still agree
      for (const asset of ['BTC', 'USD']) {
        const books = await platformBooks(h, asset);
        assert.equal(-books.market, books.venue, asset);
      }

      // not yet: a live approval may still be settling it
      assert.deepEqual(await recoverApproved(h.deps), []);
      (h.clock as ManualClock).advance(30_001);
      const settled = await recoverApproved(h.deps);
      assert.deepEqual(
        settled
          .filter((x) => x.organizationId === o.orgId)
          .map((x) => [x.id, x.state])
          .sort(),
        [
          [a, 'completed'],
          [b, 'completed'],
        ].sort(),
      );
      assert.equal(await available(h, o.key, 'USD'), 2n * Q);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
      const executions = await h.store.db
        .selectFrom('venue_executions')
        .select(['order_id', 'booked_at'])
        .where('order_id', 'in', [a, b])
        .execute();
      assert.equal(executions.length, 2);
      assert.ok(executions.every((e) => e.booked_at !== null));
      for (const asset of ['BTC', 'USD']) {
        const books = await platformBooks(h, asset);
        assert.equal(-books.market, books.venue, asset);
      }
      assert.deepEqual(await recoverApproved(h.deps), []);
    });

    test('approval waits while the books are not reconciled; rejection does not', async () => {
      const o = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const a = await placed(h, o);
      const b = await placed(h, o);
      await setReconciled(h, false);
      try {
        const r = await h.op('POST', `/orders/${a}/approve`);
        assert.equal(r.status, 409);
        assert.equal(r.body.code, 'ledger.ledger_not_reconciled');
        assert.equal((await h.op('POST', `/orders/${b}/reject`)).status, 200);
      } finally {
        await setReconciled(h, true);
      }
      assert.equal((await h.op('POST', `/orders/${a}/approve`)).body.data.state, 'completed');
    });

    test('the operator lists orders across organizations by state, newest first', async () => {
      const o1 = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const o2 = await seedOrg(h, { balances: { BTC: 3_000_000n } });
      const first = await placed(h, o1);
      const second = await placed(h, o2);
      await h.op('POST', `/orders/${first}/reject`);
      const pending = (await h.op('GET', '/orders?state=pending_approval&limit=100')).body.data.map((x: { id: string }) => x.id);
      assert.ok(pending.includes(second) && !pending.includes(first));
      const rejected = await h.op('GET', '/orders?state=rejected&limit=1');
      assert.equal(rejected.body.data[0].id, first);
      assert.equal(rejected.body.data[0].organizationId, o1.orgId);
      const all = (await h.op('GET', '/orders?limit=2')).body.data.map((x: { id: string }) => x.id);
      assert.deepEqual(all, [second, first]);
      const bad = await h.op('GET', '/orders?state=done');
      assert.equal(bad.status, 400);
    });
  });
}
