import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import {
  AuthenticationError, Cambio, CambioError, ClientCannotOperateError, collect, ConnectionError, DeclarationAlreadyOpenError,
  InvalidRequestError, LedgerNotReconciledError, LostResponseError, Money, NotFoundError, PermissionError, QuoteBelowExecutableRateError,
  QuoteExpiredError, RateLimitError, ServerError, ServiceUnavailableError, TimeoutError, formatMinor, parseDecimal, quoteLargeIntegers,
  type CambioEvent, type RetryOptions,
} from '../src/index.ts';

const KEY = 'cmb_live_abcd1234.s3cr3tS3CR3Ts3cr3tS3CR3T';

interface Call { method: string; url: string; headers: Record<string, string>; body: string | undefined }
type Handler = (c: Call, signal: AbortSignal) => Response | Promise<Response>;

function env(data: unknown, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ success: true, message: null, data, code: null, timestamp: new Date().toISOString(), traceId: 'tr-ok', pagination: null, ...extra });
}
function ok(data: unknown, extra: Record<string, unknown> = {}, status = 200) {
  return new Response(env(data, extra), { status, headers: { 'content-type': 'application/json' } });
}
function fail(status: number, code: string, message = 'refused', headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ success: false, message, data: null, code, timestamp: new Date().toISOString(), traceId: `tr-${status}`, pagination: null }), { status, headers: { 'content-type': 'application/json', ...headers } });
}
const netError = (code = 'ECONNRESET') => () => { throw Object.assign(new TypeError('fetch failed'), { cause: { code } }); };
/** Never answers; rejects when the SDK's timeout aborts the request. */
const hang: Handler = (_c, signal) => new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));

/** A fake fetch that answers with the handlers in order (the last one repeats) and records every call. */
function fakeFetch(...handlers: Handler[]) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const c: Call = { method: String(init.method), url, headers: { ...(init.headers as Record<string, string>) }, body: init.body as string | undefined };
    calls.push(c);
    const h = handlers[Math.min(calls.length - 1, handlers.length - 1)]!;
    return h(c, init.signal!);
  };
  return { fetch, calls };
}

/** A routing fake fetch: handlers per "METHOD /path", each a queue (the last one repeats). */
function routedFetch(routes: Record<string, Handler[]>) {
  const calls: Call[] = [];
  const seen: Record<string, number> = {};
  const fetch = async (url: string, init: RequestInit) => {
    const c: Call = { method: String(init.method), url, headers: { ...(init.headers as Record<string, string>) }, body: init.body as string | undefined };
    calls.push(c);
    const key = `${c.method} ${new URL(url).pathname}`;
    const q = routes[key];
    if (!q) throw new Error(`unexpected call ${key}`);
    const n = seen[key] = (seen[key] ?? 0) + 1;
    return q[Math.min(n - 1, q.length - 1)]!(c, init.signal!);
  };
  return { fetch, calls, count: (key: string) => seen[key] ?? 0 };
}

function sdk(fetch: (u: string, i: RequestInit) => Promise<Response>, retry: RetryOptions = {}, extra: Partial<ConstructorParameters<typeof Cambio>[0]> = {}) {
  const sleeps: number[] = [];
  const events: CambioEvent[] = [];
  const c = new Cambio({
    apiKey: KEY, baseUrl: 'https://api.test', lang: 'en', fetch, timeoutMs: 2000,
    retry: { sleep: async (ms) => { sleeps.push(ms); }, random: () => 0.5, ...retry },
    onEvent: (e) => events.push(e), ...extra,
  });
  return { c, sleeps, events };
}

describe('lossless amounts', () => {
  test('a JSON integer above 2^53 in a response stays exact and becomes a bigint', async () => {
    const raw = '{"success":true,"message":null,"code":null,"timestamp":"2030-01-01T00:00:00Z","traceId":"t","pagination":null,'
      + '"data":[{"assetSymbol":"BIG","assetDecimals":18,"amountMinor":123456789012345678901234567890,"heldMinor":"7","totalMinor":123456789012345678901234567897}]}';
    const { fetch } = fakeFetch(() => new Response(raw, { status: 200 }));
    const rows = await sdk(fetch).c.balances.list();
    assert.equal(rows[0]!.amountMinor, 123456789012345678901234567890n);
    assert.equal(rows[0]!.heldMinor, 7n);
    assert.equal(rows[0]!.totalMinor, 123456789012345678901234567897n);
    assert.equal(rows[0]!.assetDecimals, 18);
  });

  test('amounts inside Money objects and signed ledger amounts become bigint; other fields stay as they are', async () => {
    const { fetch } = fakeFetch(() => ok([{ id: 'w1', state: 'pending_approval', money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '-150' }, destinationId: 'd', destinationSummary: 'Bank 12345678901234567890', reason: null, createdAt: 'x', updatedAt: 'x' }], { pagination: { page: 1, limit: 10, total: 1, totalPages: 1 } }));
    const page = await sdk(fetch).c.withdrawals.list();
    assert.equal(page.items[0]!.money.amountMinor, -150n);
    assert.equal(page.items[0]!.destinationSummary, 'Bank 12345678901234567890');
    assert.deepEqual(page.pagination, { page: 1, limit: 10, total: 1, totalPages: 1 });
  });

  test('the pre-pass quotes only large integers outside strings', () => {
    assert.equal(quoteLargeIntegers('{"a":"x\\"99999999999999999999","b":99999999999999999999,"c":1.5e300,"d":-12345678901234567890,"e":42}'),
      '{"a":"x\\"99999999999999999999","b":"99999999999999999999","c":1.5e300,"d":"-12345678901234567890","e":42}');
  });

  test('an amount field that is not an integer is refused as an invalid response, not rounded', async () => {
    const { fetch } = fakeFetch(() => ok([{ assetSymbol: 'USD', assetDecimals: 2, amountMinor: 1.5, heldMinor: '0', totalMinor: '0' }]));
    await assert.rejects(sdk(fetch).c.balances.list(), (e: CambioError) => e.code === 'sdk.invalid_response' && e.status === 200);
  });

  test('requests carry the key, the language, and amounts as digit strings', async () => {
    const { fetch, calls } = fakeFetch(() => ok({ id: 'w1', state: 'pending_approval', money: { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '123456789012345678901234567890' }, destinationId: 'd1', destinationSummary: 's', reason: null, createdAt: 'x', updatedAt: 'x' }, {}, 201));
    const r = await sdk(fetch).c.withdrawals.create({ destinationId: 'd1', assetSymbol: 'BTC', assetDecimals: 8, amountMinor: 123456789012345678901234567890n });
    assert.equal(r.outcome, 'created');
    assert.equal(r.data.money.amountMinor, 123456789012345678901234567890n);
    assert.equal(calls[0]!.url, 'https://api.test/api/v1/withdrawals');
    assert.equal(calls[0]!.headers['x-api-key'], KEY);
    assert.equal(calls[0]!.headers['x-lang'], 'en');
    assert.equal(calls[0]!.headers['content-type'], 'application/json');
    assert.equal(calls[0]!.body, '{"destinationId":"d1","assetSymbol":"BTC","assetDecimals":8,"amountMinor":"123456789012345678901234567890"}');
  });
});

describe('errors', () => {
  const cases: Array<[number, string, new (...a: never[]) => CambioError]> = [
    [401, 'auth.unauthenticated', AuthenticationError],
    [403, 'auth.scope_missing', PermissionError],
    [403, 'clients.client_cannot_operate', ClientCannotOperateError],
    [404, 'orders.quote_not_found', NotFoundError],
    [409, 'deposits.declaration_already_open', DeclarationAlreadyOpenError],
    [409, 'ledger.ledger_not_reconciled', LedgerNotReconciledError],
    [410, 'orders.quote_expired', QuoteExpiredError],
    [410, 'quotes.quote_expired', QuoteExpiredError],
    [422, 'quotes.quote_below_executable_rate', QuoteBelowExecutableRateError],
    [422, 'request.validation_failed', InvalidRequestError],
    [400, 'some.future_code', InvalidRequestError],
  ];
  for (const [status, code, Cls] of cases) {
    test(`${status} ${code} → ${Cls.name}, keeping status, code, message and traceId`, async () => {
      const { fetch, calls } = fakeFetch(() => fail(status, code, `message of ${code}`));
      const err = await sdk(fetch).c.client.get().then(() => null, (e: unknown) => e);
      assert.ok(err instanceof Cls, `got ${String(err)}`);
      assert.ok(err instanceof CambioError);
      assert.equal(err.status, status);
      assert.equal(err.code, code);
      assert.equal(err.message, `message of ${code}`);
      assert.equal(err.traceId, `tr-${status}`);
      assert.equal(calls.length, 1, 'a 4xx is never retried');
    });
  }

  test('the API key never appears in an error, even when the server echoes it', async () => {
    const { fetch } = fakeFetch(() => fail(401, 'auth.unauthenticated', `bad key ${KEY} (secret ${KEY.split('.')[1]})`));
    const { c } = sdk(fetch);
    const err = await c.client.get().then(() => null, (e: CambioError) => e);
    assert.ok(err instanceof AuthenticationError);
    for (const text of [err.message, String(err.stack), inspect(err, { depth: 5 }), JSON.stringify(err), inspect(c, { depth: 5 })]) {
      assert.ok(!text.includes(KEY.split('.')[1]!), `key leaked in: ${text.slice(0, 200)}`);
    }
    assert.match(err.message, /\[REDACTED\]/);
  });

  test('a non-envelope error (a proxy page) keeps its status and gets an http code', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const err = await sdk(fetch, { maxRetries: 0 }).c.client.get().then(() => null, (e: CambioError) => e);
    assert.ok(err instanceof ServerError);
    assert.equal(err.status, 502);
    assert.equal(err.code, 'http.502');
  });
});

describe('retry (spec: Status codes table)', () => {
  test('408/429/502/503/504 are retried with exponential backoff and full jitter', async () => {
    const { fetch, calls } = fakeFetch(() => fail(503, 'service.unavailable'), () => fail(502, 'http.502'), () => fail(504, 'http.504'), () => fail(408, 'request.timeout'), () => ok({ id: 'o' }));
    const { c, sleeps, events } = sdk(fetch, { maxRetries: 4, random: () => 0.5 });
    const r = await c.client.get();
    assert.deepEqual(r, { id: 'o' });
    assert.equal(calls.length, 5);
    assert.deepEqual(sleeps, [125, 250, 500, 1000]); // 0.5 × 250 × 2^n
    assert.deepEqual(events.filter((e) => e.type === 'retry').map((e) => e.status), [503, 502, 504, 408]);
  });

  test('jitter stays within [0, base·2^n) and never exceeds the ceiling', async () => {
    for (const rnd of [0, 0.999999]) {
      const { fetch } = fakeFetch(() => fail(503, 'service.unavailable'));
      const { c, sleeps } = sdk(fetch, { maxRetries: 8, random: () => rnd, baseDelayMs: 250, maxDelayMs: 8000 });
      await assert.rejects(c.client.get(), ServiceUnavailableError);
      assert.equal(sleeps.length, 8);
      sleeps.forEach((ms, n) => {
        const cap = Math.min(8000, 250 * 2 ** n);
        assert.ok(ms >= 0 && ms < cap, `retry ${n}: ${ms} outside [0, ${cap})`);
      });
      if (rnd > 0) assert.deepEqual(sleeps.slice(5), [7999, 7999, 7999]); // 250·2^5 = 8000 hits the ceiling
      else assert.deepEqual(sleeps, [0, 0, 0, 0, 0, 0, 0, 0]);
    }
  });

  test('after maxRetries the last error is thrown', async () => {
    const { fetch, calls } = fakeFetch(() => fail(503, 'service.unavailable'));
    await assert.rejects(sdk(fetch, { maxRetries: 3 }).c.client.get(), (e: CambioError) => e.code === 'service.unavailable');
    assert.equal(calls.length, 4);
  });

  test('Retry-After (seconds or HTTP date) is honoured, capped by the ceiling', async () => {
    const date = new Date(Date.now() + 3_000).toUTCString();
    const { fetch } = fakeFetch(
      () => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '2' }),
      () => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '600' }),
      () => fail(503, 'service.unavailable', 'later', { 'retry-after': date }),
      () => ok({ id: 'o' }),
    );
    const { c, sleeps } = sdk(fetch, { maxRetries: 3 });
    await c.client.get();
    assert.equal(sleeps[0], 2000);
    assert.equal(sleeps[1], 8000);
    assert.ok(sleeps[2]! > 1000 && sleeps[2]! <= 3000, `HTTP date gave ${sleeps[2]}`);
  });

  test('a 429 that outlasts the retries surfaces as RateLimitError with retryAfterMs', async () => {
    const { fetch } = fakeFetch(() => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '1' }));
    const err = await sdk(fetch, { maxRetries: 1 }).c.balances.list().then(() => null, (e: CambioError) => e);
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterMs, 1000);
  });

  test('500 is retried once, then thrown', async () => {
    const twice = fakeFetch(() => fail(500, 'internal.unexpected'));
    await assert.rejects(sdk(twice.fetch).c.client.get(), ServerError);
    assert.equal(twice.calls.length, 2);
    const recovers = fakeFetch(() => fail(500, 'internal.unexpected'), () => ok({ id: 'o' }));
    assert.deepEqual(await sdk(recovers.fetch).c.client.get(), { id: 'o' });
  });

  test('a network error or a timeout on a read is retried with backoff', async () => {
    const { fetch, calls } = fakeFetch(netError(), hang, () => ok([]));
    const { c, sleeps } = sdk(fetch, {}, { timeoutMs: 30 });
    assert.deepEqual(await c.balances.list(), []);
    assert.equal(calls.length, 3);
    assert.deepEqual(sleeps, [125, 250]);
  });

  test('without retries, a timeout is a TimeoutError and a refused connection a ConnectionError', async () => {
    const t = fakeFetch(hang);
    await assert.rejects(sdk(t.fetch, { maxRetries: 0 }, { timeoutMs: 20 }).c.client.get(), (e: CambioError) => e instanceof TimeoutError && e.code === 'sdk.timeout');
    const n = fakeFetch(netError('ECONNREFUSED'));
    await assert.rejects(sdk(n.fetch, { maxRetries: 0 }).c.client.get(), (e: CambioError) => e instanceof ConnectionError && e.code === 'sdk.network_error');
  });
});

describe('creating calls whose response never arrived', () => {
  const since = () => new Date().toISOString();
  const wd = (id: string, amount: string, createdAt = since()) => ({ id, state: 'pending_approval', money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: amount }, destinationId: 'dst1', destinationSummary: 'Bank ••1234', reason: null, createdAt, updatedAt: createdAt });
  const page = (items: unknown[]) => ok(items, { pagination: { page: 1, limit: 100, total: items.length, totalPages: 1 } });
  const body = { destinationId: 'dst1', assetSymbol: 'USD', assetDecimals: 2, amountMinor: 5000n };

  test('withdrawal: timeout, then GET /withdrawals finds it → returned as found, never re-sent', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals': [hang],
      'GET /api/v1/withdrawals': [() => page([wd('w-other', '4999'), wd('w-lost', '5000'), wd('w-old', '5000', '2000-01-01T00:00:00Z')])],
    });
    const { c, events } = sdk(f.fetch, {}, { timeoutMs: 30 });
    const r = await c.withdrawals.create(body);
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'w-lost');
    assert.equal(r.traceId, null);
    assert.equal(f.count('POST /api/v1/withdrawals'), 1);
    assert.deepEqual(events.map((e) => e.type), ['lost_response', 'retry', 'found_after_timeout']);
  });

  test('withdrawal: timeout, GET /withdrawals shows nothing of it → re-sent, and says so', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals': [hang, () => ok(wd('w-new', '5000'), {}, 201)],
      'GET /api/v1/withdrawals': [() => page([wd('w-old', '5000', '2000-01-01T00:00:00Z')])],
    });
    const { c, events } = sdk(f.fetch, {}, { timeoutMs: 30 });
    const r = await c.withdrawals.create(body);
    assert.equal(r.outcome, 'resent_after_timeout');
    assert.equal(r.data.id, 'w-new');
    assert.equal(r.attempts, 2);
    assert.equal(f.count('POST /api/v1/withdrawals'), 2);
    assert.ok(events.some((e) => e.type === 'resending'));
  });

  test('withdrawal: a 502 after sending is treated as lost too; a 503 is simply retried', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals': [() => fail(503, 'service.unavailable'), () => fail(502, 'http.502'), () => ok(wd('w-new', '5000'), {}, 201)],
      'GET /api/v1/withdrawals': [() => page([])],
    });
    const r = await sdk(f.fetch).c.withdrawals.create(body);
    assert.equal(r.outcome, 'resent_after_timeout');
    assert.equal(f.count('GET /api/v1/withdrawals'), 1, 'read once, after the 502 only');
    assert.equal(f.count('POST /api/v1/withdrawals'), 3);
  });

  test('withdrawal: when the read-back fails too, nothing is re-sent and LostResponseError says why', async () => {
    const f = routedFetch({ 'POST /api/v1/withdrawals': [netError()], 'GET /api/v1/withdrawals': [() => fail(403, 'auth.scope_missing')] });
    const err = await sdk(f.fetch).c.withdrawals.create(body).then(() => null, (e: CambioError) => e);
    assert.ok(err instanceof LostResponseError);
    assert.equal(err.code, 'sdk.lost_response_unresolved');
    assert.equal(f.count('POST /api/v1/withdrawals'), 1);
  });

  test('withdrawal: a refused connection (nothing sent) is retried without reading back', async () => {
    const f = routedFetch({ 'POST /api/v1/withdrawals': [netError('ECONNREFUSED'), () => ok(wd('w1', '5000'), {}, 201)] });
    const r = await sdk(f.fetch).c.withdrawals.create(body);
    assert.equal(r.outcome, 'created');
    assert.equal(f.count('POST /api/v1/withdrawals'), 2);
  });

  test('order: a lost response is re-sent; 410 already-used proves the first went through → the order is found by quoteId', async () => {
    const order = { id: 'ord1', quoteId: 'q1', state: 'pending_approval', createdAt: since(), updatedAt: since() };
    const f = routedFetch({
      'POST /api/v1/orders': [hang, () => fail(410, 'orders.quote_already_used')],
      'GET /api/v1/orders': [() => page([{ ...order, id: 'ord0', quoteId: 'q0' }, order])],
    });
    const r = await sdk(f.fetch, {}, { timeoutMs: 30 }).c.orders.create({ quoteId: 'q1' });
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'ord1');
    assert.equal(f.count('POST /api/v1/orders'), 2);
  });

  test('order: a 410 on the first attempt is just a QuoteExpiredError (nothing was lost)', async () => {
    const f = routedFetch({ 'POST /api/v1/orders': [() => fail(410, 'orders.quote_expired')] });
    await assert.rejects(sdk(f.fetch).c.orders.create({ quoteId: 'q1' }), QuoteExpiredError);
    assert.equal(f.count('POST /api/v1/orders'), 1);
  });

  test('declaration: lost, re-sent, 409 → the open declaration of the same asset and amount is returned', async () => {
    const decl = { id: 'dc1', reference: 'AB12', state: 'open', assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '10000', expectedAmountMinor: '10037', expectedAmount: '100.37', network: 'n', address: 'a', expiresAt: since(), expiresInSeconds: 3600 };
    const f = routedFetch({
      'POST /api/v1/deposits/declarations': [netError(), () => fail(409, 'deposits.declaration_already_open')],
      'GET /api/v1/deposits/open-declaration': [() => ok(decl)],
    });
    const r = await sdk(f.fetch).c.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10000n });
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.expectedAmountMinor, 10037n);
    // A 409 with nothing lost is the caller's own open declaration: surfaced as is.
    const g = routedFetch({ 'POST /api/v1/deposits/declarations': [() => fail(409, 'deposits.declaration_already_open')] });
    await assert.rejects(sdk(g.fetch).c.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10000n }), DeclarationAlreadyOpenError);
  });

  test('quote: commits nothing, so a lost response is simply asked again', async () => {
    const q = { id: 'q1', rateQuoteMinor: '6500000', amountBaseMinor: '50000000', amountQuoteMinor: '3250000', expiresAt: since() };
    const f = routedFetch({ 'POST /api/v1/quotes': [hang, () => ok(q, {}, 201)] });
    const r = await sdk(f.fetch, {}, { timeoutMs: 30 }).c.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 50000000n });
    assert.equal(r.amountQuoteMinor, 3250000n);
    assert.equal(f.calls[1]!.body, '{"baseSymbol":"BTC","quoteSymbol":"USD","amountBaseMinor":"50000000"}');
  });
});

describe('lists', () => {
  test('list({page, limit}) gives one page; iterate() walks them all without repeating a shifted item', async () => {
    const item = (id: string) => ({ id, entryId: 'e', kind: 'adjustment', account: 'available', assetSymbol: 'USD', assetDecimals: 2, amountMinor: '1', referenceId: null, memo: null, createdAt: 'x' });
    const pages: Record<string, unknown[]> = { 1: [item('a'), item('b')], 2: [item('b'), item('c')], 3: [item('d')] };
    const { fetch, calls } = fakeFetch((c) => {
      const u = new URL(c.url);
      const p = u.searchParams.get('page')!;
      return ok(pages[p] ?? [], { pagination: { page: Number(p), limit: Number(u.searchParams.get('limit')), total: 5, totalPages: 3 } });
    });
    const { c } = sdk(fetch);
    const one = await c.ledger.list({ page: 2, limit: 2 });
    assert.deepEqual(one.items.map((x) => x.id), ['b', 'c']);
    assert.equal(calls[0]!.url, 'https://api.test/api/v1/ledger?page=2&limit=2');
    const ids: string[] = [];
    for await (const e of c.ledger.iterate({ limit: 2 })) ids.push(e.id);
    assert.deepEqual(ids, ['a', 'b', 'c', 'd']);
    assert.equal((await collect(c.ledger.iterate({ limit: 2 }))).length, 4);
  });
});

describe('Money', () => {
  test('formats and parses with the decimals the response carries', () => {
    assert.equal(formatMinor(12345n, 2), '123.45');
    assert.equal(formatMinor(5n, 4), '0.0005');
    assert.equal(formatMinor(-150n, 2), '-1.50');
    assert.equal(formatMinor(7n, 0), '7');
    assert.equal(formatMinor(2n ** 256n - 1n, 18), '115792089237316195423570985008687907853269984665640564039457.584007913129639935');
    assert.equal(parseDecimal('0.5', 8), 50000000n);
    assert.equal(parseDecimal('100', 2), 10000n);
    assert.equal(parseDecimal('1.2300', 2), 123n);
    assert.equal(parseDecimal('.5', 1), 5n);
    assert.throws(() => parseDecimal('0.001', 2), /more than 2 decimals/);
    assert.throws(() => parseDecimal('-1', 2), RangeError);
    assert.equal(parseDecimal('-1', 2, { signed: true }), -100n);
    for (const bad of ['', '1e5', '1,5', 'abc', '.']) assert.throws(() => parseDecimal(bad, 2), RangeError, bad);
    const m = Money.parse('0.5', { assetSymbol: 'BTC', assetDecimals: 8 });
    assert.equal(m.amountMinor, 50000000n);
    assert.equal(m.toString(), '0.50000000 BTC');
    assert.equal(Money.from({ assetSymbol: 'USD', assetDecimals: 2, amountMinor: 3250000n }).toDecimal(), '32500.00');
    assert.equal(JSON.stringify(m), '{"assetSymbol":"BTC","assetDecimals":8,"amountMinor":"50000000"}');
  });
});

describe('construction', () => {
  test('sandbox: true means http://127.0.0.1:8080 unless a baseUrl is given; a trailing /api/v1 is tolerated', () => {
    assert.equal(new Cambio({ apiKey: KEY, sandbox: true }).baseUrl, 'http://127.0.0.1:8080');
    assert.equal(new Cambio({ apiKey: KEY, sandbox: true, baseUrl: 'http://h:1/api/v1/' }).baseUrl, 'http://h:1');
    assert.throws(() => new Cambio({ apiKey: KEY }), /baseUrl/);
    assert.throws(() => new Cambio({ apiKey: '', sandbox: true }), /apiKey/);
  });
});
