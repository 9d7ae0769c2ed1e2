import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listAssets, makeHarness, PASSWORD, seedOrg, signedInMember, type Harness } from './harness.ts';

/**
 * docs/production.md: invitation links and the cross-origin check use CAMBIO_PUBLIC_URL, else the address
 * actually bound; and an origin is its scheme, host and port together.
 */
describe('the service origin: the address bound', () => {
  let h: Harness;
  let served: string;
  before(async () => {
    h = await makeHarness({ env: { PORT: '0' } });
    await listAssets(h, { USD: 2 });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const a = h.app.server.address() as { port: number };
    served = `http://127.0.0.1:${a.port}`;
    assert.notEqual(a.port, 0);
  });
  after(async () => h?.close());

  test('with PORT=0, an invitation link carries the port picked, never 0', async () => {
    const o = await seedOrg(h);
    const m = await h.op('POST', `/organizations/${o.orgId}/members`, { name: 'Ana', email: 'ana@bound.test', permissions: [] });
    assert.equal(m.status, 201, m.raw);
    assert.ok((m.body.data.invitation.url as string).startsWith(`${served}/portal/invitation#`), m.body.data.invitation.url);
    const s = await h.op('POST', '/staff', { name: 'Desk', email: 'desk@bound.test', role: 'viewer' });
    assert.ok((s.body.data.invitation.url as string).startsWith(`${served}/desk/invitation#`), s.body.data.invitation.url);
  });

  test('a cookie write from the bound origin passes; the same host under https is another origin', async () => {
    const o = await seedOrg(h);
    const p = await signedInMember(h, o.orgId);
    const write = (origin: string) =>
      h.app.inject({
        method: 'POST',
        url: '/portal/v1/team/members',
        headers: { cookie: p.cookie, origin, 'content-type': 'application/json', 'x-lang': 'en' },
        payload: JSON.stringify({ name: 'Mate', email: `mate-${origin.length}-${origin.slice(0, 5)}@bound.test`, permissions: [] }),
      });
    assert.equal((await write(served)).statusCode, 201);
    const other = await write(served.replace('http:', 'https:'));
    assert.deepEqual([other.statusCode, other.json().code], [403, 'auth.cross_origin']);
  });
});

describe('the service origin: CAMBIO_PUBLIC_URL', () => {
  let h: Harness;
  before(async () => {
    h = await makeHarness({ env: { CAMBIO_PUBLIC_URL: 'https://cambio.example' } });
    await listAssets(h, { USD: 2 });
  });
  after(async () => h?.close());

  test('only that origin passes: not its plain-http form, not the request Host', async () => {
    const o = await seedOrg(h);
    const p = await signedInMember(h, o.orgId);
    let n = 0;
    const write = (origin: string, host: string) =>
      h.app.inject({
        method: 'POST',
        url: '/portal/v1/team/members',
        headers: { cookie: p.cookie, origin, host, 'content-type': 'application/json', 'x-lang': 'en' },
        payload: JSON.stringify({ name: 'Mate', email: `mate${++n}@public.test`, permissions: [] }),
      });
    assert.equal((await write('https://cambio.example', 'cambio.example')).statusCode, 201);
    for (const [origin, host] of [
      ['http://cambio.example', 'cambio.example'],
      ['http://127.0.0.1:8080', '127.0.0.1:8080'],
      ['https://cambio.example:8443', 'cambio.example:8443'],
    ]) {
      const r = await write(origin!, host!);
      assert.deepEqual([r.statusCode, r.json().code], [403, 'auth.cross_origin'], origin);
    }
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/portal/v1/session',
      headers: { origin: 'http://cambio.example', host: 'cambio.example', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: p.email, password: PASSWORD }),
    });
    assert.equal(signIn.statusCode, 403);
  });
});
