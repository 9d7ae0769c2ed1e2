import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { randomIds } from '../src/domain/ids.ts';
import { placingStatement } from '../src/store/orders-batch.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const HOT = ['quotes', 'orders', 'postings', 'events', 'accounts', 'holds', 'journal_entries'];

/**
 * The cost of placing an order must not depend on table statistics. On a fresh store (never
 * analysed; PGlite never analyses by itself) the planner guesses a few hundred rows per table, and a
 * join over quotes then became a hash join that scans every quote ever made. The placing statement's
 * plan, for one order and for a full batch, reads every hot table through an index.
 */
for (const backend of backends()) {
  describe(`the placing statement's plan on a fresh, unanalysed store [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
    });
    after(async () => h?.close());

    for (const [n, keyed] of [
      [1, false],
      [3, false],
      [64, false],
      [1, true],
      [64, true],
    ] as const) {
      test(`${n} placement(s)${keyed ? ', each with an Idempotency-Key' : ''}: no Seq Scan on ${HOT.join(', ')}${keyed ? ', idempotency_keys' : ''}; quotes read by primary key`, async () => {
        const org = { id: 'org_plan', limits: {} };
        // A key as the route gives it: claimed by the statement (PostgreSQL) or before the work (PGlite).
        const keep = (i: number) => ({
          answer: (id: string) => ({
            scope: 'org:org_plan',
            key: `k${i}`,
            fingerprint: 'f',
            status: 201,
            response: 'r1.x',
            work: id,
            ...(backend === 'postgres' ? { claimInWork: true } : {}),
            ...h.store.idempotency.keptTimes(),
          }),
          kept: () => undefined,
        });
        const ps = Array.from({ length: n }, (_, i) => ({ org, quoteId: `quo_plan_${i}`, ...(keyed ? { keep: keep(i) } : {}) }));
        const r = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${placingStatement(randomIds, new Date(), ps)}`.execute(
          h.store.db,
        );
        const raw = r.rows[0]!['QUERY PLAN'];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
        const all = nodes(plan[0]!.Plan);
        const scans = all
          .filter((x) => x['Node Type'] === 'Seq Scan' && [...HOT, 'idempotency_keys'].includes(x['Relation Name'] ?? ''))
          .map((x) => x['Relation Name']);
        assert.deepEqual(scans, [], JSON.stringify(plan));
        const quoteReads = all.filter((x) => x['Relation Name'] === 'quotes' && x['Node Type'] !== 'ModifyTable');
        assert.ok(quoteReads.length >= 2, JSON.stringify(plan));
        for (const x of quoteReads) assert.deepEqual([x['Node Type'], x['Index Name']], ['Index Scan', 'quotes_pkey']);
      });
    }
  });
}

/** The tables that grow with every request: a read of them must go through an index. */
const BIG = [...HOT, 'withdrawals', 'idempotency_keys'];
const PAIR = { midRate: '60000.00', spreadBps: 50, feeBps: 10, fixedFeeQuoteMinor: '0', minBaseMinor: '1000', maxBaseMinor: '100000000' };

/**
 * Every statement a request sends, as compiled (SQL and parameters): Kysely's executors share one
 * prototype, so a transaction's statements are seen too. Restored when `f` ends.
 */
async function statementsOf(h: Harness, f: () => Promise<unknown>): Promise<CompiledQuery[]> {
  const proto = Object.getPrototypeOf(h.store.db.getExecutor()) as { executeQuery: (q: CompiledQuery, id: unknown) => Promise<unknown> };
  const holder = Object.prototype.hasOwnProperty.call(proto, 'executeQuery') ? proto : (Object.getPrototypeOf(proto) as typeof proto);
  const original = holder.executeQuery;
  const seen: CompiledQuery[] = [];
  holder.executeQuery = function (this: unknown, q: CompiledQuery, id: unknown) {
    seen.push(q);
    return original.call(this, q, id);
  };
  try {
    await f();
  } finally {
    holder.executeQuery = original;
  }
  return seen;
}

async function planOf(h: Harness, q: CompiledQuery): Promise<PlanNode> {
  const r = await h.store.db.executeQuery<{ 'QUERY PLAN': unknown }>(
    CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]),
  );
  const raw = r.rows[0]!['QUERY PLAN'];
  return ((typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>)[0]!.Plan;
}

/**
 * Quoting, the balances and each list's first page cost the same however many rows the store
 * holds, on a store never analysed. Each statement the request sends that reads one of the growing
 * tables reads it through an index: a Seq Scan there would read every row ever written.
 */
for (const backend of backends()) {
  describe(`the request path's plans on a fresh, unanalysed store [${backend}]`, () => {
    let h: Harness;
    let key: string;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { BTC: 8, USD: 2 });
      assert.equal((await h.op('PUT', '/market/pairs/BTC/USD', PAIR)).status, 200);
      ({ key } = await seedOrg(h, { balances: { BTC: 100_000_000n, USD: 1_000_000n } }));
      // One order, so every list has a row and the order's tables have been written once.
      const q = await h.call(key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' });
      assert.equal((await h.call(key, 'POST', '/orders', { quoteId: q.body.data.id })).status, 201);
    });
    after(async () => h?.close());

    const requests: Array<[string, string, string, unknown?]> = [
      ['a quote', 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' }],
      ['the balances', 'GET', '/balances'],
      ["the orders' first page", 'GET', '/orders'],
      ["the withdrawals' first page", 'GET', '/withdrawals'],
      ["the ledger's first page", 'GET', '/ledger'],
      ["the events' first page", 'GET', '/events'],
    ];
    test("the ledger's first page reads the postings alone: no lookup of each posting's journal entry", async () => {
      let page: { data: Array<{ kind?: string; entryKind?: string }> } | undefined;
      const qs = await statementsOf(h, async () => {
        page = (await h.call(key, 'GET', '/ledger')).body;
      });
      assert.ok((page?.data.length ?? 0) > 0, 'the ledger has rows');
      const reading = qs.filter((q) => /\bpostings\b/.test(q.sql));
      assert.ok(reading.length > 0);
      for (const q of reading) assert.doesNotMatch(q.sql, /\bjournal_entries\b/, q.sql);
    });

    for (const [what, method, path, body] of requests) {
      test(`${what}: every statement reads ${BIG.join(', ')} by index, never by Seq Scan`, async () => {
        let status = 0;
        const qs = await statementsOf(h, async () => {
          status = (await h.call(key, method, path, body)).status;
        });
        assert.ok(status === 200 || status === 201, `${method} ${path} answered ${status}`);
        const touching = qs.filter((q) => BIG.some((t) => new RegExp(`\\b${t}\\b`).test(q.sql)));
        assert.ok(touching.length > 0, `${method} ${path} sent no statement on ${BIG.join(', ')}`);
        for (const q of touching) {
          if (/^\s*(begin|commit|rollback)/i.test(q.sql)) continue;
          const plan = await planOf(h, q);
          const scans = nodes(plan)
            .filter((x) => x['Node Type'] === 'Seq Scan' && BIG.includes(x['Relation Name'] ?? ''))
            .map((x) => x['Relation Name']);
          assert.deepEqual(scans, [], `${q.sql}\n${JSON.stringify(plan)}`);
        }
      });
    }
  });
}
