// The operator client in a browser signed in at the desk: the cookie is the credential, decisions carry
// an Idempotency-Key, and the production decisions (fill, payout, fail) send exact amounts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CambioOperator, ConfigurationError, type CambioError } from '../src/index.ts';
import { fail, fakeFetch, ok } from './fake-fetch.ts';

interface Captured {
  init: RequestInit;
  url: string;
}
function capturing(handler: () => Response) {
  const seen: Captured[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return handler();
  };
  return { fetch, seen };
}

const order = { id: 'o1', state: 'completed', organizationId: 'org1', proceedsQuoteMinor: '100000000000000000000001' };

describe('operator client with a staff session', () => {
  test('session: true sends no credential header and asks fetch for same-origin cookies', async () => {
    const { fetch, seen } = capturing(() =>
      ok({
        staff: { id: 's1', name: 'Ana', email: 'ana@op.test', role: 'approver', status: 'active', totpEnrolled: true, createdAt: 'x' },
      }),
    );
    const op = new CambioOperator({ session: true, baseUrl: 'https://desk.test', fetch });
    const me = await op.session.get();
    assert.equal(me.staff.role, 'approver');
    assert.equal(seen[0]!.url, 'https://desk.test/operator/v1/session');
    assert.equal(seen[0]!.init.credentials, 'same-origin');
    const headers = seen[0]!.init.headers as Record<string, string>;
    assert.equal(headers.authorization, undefined);
  });

  test("a token client keeps fetch's default credentials and sends the bearer", async () => {
    const { fetch, seen } = capturing(() => ok([]));
    const op = new CambioOperator({ token: 'ops_abc', baseUrl: 'https://desk.test', fetch });
    await op.staff.list();
    assert.equal(seen[0]!.init.credentials, undefined);
    assert.equal((seen[0]!.init.headers as Record<string, string>).authorization, 'Bearer ops_abc');
  });

  test('token and session together, or neither, is a configuration error', () => {
    assert.throws(() => new CambioOperator({ session: true, token: 'x', baseUrl: 'https://desk.test' }), ConfigurationError);
    assert.throws(() => new CambioOperator({ baseUrl: 'https://desk.test' }), ConfigurationError);
  });

  test('sign-in is sent once, never retried, and its refusal keeps the code', async () => {
    const { fetch, calls } = fakeFetch(() => fail(401, 'auth.code_required', 'a code is needed'));
    const op = new CambioOperator({ session: true, baseUrl: 'https://desk.test', fetch, retry: { sleep: async () => {} } });
    await assert.rejects(
      op.session.signIn({ email: 'ana@op.test', password: 'pw', code: '' }),
      (e: CambioError) => e.status === 401 && e.code === 'auth.code_required',
    );
    assert.equal(calls.length, 1);
    assert.equal(calls[0]!.method, 'POST');
  });
});

describe('decisions', () => {
  test('approve carries the Idempotency-Key given and the reason', async () => {
    const { fetch, calls } = fakeFetch(() => ok({ ...order, state: 'pending_approval' }));
    const op = new CambioOperator({ session: true, baseUrl: 'https://desk.test', fetch });
    await op.orders.approve('o1', undefined, { idempotencyKey: 'k-1' });
    await op.withdrawals.reject('w1', 'wrong account', { idempotencyKey: 'k-2' });
    assert.equal(calls[0]!.url, 'https://desk.test/operator/v1/orders/o1/approve');
    assert.equal(calls[0]!.headers['idempotency-key'], 'k-1');
    assert.equal(calls[0]!.body, '{}');
    assert.equal(calls[1]!.url, 'https://desk.test/operator/v1/withdrawals/w1/reject');
    assert.equal(calls[1]!.headers['idempotency-key'], 'k-2');
    assert.equal(calls[1]!.body, '{"reason":"wrong account"}');
  });

  test('a lost answer to a decision is re-sent with the same key', async () => {
    let n = 0;
    const { fetch, calls } = fakeFetch(() => {
      n++;
      if (n === 1) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      return ok(order);
    });
    const op = new CambioOperator({
      session: true,
      baseUrl: 'https://desk.test',
      fetch,
      retry: { sleep: async () => {}, random: () => 0 },
    });
    await op.orders.fill(
      'o1',
      { venue: 'kraken', venueReference: 'K-1', proceedsQuoteMinor: 100000000000000000000001n },
      { idempotencyKey: 'k-fill' },
    );
    assert.equal(calls.length, 2);
    assert.deepEqual(
      calls.map((c) => c.headers['idempotency-key']),
      ['k-fill', 'k-fill'],
    );
  });

  test('fill sends proceeds as exact digits; payout and fail hit their paths', async () => {
    const { fetch, calls } = fakeFetch(() => ok(order));
    const op = new CambioOperator({ session: true, baseUrl: 'https://desk.test', fetch });
    const filled = await op.orders.fill('o1', { venue: 'kraken', venueReference: 'K-1', proceedsQuoteMinor: 100000000000000000000001n });
    assert.equal(filled.proceedsQuoteMinor, 100000000000000000000001n);
    assert.equal(calls[0]!.body, '{"venue":"kraken","venueReference":"K-1","proceedsQuoteMinor":"100000000000000000000001"}');
    await op.withdrawals.payout('w1', { payoutReference: 'SEPA-9' });
    await op.orders.fail('o2', 'venue rejected');
    await op.withdrawals.fail('w2', 'bank returned it');
    assert.deepEqual(
      calls.slice(1).map((c) => `${new URL(c.url).pathname} ${c.body}`),
      [
        '/operator/v1/withdrawals/w1/payout {"payoutReference":"SEPA-9"}',
        '/operator/v1/orders/o2/fail {"reason":"venue rejected"}',
        '/operator/v1/withdrawals/w2/fail {"reason":"bank returned it"}',
      ],
    );
  });

  test('a four-eyes policy travels as digits, null removes it', async () => {
    const { fetch, calls } = fakeFetch(() => ok({ assetSymbol: 'BTC', secondApprovalFromMinor: '100000000' }));
    const op = new CambioOperator({ session: true, baseUrl: 'https://desk.test', fetch });
    const p = await op.policies.put('BTC', 100000000n);
    assert.equal(p.secondApprovalFromMinor, 100000000n);
    await op.policies.put('BTC', null);
    assert.equal(calls[0]!.body, '{"secondApprovalFromMinor":"100000000"}');
    assert.equal(calls[1]!.body, '{"secondApprovalFromMinor":null}');
    assert.equal(calls[1]!.method, 'PUT');
  });
});
