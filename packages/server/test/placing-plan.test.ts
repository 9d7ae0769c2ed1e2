import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { randomIds } from '../src/domain/ids.ts';
import { placingStatement } from '../src/store/orders-batch.ts';
import { backends, makeHarness, type Harness } from './harness.ts';

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] }
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const HOT = ['quotes', 'orders', 'postings', 'events', 'accounts', 'holds', 'journal_entries'];

/**
 * Issue 18: the cost of placing an order must not depend on table statistics. On a fresh store (never
 * analysed; PGlite never analyses by itself) the planner guesses a few hundred rows per table, and a
 * join over quotes then became a hash join that scans every quote ever made. The placing statement's
 * plan, for one order and for a full batch, reads every hot table through an index.
 */
for (const backend of backends()) {
  describe(`the placing statement's plan on a fresh, unanalysed store [${backend}]`, () => {
    let h: Harness;
    before(async () => { h = await makeHarness({ backend }); });
    after(async () => h?.close());

    for (const n of [1, 3, 64]) {
      test(`${n} placement(s): no Seq Scan on ${HOT.join(', ')}; quotes read by primary key`, async () => {
        const org = { id: 'org_plan', limits: {} };
        const ps = Array.from({ length: n }, (_, i) => ({ org, quoteId: `quo_plan_${i}` }));
        const r = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${placingStatement(randomIds, new Date(), ps)}`.execute(h.store.db);
        const raw = r.rows[0]!['QUERY PLAN'];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
        const all = nodes(plan[0]!.Plan);
        const scans = all.filter((x) => x['Node Type'] === 'Seq Scan' && HOT.includes(x['Relation Name'] ?? '')).map((x) => x['Relation Name']);
        assert.deepEqual(scans, [], JSON.stringify(plan));
        const quoteReads = all.filter((x) => x['Relation Name'] === 'quotes' && x['Node Type'] !== 'ModifyTable');
        assert.ok(quoteReads.length >= 2, JSON.stringify(plan));
        for (const x of quoteReads) assert.deepEqual([x['Node Type'], x['Index Name']], ['Index Scan', 'quotes_pkey']);
      });
    }
  });
}
