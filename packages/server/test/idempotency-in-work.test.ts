import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { QUOTE_RETENTION_MS } from '../src/background.ts';
import { IDEMPOTENCY_KEPT_MS } from '../src/domain/idempotency/retention.ts';
import {
  available,
  backends,
  btcUsdMarket,
  held,
  makeHarness,
  seedOrg,
  usableDestination,
  type Harness,
  type SeededOrg,
} from './harness.ts';

let n = 0;
const freshKey = () => `in-work-${Date.now()}-${++n}`;

/**
 * Quotes, orders and withdrawals keep an Idempotency-Key's answer, a reference to the record, in the work's own
 * transaction (store/unit-of-work.ts): the answer exists exactly when the work committed.
 */
for (const backend of backends()) {
  describe(`Idempotency-Key answers kept by the work itself [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await btcUsdMarket(h);
    });
    after(async () => h?.close());

    const quote = async (o: SeededOrg, key?: string) =>
      h.call(
        o.key,
        'POST',
        '/quotes',
        { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' },
        key ? { 'idempotency-key': key } : {},
      );
    const count = async (o: SeededOrg, path: string) => (await h.call(o.key, 'GET', path)).body.pagination.total as number;
    /** The key's kept answer is a reference (`r1.…`) naming the record `id`, not a sealed copy. */
    async function keptByRef(key: string, id: string): Promise<void> {
      const [row] = (
        await sql<{ state: string; response: string }>`select state, response from idempotency_keys where key = ${key}`.execute(h.store.db)
      ).rows;
      assert.equal(row?.state, 'done');
      assert.match(row?.response ?? '', /^r1\./, 'a reference, not the sealed answer');
      assert.ok(row?.response.includes(id));
    }
    /** A replay of `first`: 201, marked replayed, byte for byte the first answer (its trace id and timestamp too). */
    function assertReplay(again: Awaited<ReturnType<Harness['call']>>, first: Awaited<ReturnType<Harness['call']>>): void {
      assert.equal(again.status, 201, again.raw);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.raw, first.raw, 'byte for byte the first answer');
    }
    const quoteRows = async (o: SeededOrg) =>
      Number(
        (await sql<{ n: string }>`select count(*) as n from quotes where organization_id = ${o.orgId}`.execute(h.store.db)).rows[0]!.n,
      );

    /**
     * What a crash right after the work committed leaves: no answer kept after the response. With the
     * answer in the work's transaction, the retry still replays it instead of meeting a claim in flight
     * (and, once its lease lapsed, running the request a second time).
     */
    async function withoutLateKeeping<T>(run: () => Promise<T>): Promise<T> {
      const store = h.store.idempotency;
      const complete = store.complete.bind(store);
      store.complete = async () => {
        throw new Error('the process died before keeping the answer');
      };
      try {
        return await run();
      } finally {
        store.complete = complete;
      }
    }

    test('a quote, an order and a withdrawal replay their first answer byte for byte with nothing kept after the response', async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n, USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      const [kq, ko, kw] = [freshKey(), freshKey(), freshKey()];
      const withdraw = () =>
        h.call(
          o.key,
          'POST',
          '/withdrawals',
          { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' },
          { 'idempotency-key': kw },
        );
      const first = await withoutLateKeeping(async () => {
        const q = await quote(o, kq);
        const order = await h.call(o.key, 'POST', '/orders', { quoteId: q.body.data.id }, { 'idempotency-key': ko });
        return { q, order, w: await withdraw() };
      });
      assert.deepEqual([first.q.status, first.order.status, first.w.status], [201, 201, 201], first.order.raw);
      const again = {
        q: await quote(o, kq),
        order: await h.call(o.key, 'POST', '/orders', { quoteId: first.q.body.data.id }, { 'idempotency-key': ko }),
        w: await withdraw(),
      };
      for (const k of ['q', 'order', 'w'] as const) {
        assert.equal(again[k].status, 201, again[k].raw);
        assert.equal(again[k].headers['idempotent-replayed'], 'true', k);
        assert.equal(again[k].raw, first[k].raw, `${k}: byte for byte the first answer`);
      }
      assert.equal(await count(o, '/orders'), 1);
      assert.equal(await count(o, '/withdrawals'), 1);
      assert.equal(await held(h, o.key, 'BTC'), 1_000_000n);
      assert.equal(await held(h, o.key, 'USD'), 25_000n);
    });

    test("an order's answer is kept by reference to the order, and its replay is the order as created after it was cancelled", async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const q = (await quote(o)).body.data.id as string;
      const key = freshKey();
      const first = await withoutLateKeeping(async () => h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key }));
      assert.equal(first.status, 201, first.raw);
      await keptByRef(key, first.body.data.id as string);
      const cancelled = await h.call(o.key, 'POST', `/orders/${first.body.data.id}/cancel`);
      assert.equal(cancelled.body.data.state, 'cancelled', cancelled.raw);
      const again = await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key });
      assertReplay(again, first);
      assert.equal(again.body.data.state, 'pending_approval');
      assert.equal(await count(o, '/orders'), 1);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
    });

    test("a quote's answer is kept by reference to the quote, which outlives it: accepted, or past the purge of unaccepted quotes, its replay is the first answer", async () => {
      const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
      const [accepted, unaccepted] = [freshKey(), freshKey()];
      const first = { accepted: await quote(o, accepted), unaccepted: await quote(o, unaccepted) };
      await keptByRef(accepted, first.accepted.body.data.id as string);
      await keptByRef(unaccepted, first.unaccepted.body.data.id as string);
      assert.equal((await h.call(o.key, 'POST', '/orders', { quoteId: first.accepted.body.data.id })).status, 201);
      // The purge as the background task runs it the moment before the unaccepted quote's key expires.
      const [lapse] = (
        await sql<{ expires_at: Date }>`select expires_at from idempotency_keys where key = ${unaccepted}`.execute(h.store.db)
      ).rows;
      await h.store.quotes.purgeExpired(new Date(lapse!.expires_at.getTime() - 1 - QUOTE_RETENTION_MS));
      for (const [key, was] of [
        [accepted, first.accepted],
        [unaccepted, first.unaccepted],
      ] as const)
        assertReplay(await quote(o, key), was);
    });

    test("a withdrawal's answer is kept by reference to it, and its replay is the request as made after it was cancelled", async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      const key = freshKey();
      const body = { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' };
      const first = await withoutLateKeeping(async () => h.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': key }));
      assert.equal(first.status, 201, first.raw);
      await keptByRef(key, first.body.data.id as string);
      const cancelled = await h.call(o.key, 'POST', `/withdrawals/${first.body.data.id}/cancel`);
      assert.equal(cancelled.body.data.state, 'cancelled', cancelled.raw);
      const again = await h.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': key });
      assertReplay(again, first);
      assert.equal(again.body.data.state, 'pending_approval');
      assert.equal(await count(o, '/withdrawals'), 1);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      assert.equal(await available(h, o.key, 'USD'), 100_000n);
    });

    test('two quotes at once with one key: one quote written, each answer that is not 409 the same quote', async () => {
      const o = await seedOrg(h, {});
      const before = await quoteRows(o);
      for (let round = 0; round < 5; round++) {
        const key = freshKey();
        const answers = await Promise.all(Array.from({ length: 6 }, async () => quote(o, key)));
        const ok = answers.filter((a) => a.status === 201);
        assert.ok(ok.length >= 1, answers.map((a) => a.raw).join('\n'));
        for (const a of answers.filter((x) => x.status !== 201))
          assert.deepEqual([a.status, a.body.code], [409, 'idempotency.in_progress'], a.raw);
        assert.equal(new Set(ok.map((a) => a.body.data.id as string)).size, 1, 'every 201 is the one quote');
        assert.equal(ok.filter((a) => a.headers['idempotent-replayed'] === undefined).length, 1, 'one first answer; the others replay it');
        assert.equal((await quote(o, key)).body.data.id, ok[0]!.body.data.id);
      }
      assert.equal(await quoteRows(o), before + 5);
    });

    test('keyed quotes at the same moment, half of them replays: each new key one quote of its own, each replay its first answer', async () => {
      const o = await seedOrg(h, {});
      const old = Array.from({ length: 6 }, () => freshKey());
      const firsts = [];
      for (const key of old) firsts.push(await quote(o, key));
      const before = await quoteRows(o);
      // Together they share statements (quotes-store.ts): a statement whose keys are not all new cannot claim them
      // with its plain insert, and the statement that looks at each key writes the new ones' quotes.
      const fresh = Array.from({ length: 6 }, () => freshKey());
      const answers = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => quote(o, i % 2 === 0 ? old[i / 2]! : fresh[(i - 1) / 2]!)),
      );
      for (let i = 0; i < 6; i++) assertReplay(answers[2 * i]!, firsts[i]!);
      const made = answers.filter((_, i) => i % 2 === 1);
      for (const a of made) {
        assert.equal(a.status, 201, a.raw);
        assert.equal(a.headers['idempotent-replayed'], undefined);
      }
      assert.equal(new Set([...made, ...firsts].map((a) => a.body.data.id as string)).size, 12, 'a quote of its own for each new key');
      assert.equal(await quoteRows(o), before + 6, 'the replays wrote nothing');
      for (let i = 0; i < 6; i++) await keptByRef(fresh[i]!, made[i]!.body.data.id as string);
    });

    test('a quote whose key has a claim in flight (another request, another instance) is 409 and writes nothing', async () => {
      const o = await seedOrg(h, {});
      const key = freshKey();
      const body = { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' };
      const fingerprint = createHash('sha256')
        .update(`POST /api/v1/quotes\nmember:${o.memberId}\n${JSON.stringify(body)}`)
        .digest('hex');
      // What a request whose work committed and whose answer was not kept yet leaves: the key's row in flight.
      await sql`insert into idempotency_keys (scope, key, fingerprint, state, status, response, created_at, expires_at)
        values (${`org:${o.orgId}`}, ${key}, ${fingerprint}, 'in_flight', null, null, now(), now() + interval '1 day')`.execute(h.store.db);
      const before = await quoteRows(o);
      const r = await quote(o, key);
      assert.deepEqual([r.status, r.body.code], [409, 'idempotency.in_progress'], r.raw);
      assert.equal(await quoteRows(o), before);
      const [row] = (await sql<{ state: string }>`select state from idempotency_keys where key = ${key}`.execute(h.store.db)).rows;
      assert.equal(row?.state, 'in_flight', "the other request's claim is left as it was");
    });

    if (backend === 'postgres') {
      /** Runs `during` while another transaction holds the key's row, inserted and not committed; then rolls it back. */
      const whileClaimed = async (o: SeededOrg, key: string, during: () => Promise<void>) =>
        h.store.db.connection().execute(async (other) => {
          await sql`begin`.execute(other);
          try {
            await sql`insert into idempotency_keys (scope, key, fingerprint, state, status, response, created_at, expires_at)
              values (${`org:${o.orgId}`}, ${key}, 'another request', 'in_flight', null, null, now(), now() + interval '1 day')`.execute(
              other,
            );
            await during();
          } finally {
            await sql`rollback`.execute(other);
          }
        });

      test("PostgreSQL: while another transaction holds the key's row, a quote is 409 and writes nothing; after its rollback the key runs", async () => {
        const o = await seedOrg(h, {});
        const key = freshKey();
        const before = await quoteRows(o);
        await whileClaimed(o, key, async () => {
          const r = await quote(o, key);
          assert.deepEqual([r.status, r.body.code], [409, 'idempotency.in_progress'], r.raw);
        });
        assert.equal(await quoteRows(o), before);
        assert.equal((await sql`select 1 from idempotency_keys where key = ${key}`.execute(h.store.db)).rows.length, 0, 'nothing claimed');
        const first = await quote(o, key);
        assert.equal(first.status, 201, first.raw);
        assert.equal(first.headers['idempotent-replayed'], undefined);
        assert.equal((await quote(o, key)).raw, first.raw);
        assert.equal(await quoteRows(o), before + 1);
      });

      test("PostgreSQL: while another transaction holds the order's key, 409, nothing placed or held; then the order is placed once", async () => {
        const o = await seedOrg(h, { balances: { BTC: 5_000_000n } });
        const q = (await quote(o)).body.data.id as string;
        const key = freshKey();
        await whileClaimed(o, key, async () => {
          const r = await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key });
          assert.deepEqual([r.status, r.body.code], [409, 'idempotency.in_progress'], r.raw);
        });
        assert.equal(await count(o, '/orders'), 0);
        assert.deepEqual([await available(h, o.key, 'BTC'), await held(h, o.key, 'BTC')], [5_000_000n, 0n]);
        const first = await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key });
        assert.equal(first.status, 201, first.raw);
        await keptByRef(key, first.body.data.id as string);
        assertReplay(await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key }), first);
        assert.deepEqual([await available(h, o.key, 'BTC'), await held(h, o.key, 'BTC')], [4_000_000n, 1_000_000n]);
      });
    }

    test('orders at once with one key: one order placed and held once, each answer that is not 409 that order', async () => {
      const o = await seedOrg(h, { balances: { BTC: 50_000_000n } });
      for (let round = 0; round < 5; round++) {
        const q = (await quote(o)).body.data.id as string;
        const key = freshKey();
        const answers = await Promise.all(
          Array.from({ length: 6 }, async () => h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key })),
        );
        const ok = answers.filter((a) => a.status === 201);
        assert.ok(ok.length >= 1, answers.map((a) => a.raw).join('\n'));
        for (const a of answers.filter((x) => x.status !== 201))
          assert.deepEqual([a.status, a.body.code], [409, 'idempotency.in_progress'], a.raw);
        assert.equal(new Set(ok.map((a) => a.body.data.id as string)).size, 1, 'every 201 is the one order');
        assert.equal(ok.filter((a) => a.headers['idempotent-replayed'] === undefined).length, 1, 'one first answer; the others replay it');
        assert.equal(
          (await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key })).body.data.id,
          ok[0]!.body.data.id,
        );
      }
      assert.equal(await count(o, '/orders'), 5);
      assert.equal(await held(h, o.key, 'BTC'), 5_000_000n);
      assert.equal(await available(h, o.key, 'BTC'), 45_000_000n);
    });

    test('a refused order keeps its refusal after the response, and holds nothing', async () => {
      const o = await seedOrg(h, { balances: { BTC: 500_000n } });
      const q = (await quote(o)).body.data.id as string;
      const key = freshKey();
      const first = await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key });
      assert.equal(first.status, 422, first.raw);
      assert.equal(first.body.code, 'ledger.insufficient_balance');
      const again = await h.call(o.key, 'POST', '/orders', { quoteId: q }, { 'idempotency-key': key });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.raw, first.raw);
      assert.equal(await available(h, o.key, 'BTC'), 500_000n);
      assert.equal(await held(h, o.key, 'BTC'), 0n);
    });

    test('keyed orders placed at the same moment each keep their own answer, and each order is placed once', async () => {
      const o = await seedOrg(h, { balances: { BTC: 100_000_000n } });
      const quotes = await Promise.all(Array.from({ length: 24 }, async () => (await quote(o)).body.data.id as string));
      const keys = quotes.map(() => freshKey());
      // Half of them keyed, all at once, beside unkeyed ones.
      const place = (i: number) =>
        h.call(o.key, 'POST', '/orders', { quoteId: quotes[i] }, i % 2 === 0 ? { 'idempotency-key': keys[i]! } : {});
      const first = await Promise.all(quotes.map((_, i) => place(i)));
      assert.deepEqual(
        first.map((r) => r.status),
        quotes.map(() => 201),
      );
      const replays = await Promise.all(
        quotes
          .map((_, i) => i)
          .filter((i) => i % 2 === 0)
          .map(async (i) => ({ i, r: await place(i) })),
      );
      for (const { i, r } of replays) {
        assert.equal(r.headers['idempotent-replayed'], 'true');
        assert.equal(r.raw, first[i]!.raw);
        assert.equal(r.body.data.quoteId, quotes[i]);
      }
      assert.equal(new Set(first.map((r) => r.body.data.id)).size, 24);
      assert.equal(await count(o, '/orders'), 24);
      assert.equal(await held(h, o.key, 'BTC'), 24_000_000n);
    });

    test('a refused quote keeps its refusal, and the key used for another call is 422 before any refusal', async () => {
      const o = await seedOrg(h, {});
      const key = freshKey();
      const body = { baseSymbol: 'BTC', quoteSymbol: 'EUR', amountBaseMinor: '1000000' };
      const first = await h.call(o.key, 'POST', '/quotes', body, { 'idempotency-key': key });
      assert.equal(first.status, 422, first.raw);
      assert.equal(first.body.code, 'quotes.pair_not_priced');
      const again = await h.call(o.key, 'POST', '/quotes', body, { 'idempotency-key': key });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.raw, first.raw);
      const used = freshKey();
      assert.equal((await quote(o, used)).status, 201);
      const other = await h.call(o.key, 'POST', '/quotes', body, { 'idempotency-key': used });
      assert.equal(other.status, 422, other.raw);
      assert.equal(other.body.code, 'idempotency.key_reused');
    });

    test("keeping the answer leaves the key's expiry as its claim set it", async () => {
      const o = await seedOrg(h, {});
      const key = freshKey();
      assert.equal((await quote(o, key)).status, 201);
      const [row] = (
        await sql<{ state: string; kept_ms: number }>`select state, extract(epoch from expires_at - created_at) * 1000 as kept_ms
        from idempotency_keys where key = ${key}`.execute(h.store.db)
      ).rows;
      assert.equal(row?.state, 'done');
      assert.equal(Number(row?.kept_ms), IDEMPOTENCY_KEPT_MS);
    });

    test('a quote key past its retention and not yet purged makes a new quote', async () => {
      const o = await seedOrg(h, {});
      const key = freshKey();
      const first = await quote(o, key);
      await sql`update idempotency_keys set expires_at = ${new Date(Date.now() - 1000)} where key = ${key}`.execute(h.store.db);
      const later = await quote(o, key);
      assert.equal(later.status, 201, later.raw);
      assert.equal(later.headers['idempotent-replayed'], undefined);
      assert.notEqual(later.body.data.id, first.body.data.id);
      const again = await quote(o, key);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body.data.id, later.body.data.id);
    });

    test('work that rolls back keeps no answer: the same key then runs again', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n } });
      const dst = await usableDestination(h, o.key);
      const key = freshKey();
      const body = { destinationId: dst, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '25000' };
      // The answer is kept inside the transaction; a failure there, after the work, rolls the withdrawal back with it.
      const run = h.store.uow.run.bind(h.store.uow);
      h.store.uow.run = (work) =>
        run(async (tx) => {
          await work(tx);
          throw new Error('lost inside the transaction');
        });
      try {
        assert.equal((await h.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': key })).status, 500);
      } finally {
        h.store.uow.run = run;
      }
      assert.equal(await count(o, '/withdrawals'), 0);
      assert.equal(await held(h, o.key, 'USD'), 0n);
      const retry = await h.call(o.key, 'POST', '/withdrawals', body, { 'idempotency-key': key });
      assert.equal(retry.status, 201, retry.raw);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      assert.equal(await count(o, '/withdrawals'), 1);
    });
  });
}
