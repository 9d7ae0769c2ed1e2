import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backends, listAssets, makeHarness, ORIGIN, seedOrg, signedInStaff, withCookie, type Harness } from './harness.ts';
import { tableSnapshot } from './table-snapshot.ts';

/**
 * Staff role `auditor` (docs/operator-guide.md): every operator route is read from the OpenAPI document,
 * so a new one is walked at once. Every write is refused with 403 and changes nothing; every read passes
 * the gate (a list answers 200); the auditor's own password, TOTP and tokens stay theirs.
 */
const SESSIONLESS =
  /^(POST \/operator\/v1\/(session|invitations\/accept|password-reset|password-reset\/complete)|DELETE \/operator\/v1\/session)$/;
/** The writes an auditor makes for themselves. */
const OWN = new Set([
  'POST /operator/v1/password',
  'POST /operator/v1/totp/enrol',
  'POST /operator/v1/totp/confirm',
  'POST /operator/v1/tokens',
  'POST /operator/v1/tokens/{id}/revoke',
]);

for (const backend of backends()) {
  describe(`auditors [${backend}]`, () => {
    let h: Harness;
    let routes: string[];
    before(async () => {
      h = await makeHarness({ backend });
      await listAssets(h, { USD: 2 });
      await seedOrg(h, { balances: { USD: 10_000n } });
      const doc = (await h.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      routes = Object.entries<Record<string, unknown>>(doc.paths)
        .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`))
        .filter((r) => r.split(' ')[1]!.startsWith('/operator/v1/') && !SESSIONLESS.test(r));
    });
    after(async () => h?.close());

    const send = (cookie: string, route: string, body?: string) => {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const payload = method === 'GET' || method === 'DELETE' ? undefined : (body ?? '{}');
      return h.app
        .inject({
          method: method as 'GET',
          url,
          headers: { cookie, origin: ORIGIN, 'x-lang': 'en', ...(payload ? { 'content-type': 'application/json' } : {}) },
          ...(payload ? { payload } : {}),
        })
        .then((r) => ({
          status: r.statusCode,
          raw: r.body,
          code: r.body.startsWith('{') ? (JSON.parse(r.body) as { code?: string }).code : undefined,
        }));
    };

    /** Reads whose query names what to read: without it, 400 (never 401/403). */
    const NEEDS_QUERY = new Set(['GET /operator/v1/venue/markets/book']);
    test('every operator write is 403 auth.role_missing for an auditor and changes nothing; every read passes, lists answer 200', async () => {
      const auditor = await signedInStaff(h, 'auditor');
      const writes = routes.filter((r) => !r.startsWith('GET ') && !OWN.has(r));
      const reads = routes.filter((r) => r.startsWith('GET '));
      assert.ok(writes.length >= 30 && reads.length >= 30, `${writes.length} writes, ${reads.length} reads`);
      const before = await tableSnapshot(h);
      for (const route of writes) {
        const r = await send(auditor.cookie, route);
        assert.deepEqual([r.status, r.code], [403, 'auth.role_missing'], `${route}: ${r.raw}`);
      }
      // The same writes with plausible bodies: still refused before anything is read.
      const adj = await withCookie(h, auditor.cookie, 'POST', '/operator/v1/organizations/x/adjustments', {
        assetSymbol: 'USD',
        amountMinor: '100',
        reason: 'try',
      });
      assert.deepEqual([adj.status, adj.body.code], [403, 'auth.role_missing']);
      assert.deepEqual(await tableSnapshot(h), before, 'a refused write changed a table');

      let lists = 0;
      for (const route of reads) {
        const r = await send(auditor.cookie, route);
        assert.ok(r.status !== 401 && r.status !== 403, `${route}: ${r.raw}`);
        assert.ok(r.status < 500, `${route}: ${r.raw}`);
        if (!route.includes('{') && !NEEDS_QUERY.has(route)) {
          assert.equal(r.status, 200, `${route}: ${r.raw}`);
          lists++;
        }
      }
      assert.ok(lists >= 20, `${lists} reads without parameters`);
      for (const path of ['/audit', '/policies/rules', '/policies/approvals', '/staff', '/transparency/log']) {
        const r = await withCookie(h, auditor.cookie, 'GET', `/operator/v1${path}`);
        if (reads.includes(`GET /operator/v1${path}`)) assert.equal(r.status, 200, `${path}: ${r.raw}`);
      }
    });

    test("an auditor's own credentials stay theirs: a personal token is issued and revoked, and it writes nothing either", async () => {
      const auditor = await signedInStaff(h, 'auditor');
      const issued = await withCookie(h, auditor.cookie, 'POST', '/operator/v1/tokens', { name: 'reports' });
      assert.equal(issued.status, 201, issued.raw);
      const token = issued.body.data.token as string;
      const read = await h.app.inject({ method: 'GET', url: '/operator/v1/audit', headers: { authorization: `Bearer ${token}` } });
      assert.equal(read.statusCode, 200, read.body);
      const write = await h.app.inject({
        method: 'PUT',
        url: '/operator/v1/market/assets/EUR',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ decimals: 2 }),
      });
      assert.deepEqual([write.statusCode, write.json().code], [403, 'auth.role_missing']);
      assert.equal(
        (await h.op('GET', '/market/assets')).body.data.some((a: { symbol: string }) => a.symbol === 'EUR'),
        false,
      );
      const revoked = await withCookie(h, auditor.cookie, 'POST', `/operator/v1/tokens/${issued.body.data.id}/revoke`);
      assert.equal(revoked.status, 200, revoked.raw);
      // An admin makes someone an auditor, and the role applies at the next call.
      const s = await signedInStaff(h, 'approver');
      assert.equal((await h.op('PATCH', `/staff/${s.staffId}`, { role: 'auditor' })).status, 200);
      const r = await withCookie(h, s.cookie, 'POST', '/operator/v1/reconciliation/run', {});
      assert.deepEqual([r.status, r.body.code], [403, 'auth.role_missing']);
      const staff = (await h.op('GET', '/staff')).body.data.find((x: { id: string }) => x.id === s.staffId);
      assert.equal(staff.role, 'auditor');
    });
  });
}
