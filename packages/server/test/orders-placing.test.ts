import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { DomainError } from '../src/domain/errors.ts';
import type { Organization } from '../src/domain/organizations/organization.ts';
import { QuoteIds } from '../src/domain/quotes/quote-id.ts';
import { placeOrder } from '../src/usecases/orders/place-order.ts';
import { available, backends, btcUsdMarket, held, makeHarness, seedOrg, type Harness, type SeededOrg } from './harness.ts';

/** The ledger's own invariants for one organization and asset: balances are the sums of their postings, held the sum of active holds. */
async function assertBooks(h: Harness, orgId: string, asset: string) {
  const sums = await sql<{ kind: string; s: string }>`select account_kind as kind, coalesce(sum(amount), 0)::text as s from postings
    where owner_id = ${orgId} and asset_symbol = ${asset} group by 1`.execute(h.store.db);
  const bal = await h.store.db
    .selectFrom('accounts')
    .select(['kind', 'balance'])
    .where('owner_id', '=', orgId)
    .where('asset_symbol', '=', asset)
    .execute();
  for (const b of bal)
    assert.equal(BigInt(b.balance), BigInt(sums.rows.find((r) => r.kind === b.kind)?.s ?? '0'), `${orgId} ${asset} ${b.kind}`);
  const holds = await sql<{
    s: string;
  }>`select coalesce(sum(amount), 0)::text as s from holds where organization_id = ${orgId} and asset_symbol = ${asset} and state = 'active'`.execute(
    h.store.db,
  );
  assert.equal(BigInt(bal.find((b) => b.kind === 'held')?.balance ?? '0'), BigInt(holds.rows[0]!.s));
  const unbalanced = await sql<{
    n: string;
  }>`select count(*)::text as n from (select entry_id from postings group by entry_id, asset_symbol having sum(amount) <> 0) x`.execute(
    h.store.db,
  );
  assert.equal(unbalanced.rows[0]!.n, '0');
}

for (const backend of backends()) {
  describe(`orders placed by their use case [${backend}]`, () => {
    let h: Harness;
    let org = async (_o: SeededOrg): Promise<Organization> => {
      throw new Error('unset');
    };
    before(async () => {
      h = await makeHarness({ backend });
      await btcUsdMarket(h);
      org = async (o) => (await h.store.organizations.get(o.orgId))!;
    });
    after(async () => h?.close());
    /** Places each quote by the use case, one after the other: the order's quote id, or the refusal's code. */
    const placeAll = async (ps: Array<{ org: Organization; quoteId: string }>) => {
      const out: string[] = [];
      for (const p of ps) out.push(await place(p.org, p.quoteId));
      return out;
    };
    const place = (org: Organization, quoteId: string) =>
      placeOrder({ ...h.deps, quoteIds: new QuoteIds(h.deps.secret, h.deps.ids) }, org, quoteId).then(
        (o) => o.quoteId,
        (e: unknown) => {
          if (e instanceof DomainError) return e.code;
          throw e;
        },
      );

    const quote = async (o: SeededOrg, amountBaseMinor: bigint) => {
      const r = await h.call(o.key, 'POST', '/quotes', {
        baseSymbol: 'BTC',
        quoteSymbol: 'USD',
        amountBaseMinor: amountBaseMinor.toString(),
      });
      assert.equal(r.status, 201, r.raw);
      return r.body.data.id as string;
    };

    test('places what it can for certain, says why it refused every other quote, and leaves those untouched', async () => {
      const a = await seedOrg(h, { balances: { BTC: 6_000_000n } });
      const b = await seedOrg(h, { balances: { BTC: 3_000_000n }, limits: { BTC: { maxOrderMinor: '1500000' } } });
      const c = await seedOrg(h, { balances: { BTC: 1_500_000n } }); // backs one of its two orders, not their sum
      const [a1, a2, a3] = [await quote(a, 1_000_000n), await quote(a, 2_000_000n), await quote(a, 1_500_000n)];
      const [b1, bOverCap] = [await quote(b, 1_000_000n), await quote(b, 2_000_000n)];
      const [c1, c2] = [await quote(c, 1_000_000n), await quote(c, 1_000_000n)];
      const used = await quote(a, 1_000_000n);
      assert.equal((await h.call(a.key, 'POST', '/orders', { quoteId: used })).status, 201);
      const [A, B, C] = [await org(a), await org(b), await org(c)];

      const out = await placeAll([
        { org: A, quoteId: a1 },
        { org: B, quoteId: b1 },
        { org: A, quoteId: a2 },
        { org: C, quoteId: c1 },
        { org: B, quoteId: bOverCap },
        { org: A, quoteId: a3 },
        { org: C, quoteId: c2 },
        { org: A, quoteId: used },
        { org: B, quoteId: a1 },
        { org: A, quoteId: a1.replace(/.$/, (c) => (c === '0' ? '1' : '0')) },
        { org: B, quoteId: c1 },
      ]);
      assert.deepEqual(out, [
        a1,
        b1,
        a2,
        c1,
        'orders.limit_exceeded',
        a3,
        'ledger.insufficient_balance',
        'orders.quote_already_used',
        'orders.quote_not_found',
        'orders.quote_not_found',
        'orders.quote_not_found',
      ]);
      // a: 4.5 more held (beside the 0.01 placed earlier); b: 1 of 3; c: 1 of 1.5 (its second did not fit).
      assert.deepEqual([await available(h, a.key, 'BTC'), await held(h, a.key, 'BTC')], [500_000n, 5_500_000n]);
      assert.deepEqual([await available(h, b.key, 'BTC'), await held(h, b.key, 'BTC')], [2_000_000n, 1_000_000n]);
      assert.deepEqual([await available(h, c.key, 'BTC'), await held(h, c.key, 'BTC')], [500_000n, 1_000_000n]);
      const consumed = await h.store.db.selectFrom('quotes').select(['id', 'consumed_at']).where('id', 'in', [c2, bOverCap]).execute();
      assert.ok(
        consumed.every((q) => q.consumed_at === null),
        'a refused quote is not consumed',
      );
      for (const o of [a, b, c]) await assertBooks(h, o.orgId, 'BTC');

      // Over HTTP, the same answers.
      const c2r = await h.call(c.key, 'POST', '/orders', { quoteId: c2 });
      assert.deepEqual([c2r.status, c2r.body.code], [422, 'ledger.insufficient_balance']);
      const cap = await h.call(b.key, 'POST', '/orders', { quoteId: bOverCap });
      assert.deepEqual([cap.status, cap.body.code], [422, 'orders.limit_exceeded']);
      await assertBooks(h, c.orgId, 'BTC');
    });

    test('a quote priced in decimals the market no longer uses is not placed (410, nothing held)', async () => {
      const a = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const qs = [await quote(a, 1_000_000n), await quote(a, 1_000_000n)];
      const A = await org(a);
      // A change of decimals racing the quote (the operator API refuses it while quotes are live).
      await sql`update market_assets set decimals = 6 where symbol = 'USD'`.execute(h.store.db);
      try {
        const out = await placeAll(qs.map((quoteId) => ({ org: A, quoteId })));
        assert.deepEqual(out, ['orders.quote_expired', 'orders.quote_expired']);
        const r = await h.call(a.key, 'POST', '/orders', { quoteId: qs[0] });
        assert.deepEqual([r.status, r.body.code], [410, 'orders.quote_expired']);
      } finally {
        await sql`update market_assets set decimals = 2 where symbol = 'USD'`.execute(h.store.db);
      }
      assert.equal(await held(h, a.key, 'BTC'), 0n);
    });

    test('while not reconciled nothing is placed', async () => {
      const a = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const qs = [await quote(a, 1_000_000n), await quote(a, 1_000_000n)];
      const A = await org(a);
      await sql`update platform_state set reconciled = false where id = 1`.execute(h.store.db);
      try {
        const out = await placeAll(qs.map((quoteId) => ({ org: A, quoteId })));
        assert.deepEqual(out, ['ledger.ledger_not_reconciled', 'ledger.ledger_not_reconciled']);
      } finally {
        await sql`update platform_state set reconciled = true where id = 1`.execute(h.store.db);
      }
      assert.equal(await held(h, a.key, 'BTC'), 0n);
    });

    test('the same quote accepted twice at once: one places it, the other answers used (its quote read after the winner committed)', async () => {
      const a = await seedOrg(h, { balances: { BTC: 6_000_000n } });
      const A = await org(a);
      for (let round = 0; round < 5; round++) {
        const id = await quote(a, 1_000_000n);
        const outs = await Promise.all([1, 2].map(() => place(A, id)));
        assert.deepEqual(outs.sort(), [id, 'orders.quote_already_used'].sort());
      }
      assert.deepEqual([await available(h, a.key, 'BTC'), await held(h, a.key, 'BTC')], [1_000_000n, 5_000_000n]);
      await assertBooks(h, a.orgId, 'BTC');
    });

    test('many quotes of many organizations accepted at once: every order placed once, every hold exact', async () => {
      const orgs = await Promise.all(Array.from({ length: 6 }, () => seedOrg(h, { balances: { BTC: 10_000_000n } })));
      const quotes = await Promise.all(orgs.flatMap((o) => Array.from({ length: 5 }, async () => ({ o, id: await quote(o, 1_000_000n) }))));
      // Every quote twice: the second acceptance of each must fail, whoever wins.
      const answers = await Promise.all([...quotes, ...quotes].map((q) => h.call(q.o.key, 'POST', '/orders', { quoteId: q.id })));
      assert.equal(answers.filter((r) => r.status === 201).length, 30);
      assert.deepEqual(
        [...new Set(answers.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.code}`))],
        ['410 orders.quote_already_used'],
      );
      for (const o of orgs) {
        assert.deepEqual([await available(h, o.key, 'BTC'), await held(h, o.key, 'BTC')], [5_000_000n, 5_000_000n]);
        await assertBooks(h, o.orgId, 'BTC');
      }
      const orders = await h.store.db
        .selectFrom('orders')
        .select(({ fn }) => fn.countAll<string>().as('n'))
        .where(
          'quote_id',
          'in',
          quotes.map((q) => q.id),
        )
        .executeTakeFirstOrThrow();
      assert.equal(Number(orders.n), 30);
    });
  });
}
