import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, seedOrg, type Harness } from './harness.ts';

/**
 * Query strings from outside: every list takes `page`, `limit` and `asOf` as plain decimal
 * integers or answers 400 request.invalid_query (docs/design/money-and-states.md), never a 500 or a 422; unknown
 * parameters are refused, not ignored; a filter named in the query really filters.
 */
describe('query strings are strict', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await makeHarness();
    await listAssets(h, { USD: 2 });
    key = (await seedOrg(h)).key;
  });
  after(async () => h?.close());

  test('the operator deposit list: a bad asOf or page is 400 request.invalid_query', async () => {
    for (const q of [
      'asOf=abc',
      'asOf=1e3',
      'asOf=0x10',
      'asOf=-1',
      'asOf=9223372036854775808',
      'page=99999999999999999999',
      'page=0',
      'limit=101',
      'state=lost',
    ]) {
      const r = await h.op('GET', `/deposits?${q}`);
      assert.equal(r.status, 400, `${q}: ${r.raw}`);
      assert.equal(r.body.code, 'request.invalid_query', q);
    }
    assert.equal((await h.op('GET', '/deposits?page=1&limit=5')).status, 200);
  });

  test('the events list refuses unknown and invalid parameters like every other list', async () => {
    for (const q of [
      'foo=1',
      'page=1',
      'limit=0',
      'limit=101',
      'limit=abc',
      'limit=1e1',
      'limit=5&limit=6',
      'after=',
      'after=nope',
      'after=evt_1&after=evt_2',
    ]) {
      const r = await h.call(key, 'GET', `/events?${q}`, undefined, { 'x-api-key': key });
      assert.deepEqual([r.status, r.body.code], [400, 'request.invalid_query'], `/events?${q}: ${r.raw}`);
    }
    assert.equal((await h.call(key, 'GET', '/events?limit=5')).status, 200);
  });

  test('page and limit take plain decimal integers only, on client and operator lists', async () => {
    const bad = [
      'limit=0x10',
      'page=1e2',
      'limit=%2B5',
      'limit=05',
      'limit=%20%205',
      'limit=5%20',
      'page=1.0',
      'page=',
      'page[]=1',
      'page=1&page=2',
      'limit=1&limit=1',
    ];
    for (const path of ['/ledger', '/orders', '/deposits', '/withdrawals']) {
      for (const q of bad) {
        const r = await h.call(key, 'GET', `${path}?${q}`);
        assert.equal(r.status, 400, `${path}?${q}: ${r.raw}`);
        assert.equal(r.body.code, 'request.invalid_query', `${path}?${q}`);
      }
      const good = await h.call(key, 'GET', `${path}?page=1&limit=16`);
      assert.equal(good.status, 200, `${path}: ${good.raw}`);
      assert.equal(good.body.pagination.limit, 16);
    }
    for (const path of ['/orders', '/withdrawals', '/deposits', '/audit', '/destinations']) {
      for (const q of bad) assert.equal((await h.op('GET', `${path}?${q}`)).status, 400, `operator ${path}?${q}`);
    }
  });

  test('a query parameter no endpoint knows is refused (400) and names the parameter', async () => {
    for (const [path, q] of <Array<[string, string]>>[
      ['/ledger', 'pagesize=5'],
      ['/orders', 'status=completed'],
      ['/client', 'x=1'],
      ['/balances', 'asset=USD'],
      ['/withdrawals/destinations', 'page=1'],
    ]) {
      const r = await h.call(key, 'GET', `${path}?${q}`);
      assert.equal(r.status, 400, `${path}?${q}: ${r.raw}`);
      assert.equal(r.body.code, 'request.invalid_query');
      assert.match(r.body.message!, new RegExp(`${q.split('=')[0]} is not allowed`));
    }
    const op = await h.op('GET', '/organizations/org_x?verbose=1');
    assert.equal(op.status, 400);
  });

  test('an enum error names every allowed value, in both languages', async () => {
    const orders = await h.op('GET', '/orders?state=done');
    assert.equal(
      orders.body.message,
      'The query is not valid: state must be one of: pending_approval, approved, completed, rejected, failed, cancelled.',
    );
    const deposits = await h.op('GET', '/deposits?state=lost');
    assert.equal(deposits.body.message, 'The query is not valid: state must be one of: credited, unattributed.');
    const org = await h.op('POST', '/organizations', { name: 'X', status: 'live' });
    assert.equal(org.status, 422);
    assert.equal(org.body.message, 'The request is not valid: status must be one of: draft, active, suspended.');
    const es = await h.app.inject({
      method: 'GET',
      url: '/operator/v1/deposits?state=lost',
      headers: { authorization: `Bearer ${'test-operator-token-0123456789'}`, 'x-lang': 'es' },
    });
    assert.equal(es.json().message, 'Los parámetros de consulta no son válidos: state debe ser uno de: credited, unattributed.');
  });

  test('validation reports every bad field, not only the first', async () => {
    const r = await h.op('POST', '/organizations', { name: '', status: 'live', extra: 1 });
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      'The request is not valid: extra is not allowed; name must have at least 1 characters; status must be one of: draft, active, suspended.',
    );
    const w = await h.call(key, 'POST', '/withdrawals', { destinationId: '', assetSymbol: 'usd', assetDecimals: 'x', amountMinor: '1.5' });
    assert.equal(w.status, 422);
    assert.equal(
      w.body.message,
      'The request is not valid: destinationId must have at least 1 characters; assetSymbol does not have the expected form; assetDecimals must be an integer; amountMinor does not have the expected form.',
    );
    const q = await h.call(key, 'GET', '/ledger?page=0&limit=500');
    assert.equal(q.body.message, 'The query is not valid: page must be at least 1; limit must be at most 100.');
  });
});
