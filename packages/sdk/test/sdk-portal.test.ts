import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CambioPortal } from '../src/index.ts';
import { fail, ok, routedFetch } from './fake-fetch.ts';

// CambioPortal: the browser's client of a signed-in member (cookie session, no key).
const session = {
  member: {
    id: 'mem_1',
    name: 'Ana',
    email: 'ana@x.test',
    permissions: ['portal:read'],
    status: 'active',
    totpEnrolled: false,
    createdAt: '2026-11-23T00:00:00.000Z',
  },
  organization: { id: 'org_1', name: 'Acme', status: 'active', canOperate: true, requireTotp: false },
};

test('calls go to /portal/v1 and /api/v1 with the cookie (credentials same-origin), never a key or a user-agent', async () => {
  const seen: RequestInit[] = [];
  const r = routedFetch({
    'POST /portal/v1/session': [() => ok(session)],
    'GET /api/v1/balances': [
      () =>
        ok([
          {
            assetSymbol: 'BTC',
            assetDecimals: 8,
            amountMinor: '115792089237316195423570985008687907853269984665640564039457584007913129639935',
            heldMinor: '0',
            totalMinor: '1',
          },
        ]),
    ],
  });
  const portal = new CambioPortal({
    baseUrl: 'https://cambio.test/',
    lang: 'es',
    fetch: async (u, i) => {
      seen.push(i);
      return r.fetch(u, i);
    },
  });
  const s = await portal.session.signIn({ email: 'ana@x.test', password: 'pw' });
  assert.equal(s.member.name, 'Ana');
  const [b] = await portal.balances.list();
  assert.equal(b!.amountMinor, 2n ** 256n - 1n, 'amounts arrive as exact bigint in the browser too');
  assert.deepEqual(
    r.calls.map((c) => c.url),
    ['https://cambio.test/portal/v1/session', 'https://cambio.test/api/v1/balances'],
  );
  for (const [i, c] of r.calls.entries()) {
    assert.equal(seen[i]!.credentials, 'same-origin');
    assert.equal(c.headers['x-api-key'], undefined);
    assert.equal(c.headers.authorization, undefined);
    assert.equal(c.headers['user-agent'], undefined);
    assert.equal(c.headers['x-lang'], 'es');
  }
  assert.deepEqual(JSON.parse(r.calls[0]!.body!), { email: 'ana@x.test', password: 'pw' });
});

test('sign-in refusals keep their code (a TOTP code is asked for); issuing a key after a lost answer is re-sent only with the same Idempotency-Key', async () => {
  const r = routedFetch({
    'POST /portal/v1/session': [() => fail(401, 'auth.code_required', 'A code is required.')],
    'POST /portal/v1/api-keys': [
      () => fail(502, 'http.502', 'bad gateway'),
      () =>
        ok(
          { id: 'key_2', prefix: 'p', scopes: ['portal:read'], key: 'cmb_live_p.s', expiresAt: null, allowedIps: null, createdAt: 'x' },
          {},
          201,
        ),
    ],
    'POST /portal/v1/api-keys/key_1/revoke': [() => ok({ id: 'key_1' })],
  });
  const portal = new CambioPortal({ baseUrl: 'https://cambio.test', fetch: r.fetch });
  await assert.rejects(
    portal.session.signIn({ email: 'a', password: 'b' }),
    (e: { code: string; status: number }) => e.code === 'auth.code_required' && e.status === 401,
  );
  const issued = await portal.apiKeys.issue({ scopes: ['portal:read'] }, { idempotencyKey: 'portal-issue-1' });
  assert.equal(issued.id, 'key_2');
  const sent = r.calls.filter((c) => c.url.endsWith('/portal/v1/api-keys'));
  assert.deepEqual(
    sent.map((c) => c.headers['idempotency-key']),
    ['portal-issue-1', 'portal-issue-1'],
    'the re-send is the same act: the server answers what the first one issued',
  );
  await portal.apiKeys.revoke('key_1');
  assert.equal(r.calls.at(-1)!.url, 'https://cambio.test/portal/v1/api-keys/key_1/revoke');
});
