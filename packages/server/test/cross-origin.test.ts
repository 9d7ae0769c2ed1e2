import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ALL_PERMISSIONS,
  backends,
  listAssets,
  makeHarness,
  ORIGIN,
  PASSWORD,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';
import { tableSnapshot } from './table-snapshot.ts';

/**
 * docs/design/people-and-apps.md and docs/design/people-and-apps.md: a write authenticated by a cookie must carry an Origin
 * (or, without one, a Referer) that is the service's own; otherwise 403 auth.cross_origin and nothing
 * changes. Every write route of /api/v1, /portal/v1 and /operator/v1 is read from the OpenAPI document
 * and sent, with a live session and a valid body, from each wrong origin; then the same requests from our
 * own origin pass that check (the refusals were the guard's, not the body's). Signing in and accepting an
 * invitation have no cookie yet: a foreign origin is refused there too, none at all (a program) is not.
 */
const WRITE = /^(POST|PUT|PATCH|DELETE) \/(api|portal|operator)\/v1\//;
const SIGN_IN = /^POST \/(portal|operator)\/v1\/(session|invitations\/accept|password-reset|password-reset\/complete)$/;

const WRONG: Record<string, Record<string, string>> = {
  'a foreign Origin': { origin: 'http://evil.example' },
  'a foreign Referer and no Origin': { referer: 'http://evil.example/page' },
  'Origin null': { origin: 'null' },
  'our host under the other scheme': { origin: ORIGIN.replace('http:', 'https:'), host: ORIGIN.slice('http://'.length) },
  'our Referer under the other scheme': { referer: `${ORIGIN.replace('http:', 'https:')}/portal/`, host: ORIGIN.slice('http://'.length) },
  'an Origin our own is a prefix of': { origin: `${ORIGIN}.evil.example` },
  'a foreign Origin beside our own Referer': { origin: 'http://evil.example', referer: `${ORIGIN}/portal/` },
  'neither Origin nor Referer': {},
};

for (const backend of backends()) {
  describe(`cookie writes from another origin [${backend}]`, () => {
    let h: Harness;
    before(async () => {
      h = await makeHarness({ backend, env: { CAMBIO_DESTINATION_COOLDOWN_MS: '0' } });
      await listAssets(h, { USD: 2, BTC: 8 });
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/BTC/USD', {
            midRate: '60000',
            spreadBps: 50,
            feeBps: 10,
            fixedFeeQuoteMinor: '0',
            minBaseMinor: '1000',
            maxBaseMinor: '100000000',
          })
        ).status,
        200,
      );
      assert.equal((await h.op('PUT', '/wallets/USD', { network: 'ach', address: 'xo-usd' })).status, 200);
    });
    after(async () => h?.close());

    test('every cookie-authenticated write is refused from anywhere but our origin, and changes nothing', async () => {
      const o = await seedOrg(h, { balances: { USD: 100_000n, BTC: 100_000_000n } });
      const member = await signedInMember(h, o.orgId, ALL_PERMISSIONS);
      const teammate = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Mate',
        email: 'mate@xo.test',
        permissions: ['portal:read'],
      });
      const quote = async () =>
        (await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' })).body.data
          .id as string;
      const order = await h.call(o.key, 'POST', '/orders', { quoteId: await quote() });
      const freshQuote = await quote();
      const bank = (n: string) => ({
        label: `XO ${n}`,
        assetSymbol: 'USD',
        bankName: 'Banco Uno',
        accountKind: 'savings',
        accountNumber: `6666-0000-${n}`,
        holderName: 'Ana',
        holderDocument: `D-${n}`,
      });
      const registered = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', bank('0001'));
      assert.equal((await h.op('POST', `/destinations/${registered.body.data.id}/register-in-market`)).status, 200);
      const waiting = await h.call(o.key, 'POST', '/withdrawals/destinations/bank', bank('0002'));
      const withdrawal = await h.call(o.key, 'POST', '/withdrawals', {
        destinationId: registered.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '100',
      });
      const arrival = await h.op('POST', '/deposits', { assetSymbol: 'USD', network: 'ach', amountMinor: '4242', txid: 'xo-unmatched' });
      const staff = await signedInStaff(h, 'admin');
      const colleague = await signedInStaff(h, 'viewer');
      const token = await withCookie(h, staff.cookie, 'POST', '/operator/v1/tokens', { name: 'fixture' });
      for (const r of [teammate, order, registered, waiting, withdrawal, arrival, token]) assert.ok(r.status < 300, r.raw);
      const invited = await h.op('POST', `/organizations/${o.orgId}/members`, {
        name: 'Invited',
        email: 'invited@xo.test',
        permissions: [],
      });
      const invitation = (invited.body.data.invitation.url as string).split('#')[1]!;

      const ids: Record<string, string> = {
        organizations: o.orgId,
        members: teammate.body.data.id,
        'team/members': teammate.body.data.id,
        'api-keys': o.keyId,
        orders: order.body.data.id,
        withdrawals: withdrawal.body.data.id,
        destinations: waiting.body.data.id,
        deposits: arrival.body.data.id,
        staff: colleague.staffId,
        tokens: token.body.data.id,
      };
      const params: Record<string, string> = { symbol: 'USD', base: 'BTC', quote: 'USD', asset: 'BTC' };
      /** `{id}` is the fixture of the collection before it (`team/members` before `members`), when there is one; other parameters by name. */
      const fill = (path: string) => {
        const before = path.split('/{id}')[0]!.split('/');
        const id = ids[before.slice(-2).join('/')] ?? ids[before.at(-1)!];
        // A collection without a fixture gets an unknown id: the refusal comes before the id is read.
        return path.replace('{id}', id ?? 'x').replace(/\{(\w+)\}/g, (_m, p: string) => params[p] ?? 'x');
      };
      const BODIES: Record<string, unknown> = {
        'POST /api/v1/quotes': { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' },
        'POST /api/v1/orders': { quoteId: freshQuote },
        'POST /api/v1/deposits/declarations': { assetSymbol: 'USD', assetDecimals: 2, declaredAmountMinor: '10000' },
        'POST /api/v1/withdrawals/destinations/bank': bank('0003'),
        'POST /api/v1/withdrawals': { destinationId: registered.body.data.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '100' },
        'POST /portal/v1/session': { email: member.email, password: PASSWORD },
        'POST /portal/v1/invitations/accept': { token: invitation, password: PASSWORD },
        'POST /portal/v1/password-reset': { email: member.email },
        'POST /portal/v1/password-reset/complete': { token: 'x'.repeat(43), password: PASSWORD },
        'POST /operator/v1/password-reset': { email: 'intruder@desk.test' },
        'POST /operator/v1/password-reset/complete': { token: 'x'.repeat(43), password: PASSWORD },
        'POST /portal/v1/password': { currentPassword: PASSWORD, newPassword: 'the attacker chose this' },
        'POST /portal/v1/totp/confirm': { code: '123456' },
        'POST /portal/v1/team/members': { name: 'Intruder', email: 'intruder@xo.test', permissions: ['portal:read'] },
        'PATCH /portal/v1/team/members/{id}': { permissions: [] },
        'POST /portal/v1/api-keys': { scopes: ['portal:read'] },
        'POST /operator/v1/session': { email: staff.email, password: PASSWORD },
        'POST /operator/v1/invitations/accept': { token: 'x'.repeat(43), password: PASSWORD },
        'POST /operator/v1/password': { currentPassword: PASSWORD, newPassword: 'the attacker chose this' },
        'POST /operator/v1/totp/confirm': { code: '123456' },
        'POST /operator/v1/organizations': { name: 'Intruder', status: 'active', limits: {} },
        'PATCH /operator/v1/organizations/{id}': { status: 'suspended' },
        'POST /operator/v1/organizations/{id}/members': { name: 'Intruder', email: 'intruder@xo.test', permissions: ALL_PERMISSIONS },
        'PATCH /operator/v1/members/{id}': { permissions: [] },
        'POST /operator/v1/members/{id}/api-keys': { scopes: ['portal:read'] },
        'POST /operator/v1/organizations/{id}/adjustments': { assetSymbol: 'USD', amountMinor: '1000', reason: 'intruder' },
        'PUT /operator/v1/market/assets/{symbol}': { decimals: 3 },
        'PUT /operator/v1/market/pairs/{base}/{quote}': {
          midRate: '1',
          spreadBps: 0,
          feeBps: 0,
          fixedFeeQuoteMinor: '0',
          minBaseMinor: '1',
          maxBaseMinor: '10',
        },
        'POST /operator/v1/orders/{id}/approve': {},
        'POST /operator/v1/orders/{id}/reject': { reason: 'intruder' },
        'POST /operator/v1/orders/{id}/fill': { venue: 'otc', venueReference: 'r1', proceedsQuoteMinor: '1' },
        'POST /operator/v1/orders/{id}/fail': { reason: 'intruder' },
        'POST /operator/v1/withdrawals/{id}/approve': {},
        'POST /operator/v1/withdrawals/{id}/reject': { reason: 'intruder' },
        'POST /operator/v1/withdrawals/{id}/payout': { payoutReference: 'r1' },
        'POST /operator/v1/withdrawals/{id}/fail': { reason: 'intruder' },
        'PUT /operator/v1/policies/approvals/{asset}': { secondApprovalFromMinor: '1' },
        'PUT /operator/v1/wallets/{symbol}': { network: 'ach', address: 'intruder' },
        'POST /operator/v1/deposits': { assetSymbol: 'USD', network: 'ach', amountMinor: '777', txid: 'intruder-tx' },
        'POST /operator/v1/deposits/{id}/attribute': { organizationId: o.orgId },
        'POST /operator/v1/destinations/{id}/reveal': { code: '123456' },
        'POST /operator/v1/reconciliation/run': { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] },
        'POST /operator/v1/reconciliation/resolve': { note: 'intruder' },
        'POST /operator/v1/staff': { name: 'Intruder', email: 'intruder@desk.test', role: 'admin' },
        'PATCH /operator/v1/staff/{id}': { role: 'admin' },
        'POST /operator/v1/tokens': { name: 'intruder' },
      };

      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const writes = Object.entries<Record<string, unknown>>(doc.paths)
        .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
        .filter((r) => WRITE.test(r))
        // Signing out last: the control below really signs out.
        .sort(
          (a, b) =>
            Number(/ \/(portal|operator)\/v1\/session$/.test(a) && a.startsWith('DELETE')) -
            Number(/ \/(portal|operator)\/v1\/session$/.test(b) && b.startsWith('DELETE')),
        );
      const prefixes = new Set(writes.map((r) => r.split('/')[1]));
      assert.deepEqual([...prefixes].sort(), ['api', 'operator', 'portal']);
      assert.ok(writes.length >= 50, `${writes.length} write routes`);
      const send = (route: string, headers: Record<string, string>) => {
        const [method, path] = route.split(' ') as [string, string];
        const cookie = SIGN_IN.test(route) ? {} : { cookie: path.startsWith('/operator/') ? staff.cookie : member.cookie };
        const body = BODIES[route];
        return h.app.inject({
          method: method as 'POST',
          url: fill(path),
          headers: { ...cookie, ...headers, 'x-lang': 'en', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
      };

      const before = await tableSnapshot(h);
      let refused = 0;
      for (const route of writes) {
        for (const [how, headers] of Object.entries(WRONG)) {
          // Without any origin, signing in is a program's (it has no cookie to ride on): allowed, checked below.
          if (SIGN_IN.test(route) && Object.keys(headers).length === 0) continue;
          const r = await send(route, headers);
          assert.deepEqual([r.statusCode, r.json().code], [403, 'auth.cross_origin'], `${route} with ${how}: ${r.body}`);
          refused++;
        }
      }
      assert.deepEqual(await tableSnapshot(h), before, 'a refused cross-origin write changed a table');
      // The sessions outlived the refused sign-outs and password changes.
      assert.equal((await withCookie(h, member.cookie, 'GET', '/portal/v1/session')).status, 200);
      assert.equal((await withCookie(h, staff.cookie, 'GET', '/operator/v1/session')).status, 200);

      // The same requests from our own origin (or our Referer alone) are past the check.
      for (const [i, route] of writes.entries()) {
        const r = await send(route, i % 2 === 0 ? { origin: ORIGIN } : { referer: `${ORIGIN}/portal/api-keys` });
        assert.notEqual(r.json().code, 'auth.cross_origin', `${route} from our origin: ${r.body}`);
        // Signing in answers its own 401 (this person has TOTP: auth.code_required); any other route, never.
        if (!SIGN_IN.test(route)) assert.notEqual(r.statusCode, 401, `${route} from our origin: ${r.body}`);
      }
      assert.ok(refused >= writes.length * 5, `${refused} refusals`);
    });

    test('a key, a staff token or the bootstrap token is no cookie: a foreign Origin does not matter; signing in from a program (no Origin) works', async () => {
      const o = await seedOrg(h, { balances: { BTC: 100_000_000n } });
      // (the test above changed the market from our origin)
      assert.equal(
        (
          await h.op('PUT', '/market/pairs/BTC/USD', {
            midRate: '60000',
            spreadBps: 50,
            feeBps: 10,
            fixedFeeQuoteMinor: '0',
            minBaseMinor: '1000',
            maxBaseMinor: '100000000',
          })
        ).status,
        200,
      );
      const evil = { origin: 'http://evil.example' };
      const q = await h.call(o.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' }, evil);
      assert.equal(q.status, 201, q.raw);
      const s = await signedInStaff(h, 'admin');
      const t = (await withCookie(h, s.cookie, 'POST', '/operator/v1/tokens', { name: 'script' })).body.data.token as string;
      const viaToken = await h.app.inject({
        method: 'PUT',
        url: '/operator/v1/market/assets/ETH',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json', ...evil },
        payload: '{"decimals":18}',
      });
      assert.equal(viaToken.statusCode, 200, viaToken.body);
      const boot = await h.app.inject({
        method: 'PUT',
        url: '/operator/v1/market/assets/SOL',
        headers: { authorization: 'Bearer test-operator-token-0123456789', 'content-type': 'application/json', ...evil },
        payload: '{"decimals":9}',
      });
      assert.equal(boot.statusCode, 200, boot.body);
      const m = await signedInMember(h, o.orgId);
      const program = await h.app.inject({
        method: 'POST',
        url: '/portal/v1/session',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: m.email, password: PASSWORD }),
      });
      assert.equal(program.statusCode, 200, program.body);
    });
  });
}
