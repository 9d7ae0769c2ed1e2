import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PERMISSIONS, SCOPES } from '@cambio/contract';
import {
  ALL_PERMISSIONS,
  backends,
  listAssets,
  makeHarness,
  ORIGIN,
  seedOrg,
  signedInMember,
  signedInStaff,
  withCookie,
  type Harness,
} from './harness.ts';

/**
 * The permission matrix through sessions ("exercised through sessions as well as keys"). Every
 * route is read from the OpenAPI document, so a new one is in the matrix at once. Ids are unknown and
 * bodies empty: a request that passes the gate meets a 404 or a 400 and changes nothing; one that does not
 * meets the gate's 403. What is compared is the gate: `past`, or the refusal's status and code.
 *
 * - /api/v1: a member's session answers exactly as a key whose scopes are the member's whole role
 *   (security.test.ts holds the keys to the spec's scope table), role by role, endpoint by endpoint.
 * - /portal/v1: the permissions each route names (docs/design/people-and-apps.md).
 * - /operator/v1: viewer reads, approver decides and records, admin does everything.
 * - A role reduced by the operator applies at the next call, for a session and a token alike.
 */
const gate = (r: { status: number; raw: string }) =>
  r.status === 401 || r.status === 403 ? `${r.status} ${JSON.parse(r.raw).code}` : 'past';

/** /portal/v1: what opens each route (any one of them); [] is any signed-in member. */
const PORTAL_TABLE: Record<string, string[]> = {
  'GET /portal/v1/session': [],
  'POST /portal/v1/password': [],
  'POST /portal/v1/totp/enrol': [],
  'POST /portal/v1/totp/confirm': [],
  'GET /portal/v1/team/members': ['portal:team', 'portal:read'],
  'POST /portal/v1/team/members': ['portal:team'],
  'PATCH /portal/v1/team/members/{id}': ['portal:team'],
  'DELETE /portal/v1/team/members/{id}': ['portal:team'],
  'POST /portal/v1/team/members/{id}/invitation': ['portal:team'],
  'GET /portal/v1/api-keys': ['portal:api_keys', 'portal:read'],
  'GET /portal/v1/destinations/waiting': ['portal:read'],
  'GET /portal/v1/settings/reporting': ['portal:read', 'portal:team'],
  'PUT /portal/v1/settings/reporting': ['portal:team'],
  'POST /portal/v1/api-keys': ['portal:api_keys'],
  'POST /portal/v1/api-keys/{id}/revoke': ['portal:api_keys'],
  'GET /portal/v1/policy': ['portal:read', 'portal:policy'],
  'PUT /portal/v1/policy': ['portal:policy'],
  'GET /portal/v1/approvals': ['portal:read', 'portal:approve'],
  'POST /portal/v1/approvals/{kind}/{id}/approve': ['portal:approve'],
  'POST /portal/v1/approvals/{kind}/{id}/reject': ['portal:approve'],
  'GET /portal/v1/audit': ['portal:audit'],
};

/** /operator/v1 (the design doc's roles): these need an approver; the person's own session and tokens any role; other reads a viewer; the rest an admin. */
const APPROVER = new Set([
  'POST /orders/{id}/approve',
  'POST /orders/{id}/reject',
  'POST /orders/{id}/fill',
  'POST /orders/{id}/fail',
  'POST /withdrawals/{id}/approve',
  'POST /withdrawals/{id}/reject',
  'POST /withdrawals/{id}/payout',
  'POST /withdrawals/{id}/fail',
  'POST /deposits',
  'POST /deposits/{id}/attribute',
  'POST /reconciliation/run',
  'POST /reconciliation/resolve',
  'POST /destinations/{id}/register-in-market',
  'POST /destinations/{id}/reveal',
  'POST /requests/{id}/approve',
  'POST /requests/{id}/reject',
]);
const ANY_STAFF = new Set(['POST /password', 'POST /totp/enrol', 'POST /totp/confirm', 'POST /tokens', 'POST /tokens/{id}/revoke']);
const RANK = { viewer: 0, approver: 1, admin: 2 } as const;
type Role = keyof typeof RANK;
const needs = (route: string): Role => {
  const r = route.replace('/operator/v1', '');
  if (r.startsWith('GET ') || ANY_STAFF.has(r)) return 'viewer';
  return APPROVER.has(r) ? 'approver' : 'admin';
};

/** Sign-in, accepting an invitation and a forgotten password have no session yet; signing out is checked on its own (it ends the session). */
const SESSIONLESS =
  /^(POST \/(portal|operator)\/v1\/(session|invitations\/accept|password-reset|password-reset\/complete)|DELETE \/(portal|operator)\/v1\/session)$/;

for (const backend of backends()) {
  describe(`the permission matrix through sessions [${backend}]`, () => {
    let h: Harness;
    let routes: string[];
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      routes = Object.entries<Record<string, unknown>>(doc.paths).flatMap(([p, item]) =>
        Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
      );
    });
    after(async () => h?.close());

    const send = (cred: { cookie?: string; key?: string; bearer?: string }, route: string) => {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      const headers: Record<string, string> = cred.cookie
        ? { cookie: cred.cookie, origin: ORIGIN }
        : cred.key
          ? { 'x-api-key': cred.key }
          : { authorization: `Bearer ${cred.bearer}` };
      return h.app
        .inject({
          method: method as 'GET',
          url,
          headers: { ...headers, 'x-lang': 'en', ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { payload: '{}' } : {}),
        })
        .then((r) => ({ status: r.statusCode, raw: r.body }));
    };

    test("/api/v1: a member's session answers every endpoint as a key with the member's whole role does", async () => {
      const o = await seedOrg(h, { balances: { USD: 10_000n } });
      const api = routes.filter((r) => r.split(' ')[1]!.startsWith('/api/v1/'));
      assert.ok(api.length >= 20, `${api.length} client endpoints`);
      const roles = [[], ...SCOPES.map((s) => [s]), ...SCOPES.map((s) => ALL_PERMISSIONS.filter((p) => p !== s))];
      let refused = 0;
      for (const role of roles) {
        const member = await signedInMember(h, o.orgId, role);
        const k = await h.op('POST', `/members/${o.memberId}/api-keys`, { scopes: SCOPES.filter((s) => role.includes(s)) });
        const key = k.status === 201 ? (k.body.data.key as string) : null;
        for (const route of api) {
          const bySession = gate(await send({ cookie: member.cookie }, route));
          if (bySession !== 'past') refused++;
          assert.notEqual(bySession, '401 auth.unauthenticated', `${route} with a session of [${role.join(', ')}]`);
          // A key needs a scope; a role with none has no key to compare with: every endpoint but /client is refused.
          const expected = key ? gate(await send({ key }, route)) : route === 'GET /api/v1/client' ? 'past' : '403 auth.scope_missing';
          assert.equal(bySession, expected, `${route} with a session of [${role.join(', ')}]`);
        }
      }
      assert.ok(refused >= 60, `only ${refused} refusals: the matrix was not exercised`);
    });

    test('/portal/v1: each route opens for the permissions it names and no other', async () => {
      const o = await seedOrg(h);
      const portal = routes.filter((r) => r.split(' ')[1]!.startsWith('/portal/v1/') && !SESSIONLESS.test(r));
      assert.deepEqual(
        portal.filter((r) => !(r in PORTAL_TABLE)),
        [],
        'portal routes without a row in this table',
      );
      for (const role of [[], ...PERMISSIONS.map((p): string[] => [p])]) {
        const member = await signedInMember(h, o.orgId, role);
        for (const route of portal) {
          const open = PORTAL_TABLE[route]!.length === 0 || PORTAL_TABLE[route]!.some((p) => role.includes(p));
          const got = gate(await send({ cookie: member.cookie }, route));
          assert.equal(got, open ? 'past' : '403 auth.scope_missing', `${route} with [${role.join(', ')}]`);
        }
        const out = await withCookie(h, member.cookie, 'DELETE', '/portal/v1/session');
        assert.equal(out.status, 200, 'any member signs out');
      }
    });

    test('/operator/v1: viewer, approver and admin sessions against every route', async () => {
      const operator = routes.filter((r) => r.split(' ')[1]!.startsWith('/operator/v1/') && !SESSIONLESS.test(r));
      assert.ok(operator.length >= 40, `${operator.length} operator routes`);
      const counts = { viewer: 0, approver: 0, admin: 0 };
      for (const role of ['viewer', 'approver', 'admin'] as const) {
        const s = await signedInStaff(h, role);
        for (const route of operator) {
          const allowed = RANK[role] >= RANK[needs(route)];
          if (allowed) counts[role]++;
          assert.equal(gate(await send({ cookie: s.cookie }, route)), allowed ? 'past' : '403 auth.role_missing', `${route} as ${role}`);
        }
        assert.equal((await withCookie(h, s.cookie, 'DELETE', '/operator/v1/session')).status, 200, `a ${role} signs out`);
      }
      assert.ok(
        counts.viewer < counts.approver && counts.approver < counts.admin && counts.admin === operator.length,
        JSON.stringify(counts),
      );
    });

    test('a role reduced by the operator applies at the next call: member sessions, staff sessions and staff tokens', async () => {
      const o = await seedOrg(h, { balances: { USD: 10_000n } });
      const m = await signedInMember(h, o.orgId, ['portal:read', 'portal:api_keys']);
      assert.equal((await withCookie(h, m.cookie, 'GET', '/api/v1/balances')).status, 200);
      assert.equal((await withCookie(h, m.cookie, 'GET', '/portal/v1/api-keys')).status, 200);
      assert.equal((await h.op('PATCH', `/members/${m.memberId}`, { permissions: ['portal:trade'] })).status, 200);
      for (const url of ['/api/v1/balances', '/portal/v1/api-keys']) {
        const r = await withCookie(h, m.cookie, 'GET', url);
        assert.deepEqual([r.status, r.body.code], [403, 'auth.scope_missing'], url);
      }
      const issued = await withCookie(h, m.cookie, 'POST', '/portal/v1/api-keys', { scopes: ['portal:read'] });
      assert.deepEqual([issued.status, issued.body.code], [403, 'auth.scope_missing']);

      const s = await signedInStaff(h, 'admin');
      const token = (await withCookie(h, s.cookie, 'POST', '/operator/v1/tokens', { name: 'automation' })).body.data.token as string;
      const write = (cred: { cookie?: string; bearer?: string }) => send(cred, 'PUT /operator/v1/market/assets/{symbol}');
      assert.equal(gate(await write({ cookie: s.cookie })), 'past');
      assert.equal(gate(await write({ bearer: token })), 'past');
      assert.equal((await h.op('PATCH', `/staff/${s.staffId}`, { role: 'approver' })).status, 200);
      assert.equal(gate(await write({ cookie: s.cookie })), '403 auth.role_missing');
      assert.equal(gate(await write({ bearer: token })), '403 auth.role_missing');
      assert.equal(gate(await send({ cookie: s.cookie }, 'POST /operator/v1/orders/{id}/approve')), 'past', 'an approver still decides');
      assert.equal((await h.op('PATCH', `/staff/${s.staffId}`, { role: 'viewer' })).status, 200);
      assert.equal(gate(await send({ bearer: token }, 'POST /operator/v1/orders/{id}/approve')), '403 auth.role_missing');
      assert.equal(gate(await send({ cookie: s.cookie }, 'GET /operator/v1/orders')), 'past', 'a viewer still reads');
    });
  });
}
