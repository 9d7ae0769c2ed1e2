import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ManualClock } from '../src/domain/ports.ts';
import { backends, listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

const HEADER = 'createdAt,id,entryId,kind,account,assetSymbol,assetDecimals,amount,amountMinor,referenceId,memo\r\n';

/**
 * The ledger as a CSV file for accountants: GET /api/v1/ledger.csv takes the list's filters,
 * writes exact amounts in the asset's units and in minimum units, quotes as RFC 4180 says, neutralises
 * cells a spreadsheet would run as formulas, and walks the ledger in batches anchored at its start.
 */
for (const backend of backends()) {
  describe(`ledger CSV export [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, manualClock: true });
      await listAssets(h, { USD: 2, BTC: 8 });
    });
    after(async () => h?.close());

    const adjust = async (orgId: string, assetSymbol: string, amountMinor: string, reason: string) => {
      const r = await h.op('POST', `/organizations/${orgId}/adjustments`, { assetSymbol, amountMinor, reason });
      assert.equal(r.status, 201, r.raw);
    };
    const csv = (key: string, query = '', headers: Record<string, string> = {}) =>
      h.app.inject({ method: 'GET', url: `/api/v1/ledger.csv${query}`, headers: { 'x-api-key': key, 'x-lang': 'en', ...headers } });
    type Entry = { id: string; entryId: string; createdAt: string };
    const entries = async (key: string): Promise<Entry[]> => (await h.call(key, 'GET', '/ledger?limit=100')).body.data.reverse();

    test('every posting oldest first: exact amounts in units and minor units, RFC 4180 quoting, formulas neutralised', async () => {
      const o = await seedOrg(h);
      await adjust(o.orgId, 'BTC', '150000000', 'opening balance');
      (h.clock as ManualClock).advance(1000);
      await adjust(o.orgId, 'BTC', '-12300', '=HYPERLINK("http://evil.test","refund")');
      (h.clock as ManualClock).advance(1000);
      await adjust(o.orgId, 'USD', '5', 'fee, January\nsecond line');
      await adjust(o.orgId, 'USD', '-3', '-2+3');
      const e = await entries(o.key);
      const r = await csv(o.key);
      assert.equal(r.statusCode, 200, r.body);
      assert.equal(r.headers['content-type'], 'text/csv; charset=utf-8; header=present');
      assert.match(
        String(r.headers['content-disposition']),
        new RegExp(`^attachment; filename="ledger-${o.orgId}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
      );
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal(
        r.body,
        HEADER +
          `${e[0]!.createdAt},${e[0]!.id},${e[0]!.entryId},adjustment,available,BTC,8,1.50000000,150000000,,opening balance\r\n` +
          `${e[1]!.createdAt},${e[1]!.id},${e[1]!.entryId},adjustment,available,BTC,8,-0.00012300,-12300,,"'=HYPERLINK(""http://evil.test"",""refund"")"\r\n` +
          `${e[2]!.createdAt},${e[2]!.id},${e[2]!.entryId},adjustment,available,USD,2,0.05,5,,"fee, January\nsecond line"\r\n` +
          `${e[3]!.createdAt},${e[3]!.id},${e[3]!.entryId},adjustment,available,USD,2,-0.03,-3,,'-2+3\r\n`,
      );
    });

    test("the list's filters: asset, createdFrom (inclusive), createdTo (exclusive); another organization's postings never appear", async () => {
      const o = await seedOrg(h);
      const other = await seedOrg(h);
      await adjust(other.orgId, 'USD', '777', 'not yours');
      const t0 = h.clock.now().toISOString();
      await adjust(o.orgId, 'USD', '100', 'a');
      (h.clock as ManualClock).advance(60_000);
      const t1 = h.clock.now().toISOString();
      await adjust(o.orgId, 'BTC', '200', 'b');
      await adjust(o.orgId, 'USD', '300', 'c');
      const memos = async (q: string) =>
        (await csv(o.key, q)).body
          .split('\r\n')
          .slice(1, -1)
          .map((l) => l.split(',').at(-1));
      assert.deepEqual(await memos(''), ['a', 'b', 'c']);
      assert.deepEqual(await memos('?assetSymbol=USD'), ['a', 'c']);
      assert.deepEqual(await memos(`?createdFrom=${encodeURIComponent(t1)}`), ['b', 'c']);
      assert.deepEqual(await memos(`?createdTo=${encodeURIComponent(t1)}`), ['a']);
      assert.deepEqual(await memos(`?assetSymbol=USD&createdFrom=${encodeURIComponent(t0)}&createdTo=${encodeURIComponent(t1)}`), ['a']);
      assert.equal((await csv(o.key, '?assetSymbol=EUR')).body, HEADER, 'nothing matches: the header alone');
      assert.doesNotMatch((await csv(o.key)).body, /not yours|,7\.77,|,777,/); // an id may hold 777 by chance: the amount's own columns
    });

    test('refusals are the JSON envelope: unknown or paging parameters 400, no portal:read 403, no key 401', async () => {
      const o = await seedOrg(h);
      for (const q of ['?page=1', '?limit=5', '?assetSymbol=usd', '?createdFrom=yesterday', '?format=xlsx']) {
        const r = await csv(o.key, q);
        assert.equal(r.statusCode, 400, q);
        assert.equal(r.json().code, 'request.invalid_query', q);
        assert.match(String(r.headers['content-type']), /^application\/json/);
      }
      const noRead = await seedOrg(h, { scopes: ['portal:trade'] });
      const denied = await csv(noRead.key);
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'auth.scope_missing');
      assert.equal((await h.app.inject({ method: 'GET', url: '/api/v1/ledger.csv' })).statusCode, 401);
    });

    test('the export walks the ledger in batches anchored at its start: every posting once, none written after it started', async () => {
      const o = await seedOrg(h);
      for (let i = 1; i <= 5; i++) await adjust(o.orgId, 'USD', String(i), `m${i}`);
      const walk = h.store.accounts.allPostings(o.orgId, {}, 2);
      const seen: string[] = [];
      let batches = 0;
      for await (const rows of walk) {
        batches++;
        assert.ok(rows.length <= 2, 'one batch at a time');
        seen.push(...rows.map((r) => r.memo ?? ''));
        if (batches === 1) await adjust(o.orgId, 'USD', '99', 'late');
      }
      assert.deepEqual(seen, ['m1', 'm2', 'm3', 'm4', 'm5']);
      assert.equal(batches, 3);
      assert.match((await csv(o.key)).body, /,late\r\n$/, 'the next export has it');
    });

    test('the export is in the OpenAPI document as text/csv with an operationId', async () => {
      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const op = doc.paths['/api/v1/ledger.csv'].get;
      assert.equal(op.operationId, 'getLedgerCsv');
      assert.ok(op.responses['200'].content['text/csv'], JSON.stringify(op.responses['200']));
      assert.deepEqual(op.parameters.map((p: { name: string }) => p.name).sort(), ['assetSymbol', 'createdFrom', 'createdTo']);
    });
  });
}
