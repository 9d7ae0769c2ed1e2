// What only an admin of the desk does, in Chromium against the real service: staff (invite, role,
// remove), an organization's members (invite, role), its limits and its keys (revoke). Each is asserted
// as the person it concerns notices it: the invitation link, the role the server now holds, the client's
// call that a limit or a revocation refuses.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg, type SeededOrg } from '../harness.ts';
import { client, go, invite, join, market, op, placeOrder, type Staff } from './desk-world.ts';
import {
  axeSerious,
  browserSkipReason,
  describeViolations,
  launchBrowser,
  requireBuilt,
  screenshot,
  startService,
  watch,
  type BrowserHandle,
  type Service,
} from './harness.ts';

const skip = browserSkipReason();

async function assertAccessible(page: Page): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], describeViolations(v));
}

describe('desk in Chromium: what an admin manages', { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let org: SeededOrg;
  let ada: Staff;
  let page: Page;
  let problems: string[];
  /** Every POST the admin's page sent after joining, with its Idempotency-Key. */
  const writes: Array<{ what: string; key: string | undefined }> = [];

  before(async () => {
    requireBuilt('desk');
    br = await launchBrowser();
    svc = await startService();
    await market(svc);
    org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 200000000n, USD: 1000000n } });
    const a = await invite(svc, 'Ada Admin', 'admin');
    page = await join(br, svc, a);
    problems = watch(page, svc.baseUrl).problems;
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() === 'POST' && path.startsWith('/operator/v1/')) writes.push({ what: path, key: r.headers()['idempotency-key'] });
    });
    ada = a;
  });
  after(async () => {
    await ada?.ctx?.close();
    await br?.close();
    await svc?.close();
  });

  test("Spanish: the desk's frame and sign-in in es, and the server's refusal worded by the catalogue in es; English one click away", async () => {
    const ctx = await br.context({ locale: 'es-AR' });
    const es = await ctx.newPage();
    const w = watch(es, svc.baseUrl);
    await es.goto(`${svc.baseUrl}/desk/`);
    await es.getByRole('heading', { name: 'Iniciar sesión en la mesa' }).waitFor();
    assert.equal(await es.evaluate(() => document.documentElement.lang), 'es');
    await es.getByLabel('Correo').fill(ada.email);
    await es.getByLabel('Contraseña').fill('otra contraseña');
    await es.getByRole('button', { name: 'Iniciar sesión' }).click();
    const alert = es.getByRole('alert');
    await alert.waitFor();
    const refusal = (
      await svc.h.app.inject({
        method: 'POST',
        url: '/operator/v1/session',
        headers: { 'x-lang': 'es', 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'nobody@operator.test', password: 'x' }),
      })
    ).json() as { message: string; code: string };
    assert.equal(refusal.code, 'auth.sign_in_failed');
    assert.ok((await alert.innerText()).includes(refusal.message), `the catalogue's Spanish message: ${refusal.message}`);
    await assertAccessible(es);
    await es.getByRole('button', { name: 'English' }).click();
    await es.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
    assert.equal(await es.evaluate(() => document.documentElement.lang), 'en');
    assert.deepEqual(w.problems, []);
    await ctx.close();
  });

  test('staff: an invitation link for a new colleague, a change of role, a removal; the server holds each', async () => {
    await go(page, 'Staff');
    await page.getByLabel('Name', { exact: true }).fill('Sam New');
    await page.getByLabel('Email', { exact: true }).fill('sam.new@operator.test');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('dialog', { name: 'Invite Sam New as viewer?' }).getByRole('button', { name: 'Send invitation' }).click();
    const link = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    assert.match(link, /\/desk\/invitation#.{20,}$/);
    const sam = page.getByRole('row', { name: /Sam New/ });
    await sam.getByRole('cell', { name: 'viewer', exact: true }).waitFor();
    await assertAccessible(page);
    const staffNamed = async () => (await op(svc, 'GET', '/staff')).find((s: { email: string }) => s.email === 'sam.new@operator.test');
    assert.deepEqual([(await staffNamed()).role, (await staffNamed()).status], ['viewer', 'invited']);

    await sam.getByRole('button', { name: 'Change role of Sam New' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Change the role of Sam New?' });
    await roleDialog.getByLabel('Role').selectOption('approver');
    await roleDialog.getByRole('button', { name: 'Change role' }).click();
    await sam.getByRole('cell', { name: 'approver', exact: true }).waitFor();
    assert.equal((await staffNamed()).role, 'approver');

    await sam.getByRole('button', { name: 'Remove Sam New' }).click();
    await page.getByRole('dialog', { name: 'Remove Sam New?' }).getByRole('button', { name: 'Remove from staff' }).click();
    await sam.getByRole('button', { name: 'Change role of Sam New' }).waitFor({ state: 'detached' });
    assert.equal((await staffNamed()).status, 'removed');
    // The link sent before the removal no longer lets anyone in.
    const accept = await svc.h.app.inject({
      method: 'POST',
      url: '/operator/v1/invitations/accept',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: new URL(link).hash.slice(1), password: 'Sam New long passphrase 42!' }),
    });
    assert.notEqual(accept.statusCode, 200, accept.body);
    assert.deepEqual(problems, []);
  });

  test('an organization: a member invited with a role, the role changed; both as the server now holds them', async () => {
    await go(page, 'Organizations');
    await page.getByLabel('Search').fill('Acme');
    await page.getByRole('link', { name: 'Acme Treasury' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Treasury' }).waitFor();
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('rowheader', { name: 'M', exact: true }).waitFor();
    await members.getByLabel('Member name').fill('Nora Member');
    await members.getByLabel('Member email').fill('nora.member@example.test');
    await members.getByRole('checkbox', { name: 'portal:read', exact: true }).waitFor();
    assert.equal(await members.getByRole('checkbox', { name: 'portal:read', exact: true }).isChecked(), true);
    await members.getByRole('button', { name: 'Invite member' }).click();
    await page.getByRole('dialog', { name: 'Invite Nora Member?' }).getByRole('button', { name: 'Invite member' }).click();
    assert.match(await members.getByLabel('Invitation link').inputValue(), /\/portal\/invitation#.{20,}$/);
    const nora = members.getByRole('row', { name: /Nora Member/ });
    await nora.getByRole('cell', { name: 'portal:read', exact: true }).waitFor();
    await assertAccessible(page);

    await nora.getByRole('button', { name: 'Change role of Nora Member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change the role of Nora Member?' });
    await dialog.getByRole('checkbox', { name: 'portal:trade', exact: true }).check();
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await nora.getByRole('cell', { name: 'portal:read, portal:trade', exact: true }).waitFor();
    await screenshot(page, 'desk-organization');
    const listed = await op(svc, 'GET', `/organizations/${org.orgId}/members`);
    assert.deepEqual(listed.find((m: { name: string }) => m.name === 'Nora Member').permissions, ['portal:read', 'portal:trade']);
    assert.deepEqual(problems, []);
  });

  test("limits: an amount with too many decimals is refused in the form; a cap loaded in BTC refuses the client's larger order", async () => {
    const limits = page.getByRole('region', { name: 'Limits' });
    await limits.getByText('Limits loaded with no cap.').waitFor();
    await limits.getByRole('button', { name: 'Edit limits' }).click();
    await limits.getByLabel('Add an asset').selectOption('BTC');
    await limits.getByRole('button', { name: 'Add asset' }).click();
    await limits.getByLabel('Largest order in BTC').fill('0.123456789');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    await limits.getByText('BTC: At most 8 decimals for this asset.').waitFor();
    await limits.getByLabel('Largest order in BTC').fill('0.5');
    await limits.getByRole('button', { name: 'Save limits' }).click();
    const dialog = page.getByRole('dialog', { name: 'Load these limits for Acme Treasury?' });
    await dialog.getByText('BTC: order 0.50000000 BTC, withdrawal no cap').waitFor();
    await dialog.getByRole('button', { name: 'Load limits' }).click();
    await limits.getByRole('row', { name: /BTC\s+0\.50000000 BTC\s+no cap/ }).waitFor();
    assert.deepEqual((await op(svc, 'GET', `/organizations/${org.orgId}`)).limits, { BTC: { maxOrderMinor: '50000000' } });

    const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '50000001' });
    const refused = await client(svc, org.key, 'POST', '/orders', { quoteId: q.body.data.id });
    assert.deepEqual([refused.status, refused.body.code], [422, 'orders.limit_exceeded']);
    assert.ok((await placeOrder(svc, org.key, '50000000')).id, 'at the cap is allowed');
  });

  test("keys: the organization's key is listed without its secret and, once revoked, the client's program is refused", async () => {
    const keys = page.getByRole('region', { name: 'API keys' });
    const prefix = /_live_([^.]+)\./.exec(org.key)![1]!;
    const k = keys.getByRole('row', { name: new RegExp(prefix) });
    await k.getByText('Active').waitFor();
    assert.ok(!(await keys.innerText()).includes(org.key.split('.')[1]!), 'never the secret');
    assert.equal((await client(svc, org.key, 'GET', '/balances')).status, 200);
    await k.getByRole('button', { name: `Revoke key ${prefix}` }).click();
    await page
      .getByRole('dialog', { name: `Revoke the key ${prefix}?` })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await k.getByText(/^Revoked /).waitFor();
    assert.equal((await client(svc, org.key, 'GET', '/balances')).status, 401);
    await assertAccessible(page);
    assert.deepEqual(problems, []);
  });

  test('every POST the desk sent carried an Idempotency-Key of its own (docs/api-guide.md): one per action confirmed', () => {
    for (const what of [
      /^\/operator\/v1\/staff$/,
      /^\/operator\/v1\/organizations\/[^/]+\/members$/,
      /^\/operator\/v1\/api-keys\/[^/]+\/revoke$/,
    ]) {
      assert.ok(
        writes.some((w) => what.test(w.what)),
        `${what} was sent`,
      );
    }
    for (const w of writes) assert.match(w.key ?? '', /^desk-[0-9a-f]{32}$/, `${w.what} carries a key`);
    assert.equal(new Set(writes.map((w) => w.key)).size, writes.length, 'no two actions share a key');
  });
});
