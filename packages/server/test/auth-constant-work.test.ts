import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompiledQuery, QueryResult } from 'kysely';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/**
 * docs/design/money-and-states.md: a 401 takes the same time whether the prefix exists or not. Measured from outside, a known
 * prefix with a wrong secret took 65–90 µs longer than an unknown prefix: the key's row came
 * back from the database, joined, sent and decoded, while an unknown prefix returned no row at all.
 * Timing on a shared two-core machine is too noisy for a test that must never flake, so this compares
 * the work done instead, which is what the time follows: the rows the auth read returns (count, columns,
 * which are null) for both causes, and the hash and compare calls (security.test.ts). Equal work, equal
 * time, whatever the load.
 */
for (const backend of backends()) {
  describe(`an unknown prefix costs what a known one does [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
    });
    after(async () => h?.close());

    test('the auth read returns one row of the same shape for a wrong secret and for an unknown prefix', async () => {
      const o = await seedOrg(h, { limits: { USD: { maxOrderMinor: '100' } } });
      const [tag, rest] = o.key.split('_live_') as [string, string];
      const prefix = rest.split('.')[0]!;
      const db = h.store.db;
      const real = db.executeQuery.bind(db);
      let seen: Array<Record<string, unknown>> | null = null;
      (db as { executeQuery: typeof db.executeQuery }).executeQuery = (async (q: CompiledQuery) => {
        const r = (await real(q)) as QueryResult<Record<string, unknown>>;
        if (/cross join lateral/.test(q.sql)) seen = r.rows;
        return r;
      }) as typeof db.executeQuery;
      const shapeOf = async (key: string) => {
        seen = null;
        const r = await h.call(key, 'GET', '/balances');
        assert.equal(r.status, 401);
        assert.ok(seen, 'the auth read ran');
        const rows = seen as Array<Record<string, unknown>>;
        return rows.map((row) =>
          Object.entries(row)
            .map(([k, v]) => `${k}:${v === null ? 'null' : typeof v}`)
            .sort()
            .join(','),
        );
      };
      try {
        const wrongSecret = await shapeOf(`${tag}_live_${prefix}.${'B'.repeat(43)}`);
        const unknownPrefix = await shapeOf(`${tag}_live_zzzzzzzzzzzz.${'A'.repeat(43)}`);
        assert.equal(wrongSecret.length, 1);
        assert.deepEqual(unknownPrefix, wrongSecret, 'the same row shape comes back for both');
        // and the decoy never authenticates, even with the decoy key's own secret under another prefix
        const secret = o.key.split('.')[1]!;
        assert.equal((await h.call(`${tag}_live_zzzzzzzzzzzz.${secret}`, 'GET', '/client')).status, 401);
        assert.equal((await h.call(o.key, 'GET', '/client')).status, 200);
      } finally {
        (db as { executeQuery: typeof db.executeQuery }).executeQuery = real;
      }
    });
  });
}
