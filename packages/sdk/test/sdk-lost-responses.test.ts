import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BadGatewayError,
  CambioOperator,
  InvalidRequestError,
  LostResponseError,
  PermissionError,
  TimeoutError,
  type CambioError,
  type RetryOptions,
} from '../src/index.ts';
import { fail, hang, netError, ok, routedFetch, sdk, type Handler } from './fake-fetch.ts';

const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** A list page whose envelope says the server's clock reads `Date.now() + offsetMs`. */
const page = (items: unknown[], offsetMs = 0) =>
  ok(items, { timestamp: iso(Date.now() + offsetMs), pagination: { page: 1, limit: 100, total: items.length, totalPages: 1 } });
const wd = (id: string, amount: string, createdAt: string) => ({
  id,
  state: 'pending_approval',
  money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: amount },
  destinationId: 'dst1',
  destinationSummary: 'Bank ••1234',
  reason: null,
  createdAt,
  updatedAt: createdAt,
});
const order = (id: string, quoteId: string, createdAt = iso(Date.now())) => ({
  id,
  quoteId,
  state: 'pending_approval',
  createdAt,
  updatedAt: createdAt,
});
const dest = (id: string, label: string, createdAt: string) => ({
  id,
  label,
  assetSymbol: 'USD',
  summary: 'Bank ••6789',
  usable: false,
  createdAt,
});
const body = { destinationId: 'dst1', assetSymbol: 'USD', assetDecimals: 2, amountMinor: 5000n };
const bank = {
  label: 'Payroll',
  assetSymbol: 'USD',
  bankName: 'Banco Uno',
  accountKind: 'checking' as const,
  accountNumber: '0001-2345-6789',
  holderName: 'Org',
  holderDocument: 'J-1',
};

const fast = (retry: RetryOptions) => ({ retry, extra: { timeoutMs: 20 } });
function client(f: { fetch: (u: string, i: RequestInit) => Promise<Response> }, o: { retry: RetryOptions; extra: { timeoutMs: number } }) {
  return sdk(f.fetch, o.retry, o.extra);
}
const settle = <T>(p: Promise<T>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('retries run out on a lost creating call: one final read-back, then found or LostResponseError', () => {
  for (const maxRetries of [0, 2]) {
    test(`withdrawal, maxRetries ${maxRetries}: every POST times out, the final read finds it → found_after_timeout`, async () => {
      const reads: Handler[] = [...Array(maxRetries).fill(() => page([])), () => page([wd('w-lost', '5000', iso(Date.now()))])];
      const f = routedFetch({ 'POST /api/v1/withdrawals': [hang], 'GET /api/v1/withdrawals': reads });
      const { c, events } = client(f, fast({ maxRetries }));
      const r = await c.withdrawals.create(body);
      assert.equal(r.outcome, 'found_after_timeout');
      assert.equal(r.data.id, 'w-lost');
      assert.equal(f.count('POST /api/v1/withdrawals'), maxRetries + 1);
      assert.equal(f.count('GET /api/v1/withdrawals'), maxRetries + 1, 'read before each resend, and once more at the end');
      assert.equal(events.at(-1)?.type, 'found_after_timeout');
    });

    test(`withdrawal, maxRetries ${maxRetries}: the final read finds nothing → LostResponseError carrying the timeout`, async () => {
      const f = routedFetch({
        'POST /api/v1/withdrawals': [hang],
        'GET /api/v1/withdrawals': [() => page([wd('w-old', '5000', '2000-01-01T00:00:00Z')])],
      });
      const err = await settle(client(f, fast({ maxRetries })).c.withdrawals.create(body));
      assert.equal(err instanceof LostResponseError, true, `got ${String(err)}`);
      const lost = err as LostResponseError;
      assert.equal(lost.code, 'sdk.lost_response_unresolved');
      assert.equal(lost.cause instanceof TimeoutError, true, 'the last error is the cause');
      assert.equal(lost.readBackError, null, 'the read worked; it found nothing');
      assert.equal(lost.method, 'POST');
      assert.equal(lost.path, '/api/v1/withdrawals');
      assert.match(lost.message, /withdrawal.*read the list before trying again/);
      assert.equal(f.count('POST /api/v1/withdrawals'), maxRetries + 1);
      assert.equal(f.count('GET /api/v1/withdrawals'), maxRetries + 1);
    });

    test(`order, maxRetries ${maxRetries}: every POST times out, the final lookup by quoteId finds it → found_after_timeout`, async () => {
      const f = routedFetch({
        'POST /api/v1/orders': [hang],
        'GET /api/v1/orders': [() => page([order('ord0', 'q0'), order('ord1', 'q1')])],
      });
      const r = await client(f, fast({ maxRetries })).c.orders.create({ quoteId: 'q1' });
      assert.equal(r.outcome, 'found_after_timeout');
      assert.equal(r.data.id, 'ord1');
      assert.equal(f.count('POST /api/v1/orders'), maxRetries + 1, 'a quote is single-use: re-sent without reading first');
      assert.equal(f.count('GET /api/v1/orders'), 1, 'looked up once, when the retries ran out');
    });

    test(`order, maxRetries ${maxRetries}: the final lookup finds nothing → LostResponseError`, async () => {
      const f = routedFetch({ 'POST /api/v1/orders': [hang], 'GET /api/v1/orders': [() => page([order('ord0', 'q0')])] });
      const err = await settle(client(f, fast({ maxRetries })).c.orders.create({ quoteId: 'q1' }));
      assert.equal(err instanceof LostResponseError, true, `got ${String(err)}`);
      assert.equal((err as LostResponseError).cause instanceof TimeoutError, true);
      assert.match((err as Error).message, /order for quote q1/);
      assert.equal(f.count('GET /api/v1/orders'), 1);
    });
  }

  test('order: lost, then the resends get 503 until the retries end → the lookup still finds what the lost attempt made', async () => {
    const f = routedFetch({
      'POST /api/v1/orders': [() => fail(502, 'http.502'), () => fail(503, 'service.unavailable')],
      'GET /api/v1/orders': [() => page([order('ord1', 'q1')])],
    });
    const r = await client(f, fast({ maxRetries: 2 })).c.orders.create({ quoteId: 'q1' });
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(f.count('POST /api/v1/orders'), 3);
  });

  test('a 503 alone (nothing lost) after the retries is just the 503: nothing is read back', async () => {
    const f = routedFetch({ 'POST /api/v1/withdrawals': [() => fail(503, 'service.unavailable')] });
    const err = await settle(client(f, fast({ maxRetries: 1 })).c.withdrawals.create(body));
    assert.equal(err instanceof LostResponseError, false);
    assert.equal((err as CambioError).status, 503);
    assert.equal(f.count('GET /api/v1/withdrawals'), 0);
  });

  test('a read whose answer is lost is not a LostResponseError: reads are safe to repeat', async () => {
    const f = routedFetch({ 'GET /api/v1/balances': [hang] });
    const err = await settle(client(f, fast({ maxRetries: 1 })).c.balances.list());
    assert.equal(err instanceof TimeoutError, true, `got ${String(err)}`);
  });

  test('a quote whose answer is lost is retried and then surfaces as is: a quote commits to nothing', async () => {
    const f = routedFetch({ 'POST /api/v1/quotes': [() => fail(502, 'http.502')] });
    const err = await settle(
      client(f, fast({ maxRetries: 1 })).c.quotes.create({ baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: 1n }),
    );
    assert.equal(err instanceof BadGatewayError, true, `got ${String(err)}`);
  });
});

describe('a refusal of the resend after a lost attempt: look up what the lost attempt created', () => {
  for (const [status, code] of [
    [409, 'ledger.ledger_not_reconciled'],
    [403, 'clients.client_cannot_operate'],
    [410, 'orders.quote_already_used'],
  ] as const) {
    test(`order: lost, resend answers ${status} ${code} → the order is found by quoteId`, async () => {
      const f = routedFetch({
        'POST /api/v1/orders': [hang, () => fail(status, code)],
        'GET /api/v1/orders': [() => page([order('ord1', 'q1')])],
      });
      const r = await client(f, fast({})).c.orders.create({ quoteId: 'q1' });
      assert.equal(r.outcome, 'found_after_timeout');
      assert.equal(r.data.id, 'ord1');
      assert.equal(f.count('POST /api/v1/orders'), 2);
    });
  }

  test('order: lost, resend refused, and the lookup itself is refused (no portal:read) → LostResponseError with the read failure', async () => {
    const f = routedFetch({
      'POST /api/v1/orders': [hang, () => fail(409, 'ledger.ledger_not_reconciled')],
      'GET /api/v1/orders': [() => fail(403, 'auth.scope_missing')],
    });
    const err = await settle(client(f, fast({})).c.orders.create({ quoteId: 'q1' }));
    assert.equal(err instanceof LostResponseError, true, `got ${String(err)}`);
    const lost = err as LostResponseError;
    assert.equal(lost.readBackError instanceof PermissionError, true);
    assert.equal((lost.cause as CambioError).code, 'ledger.ledger_not_reconciled');
    assert.match(lost.message, /portal:read/);
    assert.equal(f.count('POST /api/v1/orders'), 2, 'nothing more is sent');
  });

  test('order: lost, resend refused with 422, the lookup finds nothing → the refusal stands', async () => {
    const f = routedFetch({
      'POST /api/v1/orders': [hang, () => fail(422, 'ledger.insufficient_balance')],
      'GET /api/v1/orders': [() => page([])],
    });
    const err = await settle(client(f, fast({})).c.orders.create({ quoteId: 'q1' }));
    assert.equal(err instanceof InvalidRequestError, true, `got ${String(err)}`);
  });

  test('withdrawal: lost, read finds nothing, resend refused 422 (the lost one holds the balance) → read again, found', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals': [hang, () => fail(422, 'ledger.insufficient_balance')],
      'GET /api/v1/withdrawals': [() => page([]), () => page([wd('w-late', '5000', iso(Date.now()))])],
    });
    const r = await client(f, fast({})).c.withdrawals.create(body);
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'w-late');
  });

  test('bank destination: lost, resend answers 403, the lookup finds it; when the lookup is refused → LostResponseError', async () => {
    const f = routedFetch({
      'POST /api/v1/withdrawals/destinations/bank': [netError(), () => fail(403, 'clients.client_cannot_operate')],
      'GET /api/v1/withdrawals/destinations': [
        () => page([dest('dst-other', 'Other', iso(Date.now())), dest('dst-lost', 'Payroll', iso(Date.now()))]),
      ],
    });
    const r = await client(f, fast({})).c.withdrawals.registerBankDestination(bank);
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'dst-lost');

    const g = routedFetch({
      'POST /api/v1/withdrawals/destinations/bank': [netError(), () => fail(409, 'withdrawals.destination_already_registered')],
      'GET /api/v1/withdrawals/destinations': [() => fail(403, 'auth.scope_missing')],
    });
    const err = await settle(client(g, fast({})).c.withdrawals.registerBankDestination(bank));
    assert.equal(err instanceof LostResponseError, true, `got ${String(err)}`);
    assert.equal((err as LostResponseError).readBackError instanceof PermissionError, true);
  });

  test('operator: a creating call with no way to read back is not re-sent after a lost answer: LostResponseError at once', async () => {
    const f = routedFetch({ 'POST /operator/v1/organizations': [netError()] });
    const op = new CambioOperator({
      token: 'tok-0123456789',
      baseUrl: 'https://api.test',
      fetch: f.fetch,
      retry: { sleep: async () => {} },
    });
    const err = await settle(op.organizations.create({ name: 'X' }));
    assert.equal(err instanceof LostResponseError, true, `got ${String(err)}`);
    assert.equal(f.count('POST /operator/v1/organizations'), 1);
  });
});

describe("clock skew: the read-back window is on the server's clock, as the read-back's own answer reports it", () => {
  test('withdrawal: a server clock 5 minutes behind, a new client, a lost answer → found, not sent twice', async () => {
    const behind = -5 * MIN;
    const f = routedFetch({
      'POST /api/v1/withdrawals': [
        hang,
        () => ok(wd('w-dup', '5000', iso(Date.now() + behind)), { timestamp: iso(Date.now() + behind) }, 201),
      ],
      'GET /api/v1/withdrawals': [
        () => page([wd('w-lost', '5000', iso(Date.now() + behind - 50)), wd('w-old', '5000', iso(Date.now() + behind - 10 * MIN))], behind),
      ],
    });
    const r = await client(f, fast({})).c.withdrawals.create(body);
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'w-lost');
    assert.equal(f.count('POST /api/v1/withdrawals'), 1, 'never re-sent');
  });

  test('withdrawal: a server clock 5 minutes ahead → an identical older withdrawal is not mistaken for the lost one', async () => {
    const ahead = 5 * MIN;
    const f = routedFetch({
      'POST /api/v1/withdrawals': [
        hang,
        () => ok(wd('w-new', '5000', iso(Date.now() + ahead)), { timestamp: iso(Date.now() + ahead) }, 201),
      ],
      'GET /api/v1/withdrawals': [() => page([wd('w-two-minutes-old', '5000', iso(Date.now() + ahead - 2 * MIN))], ahead)],
    });
    const r = await client(f, fast({})).c.withdrawals.create(body);
    assert.equal(r.outcome, 'resent_after_timeout');
    assert.equal(r.data.id, 'w-new');
  });

  test('bank destination: a server clock 5 minutes behind → the destination the lost attempt registered is found', async () => {
    const behind = -5 * MIN;
    const f = routedFetch({
      'POST /api/v1/withdrawals/destinations/bank': [hang, () => fail(409, 'withdrawals.destination_already_registered')],
      'GET /api/v1/withdrawals/destinations': [
        () => ok([dest('dst-lost', 'Payroll', iso(Date.now() + behind - 50))], { timestamp: iso(Date.now() + behind) }),
      ],
    });
    const r = await client(f, fast({})).c.withdrawals.registerBankDestination(bank);
    assert.equal(r.outcome, 'found_after_timeout');
    assert.equal(r.data.id, 'dst-lost');
  });
});
