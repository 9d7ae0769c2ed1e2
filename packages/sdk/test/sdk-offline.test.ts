import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { describe, test } from 'node:test';
import {
  AuthenticationError,
  BadGatewayError,
  Cambio,
  CambioError,
  ClientCannotOperateError,
  collect,
  ConfigurationError,
  ConnectionError,
  DeclarationAlreadyOpenError,
  GatewayTimeoutError,
  InvalidRequestError,
  LedgerNotReconciledError,
  LostResponseError,
  Money,
  NotFoundError,
  PermissionError,
  QuoteBelowExecutableRateError,
  QuoteExpiredError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  ServiceUnavailableError,
  TimeoutError,
  TransientError,
  formatMinor,
  parseDecimal,
  quoteLargeIntegers,
} from '../src/index.ts';
import { fail, fakeFetch, hang, KEY, netError, ok, routedFetch, sdk } from './fake-fetch.ts';

describe('lossless amounts', () => {
  test('a JSON integer above 2^53 in a response stays exact and becomes a bigint', async () => {
    const raw =
      '{"success":true,"message":null,"code":null,"timestamp":"2030-01-01T00:00:00Z","traceId":"t","pagination":null,' +
      '"data":[{"assetSymbol":"BIG","assetDecimals":18,"amountMinor":123456789012345678901234567890,"heldMinor":"7","totalMinor":123456789012345678901234567897}]}';
    const { fetch } = fakeFetch(() => new Response(raw, { status: 200 }));
    const rows = await sdk(fetch).c.balances.list();
    assert.equal(rows[0]!.amountMinor, 123456789012345678901234567890n);
    assert.equal(rows[0]!.heldMinor, 7n);
    assert.equal(rows[0]!.totalMinor, 123456789012345678901234567897n);
    assert.equal(rows[0]!.assetDecimals, 18);
  });

  test('amounts inside Money objects and signed ledger amounts become bigint; other fields stay as they are', async () => {
    const { fetch } = fakeFetch(() =>
      ok(
        [
          {
            id: 'w1',
            state: 'pending_approval',
            money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '-150' },
            destinationId: 'd',
            destinationSummary: 'Bank 12345678901234567890',
            reason: null,
            createdAt: 'x',
            updatedAt: 'x',
          },
        ],
        { pagination: { page: 1, limit: 10, total: 1, totalPages: 1 } },
      ),
    );
    const page = await sdk(fetch).c.withdrawals.list();
    assert.equal(page.items[0]!.money.amountMinor, -150n);
    assert.equal(page.items[0]!.destinationSummary, 'Bank 12345678901234567890');
    assert.deepEqual(page.pagination, { page: 1, limit: 10, total: 1, totalPages: 1 });
  });

  test('the pre-pass quotes only large integers outside strings', () => {
    assert.equal(
      quoteLargeIntegers('{"a":"x\\"99999999999999999999","b":99999999999999999999,"c":1.5e300,"d":-12345678901234567890,"e":42}'),
      '{"a":"x\\"99999999999999999999","b":"99999999999999999999","c":1.5e300,"d":"-12345678901234567890","e":42}',
    );
  });

  test('an amount field that is not an integer is refused as an invalid response, not rounded', async () => {
    const { fetch } = fakeFetch(() => ok([{ assetSymbol: 'USD', assetDecimals: 2, amountMinor: 1.5, heldMinor: '0', totalMinor: '0' }]));
    await assert.rejects(sdk(fetch).c.balances.list(), (e: CambioError) => e.code === 'sdk.invalid_response' && e.status === 200);
  });

  test('requests carry the key, the language, and amounts as digit strings', async () => {
    const { fetch, calls } = fakeFetch(() =>
      ok(
        {
          id: 'w1',
          state: 'pending_approval',
          money: { assetSymbol: 'BTC', assetDecimals: 8, amountMinor: '123456789012345678901234567890' },
          destinationId: 'd1',
          destinationSummary: 's',
          reason: null,
          createdAt: 'x',
          updatedAt: 'x',
        },
        {},
        201,
      ),
    );
    const r = await sdk(fetch).c.withdrawals.create({
      destinationId: 'd1',
      assetSymbol: 'BTC',
      assetDecimals: 8,
      amountMinor: 123456789012345678901234567890n,
    });
    assert.equal(r.outcome, 'created');
    assert.equal(r.data.money.amountMinor, 123456789012345678901234567890n);
    assert.equal(calls[0]!.url, 'https://api.test/api/v1/withdrawals');
    assert.equal(calls[0]!.headers['x-api-key'], KEY);
    assert.equal(calls[0]!.headers['x-lang'], 'en');
    assert.equal(calls[0]!.headers['content-type'], 'application/json');
    assert.equal(
      calls[0]!.body,
      '{"destinationId":"d1","assetSymbol":"BTC","assetDecimals":8,"amountMinor":"123456789012345678901234567890"}',
    );
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
      const err = await sdk(fetch)
        .c.client.get()
        .then(
          () => null,
          (e: unknown) => e,
        );
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
    const err = await c.client.get().then(
      () => null,
      (e: CambioError) => e,
    );
    assert.ok(err instanceof AuthenticationError);
    for (const text of [err.message, String(err.stack), inspect(err, { depth: 5 }), JSON.stringify(err), inspect(c, { depth: 5 })]) {
      assert.ok(!text.includes(KEY.split('.')[1]!), `key leaked in: ${text.slice(0, 200)}`);
    }
    assert.match(err.message, /\[REDACTED\]/);
  });

  test('a non-envelope error (a proxy page) keeps its status and gets an http code', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 502 }));
    const err = await sdk(fetch, { maxRetries: 0 })
      .c.client.get()
      .then(
        () => null,
        (e: CambioError) => e,
      );
    assert.equal(err instanceof BadGatewayError, true, `got ${String(err)}`);
    assert.equal(err!.status, 502);
    assert.equal(err!.code, 'http.502');
  });

  test('transient statuses after the retries: 408 RequestTimeoutError, 429 RateLimitError, 502/503/504 ServiceUnavailableError; all TransientError, none a ServerError', async () => {
    const cases: Array<[number, new (...a: never[]) => CambioError]> = [
      [408, RequestTimeoutError],
      [429, RateLimitError],
      [502, BadGatewayError],
      [503, ServiceUnavailableError],
      [504, GatewayTimeoutError],
    ];
    for (const [status, Cls] of cases) {
      const { fetch, calls } = fakeFetch(() => fail(status, `http.${status}`));
      const err = await sdk(fetch, { maxRetries: 2 })
        .c.client.get()
        .then(
          () => null,
          (e: unknown) => e,
        );
      assert.equal(err instanceof Cls, true, `${status} gave ${String(err)}`);
      assert.equal(err instanceof TransientError, true, `${status} is transient`);
      assert.equal(err instanceof ServerError, false, `${status} is not a ServerError (500)`);
      assert.equal(err instanceof InvalidRequestError, false, `${status} is not an InvalidRequestError`);
      assert.equal((err as CambioError).status, status);
      assert.equal(calls.length, 3, `${status} was retried`);
    }
    assert.equal(new BadGatewayError({ status: 502, code: 'x', message: 'm' }) instanceof ServiceUnavailableError, true);
    const { fetch } = fakeFetch(() => fail(500, 'internal.unexpected'));
    const e500 = await sdk(fetch)
      .c.client.get()
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.equal(e500 instanceof ServerError && !(e500 instanceof TransientError), true);
  });
});

describe('retry (spec: Status codes table)', () => {
  test('408/429/502/503/504 are retried with exponential backoff and full jitter', async () => {
    const { fetch, calls } = fakeFetch(
      () => fail(503, 'service.unavailable'),
      () => fail(502, 'http.502'),
      () => fail(504, 'http.504'),
      () => fail(408, 'request.timeout'),
      () => ok({ id: 'o' }),
    );
    const { c, sleeps, events } = sdk(fetch, { maxRetries: 4, random: () => 0.5 });
    const r = await c.client.get();
    assert.deepEqual(r, { id: 'o' });
    assert.equal(calls.length, 5);
    assert.deepEqual(sleeps, [125, 250, 500, 1000]); // 0.5 × 250 × 2^n
    assert.deepEqual(
      events.filter((e) => e.type === 'retry').map((e) => e.status),
      [503, 502, 504, 408],
    );
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
      if (rnd > 0)
        assert.deepEqual(sleeps.slice(5), [7999, 7999, 7999]); // 250·2^5 = 8000 hits the ceiling
      else assert.deepEqual(sleeps, [0, 0, 0, 0, 0, 0, 0, 0]);
    }
  });

  test('after maxRetries the last error is thrown', async () => {
    const { fetch, calls } = fakeFetch(() => fail(503, 'service.unavailable'));
    await assert.rejects(sdk(fetch, { maxRetries: 3 }).c.client.get(), (e: CambioError) => e.code === 'service.unavailable');
    assert.equal(calls.length, 4);
  });

  test('Retry-After (seconds or HTTP date) is waited in full, never cut to the ceiling', async () => {
    const date = new Date(Date.now() + 3_000).toUTCString();
    const { fetch } = fakeFetch(
      () => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '2' }),
      () => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '8' }),
      () => fail(503, 'service.unavailable', 'later', { 'retry-after': date }),
      () => ok({ id: 'o' }),
    );
    const { c, sleeps } = sdk(fetch, { maxRetries: 3, maxDelayMs: 8000 });
    await c.client.get();
    assert.equal(sleeps[0], 2000);
    assert.equal(sleeps[1], 8000, 'exactly the ceiling is still waited');
    assert.ok(sleeps[2]! > 1000 && sleeps[2]! <= 3000, `HTTP date gave ${sleeps[2]}`);
  });

  test('a Retry-After beyond the ceiling stops the retries: RateLimitError with retryAfterMs, no shorter wait', async () => {
    const { fetch, calls } = fakeFetch(
      () => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '600' }),
      () => ok({ id: 'o' }),
    );
    const { c, sleeps } = sdk(fetch, { maxRetries: 3, maxDelayMs: 8000 });
    const err = await c.client.get().then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal(err instanceof RateLimitError, true, `got ${String(err)}`);
    assert.equal((err as RateLimitError).retryAfterMs, 600_000);
    assert.deepEqual(sleeps, [], 'it did not wait 8 s and try again early');
    assert.equal(calls.length, 1);
  });

  test('a 429 that outlasts the retries surfaces as RateLimitError with retryAfterMs', async () => {
    const { fetch } = fakeFetch(() => fail(429, 'rate_limit.exceeded', 'slow down', { 'retry-after': '1' }));
    const err = await sdk(fetch, { maxRetries: 1 })
      .c.balances.list()
      .then(
        () => null,
        (e: CambioError) => e,
      );
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfterMs, 1000);
  });

  test('500 is retried once, then thrown', async () => {
    const twice = fakeFetch(() => fail(500, 'internal.unexpected'));
    await assert.rejects(sdk(twice.fetch).c.client.get(), ServerError);
    assert.equal(twice.calls.length, 2);
    const recovers = fakeFetch(
      () => fail(500, 'internal.unexpected'),
      () => ok({ id: 'o' }),
    );
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
    await assert.rejects(
      sdk(t.fetch, { maxRetries: 0 }, { timeoutMs: 20 }).c.client.get(),
      (e: CambioError) => e instanceof TimeoutError && e.code === 'sdk.timeout',
    );
    const n = fakeFetch(netError('ECONNREFUSED'));
    await assert.rejects(
      sdk(n.fetch, { maxRetries: 0 }).c.client.get(),
      (e: CambioError) => e instanceof ConnectionError && e.code === 'sdk.network_error',
    );
  });
});

describe('creating calls whose response never arrived', () => {
  const since = () => new Date().toISOString();
  const wd = (id: string, amount: string, createdAt = since()) => ({
    id,
    state: 'pending_approval',
    money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: amount },
    destinationId: 'dst1',
    destinationSummary: 'Bank ••1234',
    reason: null,
    createdAt,
    updatedAt: createdAt,
  });
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
    assert.deepEqual(
      events.map((e) => e.type),
      ['lost_response', 'retry', 'found_after_timeout'],
    );
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
      'POST /api/v1/withdrawals': [
        () => fail(503, 'service.unavailable'),
        () => fail(502, 'http.502'),
        () => ok(wd('w-new', '5000'), {}, 201),
      ],
      'GET /api/v1/withdrawals': [() => page([])],
    });
    const r = await sdk(f.fetch).c.withdrawals.create(body);
    assert.equal(r.outcome, 'resent_after_timeout');
    assert.equal(f.count('GET /api/v1/withdrawals'), 1, 'read once, after the 502 only');
    assert.equal(f.count('POST /api/v1/withdrawals'), 3);
  });

  test('withdrawal: when the read-back fails too, nothing is re-sent and LostResponseError says why', async () => {
    const f = routedFetch({ 'POST /api/v1/withdrawals': [netError()], 'GET /api/v1/withdrawals': [() => fail(403, 'auth.scope_missing')] });
    const err = await sdk(f.fetch)
      .c.withdrawals.create(body)
      .then(
        () => null,
        (e: CambioError) => e,
      );
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
    const decl = {
      id: 'dc1',
      reference: 'AB12',
      state: 'open',
      assetSymbol: 'USD',
      assetDecimals: 2,
      declaredAmountMinor: '10000',
      expectedAmountMinor: '10037',
      expectedAmount: '100.37',
      network: 'n',
      address: 'a',
      expiresAt: since(),
      expiresInSeconds: 3600,
    };
    const f = routedFetch({
      'POST /api/v1/deposits/declarations': [netError(), () => fail(409, 'deposits.declaration_already_open')],
      'GET /api/v1/deposits/open-declaration': [() => ok(decl)],
    });
    const r = await sdk(f.fetch).c.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10000n });
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.expectedAmountMinor, 10037n);
    // A 409 with nothing lost is the caller's own open declaration: surfaced as is.
    const g = routedFetch({ 'POST /api/v1/deposits/declarations': [() => fail(409, 'deposits.declaration_already_open')] });
    await assert.rejects(
      sdk(g.fetch).c.deposits.declare({ assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: 10000n }),
      DeclarationAlreadyOpenError,
    );
  });

  test('quote: commits nothing, so a lost response is simply asked again', async () => {
    const q = { id: 'q1', rateQuoteMinor: '6500000', amountBaseMinor: '50000000', amountQuoteMinor: '3250000', expiresAt: since() };
    const f = routedFetch({ 'POST /api/v1/quotes': [hang, () => ok(q, {}, 201)] });
    const r = await sdk(f.fetch, {}, { timeoutMs: 30 }).c.quotes.create({
      baseSymbol: 'BTC',
      quoteSymbol: 'USD',
      amountBaseMinor: 50000000n,
    });
    assert.equal(r.amountQuoteMinor, 3250000n);
    assert.equal(f.calls[1]!.body, '{"baseSymbol":"BTC","quoteSymbol":"USD","amountBaseMinor":"50000000"}');
  });
});

describe('lists', () => {
  test('list({page, limit}) gives one page; iterate() walks them all without repeating a shifted item', async () => {
    const item = (id: string) => ({
      id,
      entryId: 'e',
      kind: 'adjustment',
      account: 'available',
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '1',
      referenceId: null,
      memo: null,
      createdAt: 'x',
    });
    const pages: Record<string, unknown[]> = { 1: [item('a'), item('b')], 2: [item('b'), item('c')], 3: [item('d')] };
    const { fetch, calls } = fakeFetch((c) => {
      const u = new URL(c.url);
      const p = u.searchParams.get('page')!;
      return ok(pages[p] ?? [], { pagination: { page: Number(p), limit: Number(u.searchParams.get('limit')), total: 5, totalPages: 3 } });
    });
    const { c } = sdk(fetch);
    const one = await c.ledger.list({ page: 2, limit: 2 });
    assert.deepEqual(
      one.items.map((x) => x.id),
      ['b', 'c'],
    );
    assert.equal(calls[0]!.url, 'https://api.test/api/v1/ledger?page=2&limit=2');
    const ids: string[] = [];
    for await (const e of c.ledger.iterate({ limit: 2 })) ids.push(e.id);
    assert.deepEqual(ids, ['a', 'b', 'c', 'd']);
    assert.equal((await collect(c.ledger.iterate({ limit: 2 }))).length, 4);
  });
});

describe('lists anchored at their first page', () => {
  test("iterate() sends the first page's pagination.asOf back with every later page; list() passes asOf when given", async () => {
    const item = (id: string) => ({ id, quoteId: `q-${id}`, state: 'pending_approval', createdAt: 'x', updatedAt: 'x' });
    const { fetch, calls } = fakeFetch((c) => {
      const u = new URL(c.url);
      const p = Number(u.searchParams.get('page'));
      return ok(p === 1 ? [item('a')] : [item(`p${p}`)], { pagination: { page: p, limit: 1, total: 3, totalPages: 3, asOf: '42' } });
    });
    const { c } = sdk(fetch);
    const ids: string[] = [];
    for await (const o of c.orders.iterate({ limit: 1 })) ids.push(o.id);
    assert.deepEqual(ids, ['a', 'p2', 'p3']);
    assert.deepEqual(
      calls.map((x) => new URL(x.url).search),
      ['?page=1&limit=1', '?page=2&limit=1&asOf=42', '?page=3&limit=1&asOf=42'],
    );
    await c.orders.list({ page: 2, limit: 1, asOf: '42' });
    assert.equal(new URL(calls.at(-1)!.url).search, '?page=2&limit=1&asOf=42');
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
  test('sandbox: true means the local http://127.0.0.1:8080; a trailing /api/v1 is tolerated', () => {
    assert.equal(new Cambio({ apiKey: KEY, sandbox: true }).baseUrl, 'http://127.0.0.1:8080');
    assert.equal(new Cambio({ apiKey: KEY, baseUrl: 'http://h:1/api/v1/' }).baseUrl, 'http://h:1');
    assert.throws(() => new Cambio({ apiKey: KEY }), /baseUrl/);
    assert.throws(() => new Cambio({ apiKey: '', sandbox: true }), /apiKey/);
  });

  test('baseUrl and sandbox together are refused, not silently resolved', () => {
    assert.throws(
      () => new Cambio({ apiKey: KEY, sandbox: true, baseUrl: 'http://h:1' }),
      (e: unknown) => e instanceof ConfigurationError && /not both/.test(e.message),
    );
  });

  test('a baseUrl that is not an http(s) URL is refused at construction with a clear error', () => {
    for (const bad of ['api.example.com', 'localhost:8080', 'ftp://h/x', 'https://user:pw@h', 'not a url', 'https://h/?x=1']) {
      assert.throws(
        () => new Cambio({ apiKey: KEY, baseUrl: bad }),
        (e: unknown) => e instanceof ConfigurationError && e.code === 'sdk.configuration_error' && /baseUrl/.test(e.message),
        bad,
      );
    }
  });

  test('a request fetch refuses to build (invalid header value) is a ConfigurationError: not retried, not a lost response', async () => {
    const invalidHeader = () => {
      throw new TypeError('Headers.append: "cmb_live_x.y\nz" is an invalid header value.');
    };
    const read = fakeFetch(invalidHeader);
    const err = await sdk(read.fetch)
      .c.balances.list()
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.equal(err instanceof ConfigurationError, true, `got ${String(err)}`);
    assert.equal(read.calls.length, 1, 'not retried');
    const w = routedFetch({ 'POST /api/v1/withdrawals': [invalidHeader], 'GET /api/v1/withdrawals': [() => ok([])] });
    const werr = await sdk(w.fetch)
      .c.withdrawals.create({ destinationId: 'd', assetSymbol: 'USD', assetDecimals: 2, amountMinor: 1n })
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.equal(werr instanceof ConfigurationError, true, `got ${String(werr)}`);
    assert.equal(werr instanceof LostResponseError, false);
    assert.equal(w.count('POST /api/v1/withdrawals'), 1);
    assert.equal(w.count('GET /api/v1/withdrawals'), 0, 'nothing was sent, so nothing is read back');
  });

  test('with the real fetch: a key with a line break fails once as a configuration error, and the key is not in the message', async () => {
    let n = 0;
    const counting = (u: string, i: RequestInit) => {
      n++;
      return fetch(u, i);
    };
    const c = new Cambio({
      apiKey: 'cmb_live_abcd.sec\nretsecretsecret',
      baseUrl: 'http://127.0.0.1:1',
      fetch: counting,
      retry: { sleep: async () => {} },
    });
    const err = await c.client.get().then(
      () => null,
      (e: unknown) => e,
    );
    assert.equal(err instanceof ConfigurationError, true, `got ${String(err)}`);
    assert.equal(n, 1);
    assert.ok(!(err as Error).message.includes('retsecretsecret'), (err as Error).message);
  });
});
