/**
 * The customer portal end to end: Debian's Chromium, driven by playwright-core, against the real
 * service on the embedded store. One browser for the file; one context per person.
 * Screenshots for the docs: CAMBIO_SCREENSHOTS=docs/screenshots node scripts/test.mjs browser/portal
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page, Route } from 'playwright-core';
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
import { acceptInvitation, ALL_ROLE, go, market, member, op, organization, type Person } from './portal-world.ts';

const skip = browserSkipReason();
const QUOTE_TTL_MS = 6000;

/** Serious or critical axe violations fail the test; so do script errors, CSP refusals and other origins. */
async function checkPage(page: Page, problems: string[], what: string): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], `${what}: ${describeViolations(v)}`);
  assert.deepEqual(problems, [], what);
}

/** A slow connection for the balances: each read of them takes 1.5 s. */
async function slowBalances(route: Route): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
  await route.continue();
}

async function row(page: Page, asset: string): Promise<string> {
  return (
    await page
      .getByRole('table', { name: 'Balances', exact: true })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: asset, exact: true }) })
      .innerText()
  ).replace(/\s+/g, ' ');
}

/**
 * The asset's row once it shows `expected`, or as it stands after 10 s: after what someone else did (the
 * operator), a page visited before shows its last answer at once and the fresh one a moment later (the
 * balances are read again on every visit). After the portal's own act it shows the fresh one at once.
 */
async function rowShows(page: Page, asset: string, expected: string): Promise<string> {
  const until = Date.now() + 10_000;
  let text = await row(page, asset);
  while (text !== expected && Date.now() < until) {
    await page.waitForTimeout(100);
    text = await row(page, asset);
  }
  return text;
}

describe('portal in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  let owner: Person;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];
  /** Every write the page sent, with its Idempotency-Key. */
  const writes: Array<{ what: string; key: string | undefined }> = [];

  before(async () => {
    requireBuilt('portal');
    svc = await startService({ CAMBIO_QUOTE_TTL_MS: String(QUOTE_TTL_MS), CAMBIO_DESTINATION_COOLDOWN_MS: '0' });
    br = await launchBrowser();
    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (r.method() !== 'GET' && /^\/(api|portal)\/v1\//.test(path))
        writes.push({ what: `${r.method()} ${path}`, key: r.headers()['idempotency-key'] });
    });
    await market(svc);
    orgId = await organization(svc, 'Acme Treasury SA');
    owner = await member(svc, orgId, 'Ana Owner', ALL_ROLE);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });
  // PORTAL_DEBUG=dir: a picture of the page after each test, to see what a failing one saw.
  afterEach(async (t) => {
    if (process.env.PORTAL_DEBUG && page)
      await page.screenshot({ path: `${process.env.PORTAL_DEBUG}/${t.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true });
  });

  test('the page is served under a CSP without inline script, and the sign-in form is what docs/design/people-and-apps.md names', async () => {
    const res = await page.goto(`${svc.baseUrl}/portal/`);
    assert.equal(res?.status(), 200);
    const csp = res!.headers()['content-security-policy']!;
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.equal(res!.headers()['x-content-type-options'], 'nosniff');
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Password').waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByText('Sandbox: nothing here is real money').waitFor();
    await checkPage(page, problems, 'sign-in');
    await screenshot(page, 'portal-sign-in');
  });

  test('an invitation is accepted in the browser: a password is chosen and the member is signed in; signing out and in again by keyboard', async () => {
    await acceptInvitation(page, svc, owner);
    assert.ok(!page.url().includes('#'), 'the spent token left the address bar');
    for (const link of ['Balances', 'Exchange', 'Orders', 'Deposits', 'Withdrawals', 'Team', 'API keys', 'Ledger']) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // Wrong password: one answer for every cause, from the catalogue.
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    // Keyboard only.
    await page.getByLabel('Password').fill('');
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  });

  test("balances show available, held and total with each asset's decimals", async () => {
    await go(page, 'Balances');
    assert.equal(await row(page, 'BTC'), 'BTC 2.00000000 BTC 0.00000000 BTC 2.00000000 BTC');
    assert.equal(await row(page, 'USD'), 'USD 10,000.00 USD 0.00 USD 10,000.00 USD');
    await checkPage(page, problems, 'balances');
    await screenshot(page, 'portal-balances');
  });

  test('a key issued in the portal is shown once and works against /api/v1 outside the browser', async () => {
    await go(page, 'API keys');
    await page.getByRole('button', { name: 'Issue key' }).click();
    // One checkbox per key scope of the role, labelled with the scope's name; what only people do is not a key's.
    for (const s of ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'])
      await page.getByRole('checkbox', { name: s, exact: true }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: 'portal:team', exact: true }).count(), 0);
    await page.getByRole('checkbox', { name: 'portal:read', exact: true }).check();
    await checkPage(page, problems, 'api keys form');
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    const field = page.getByLabel('API key', { exact: true });
    await field.waitFor();
    assert.equal(await field.getAttribute('readonly'), '');
    const key = await field.inputValue();
    assert.match(key, /^[a-z0-9]+_live_[^.]+\.[^.]+$/);
    await page.getByText('this is the only time the whole key is shown').waitFor();
    await checkPage(page, problems, 'api key shown once');
    await screenshot(page, 'portal-api-keys');

    const res = await fetch(`${svc.baseUrl}/api/v1/client`, { headers: { 'x-api-key': key } });
    const body = (await res.json()) as { data: { permissions: string[]; name: string } };
    assert.equal(res.status, 200);
    assert.equal(body.data.name, 'Acme Treasury SA');
    assert.deepEqual(body.data.permissions, ['portal:read']);
    const bal = await fetch(`${svc.baseUrl}/api/v1/balances`, { headers: { 'x-api-key': key } });
    assert.equal(bal.status, 200);
    const trade = await fetch(`${svc.baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"quoteId":"q"}',
    });
    assert.equal(trade.status, 403, 'the key has only the scope chosen');

    await page.getByRole('button', { name: 'I have copied it' }).click();
    assert.equal(await page.getByLabel('API key', { exact: true }).count(), 0, 'the key is not shown again');
    await page.getByRole('button', { name: /^Revoke / }).waitFor();
  });

  test('quote → order → approved by the operator → the balance in the portal changes', async () => {
    await go(page, 'Exchange');
    await page.getByLabel('You deliver').selectOption('BTC');
    await page.getByLabel('You receive').selectOption('USD');
    await page.getByLabel('Amount in BTC').fill('0.123456789');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByText('BTC has 8 decimals: enter at most 8 digits after the point.').waitFor();
    await page.getByLabel('Amount in BTC').fill('0.5');
    await page.getByText('You will send 0.50000000 BTC.').waitFor();
    await page.getByRole('button', { name: 'Get quote' }).click();
    const quote = page.getByRole('region', { name: 'Your quote' });
    await quote.waitFor();
    assert.match(await quote.innerText(), /You deliver\s+0\.50000000 BTC/);
    // floor(60000 × (1 − 0.005) × 100) = 5,970,000 cents per BTC; 0.5 BTC → 29,850.00 USD.
    assert.match(await quote.innerText(), /You receive\s+29,850\.00 USD/);
    assert.match(await quote.innerText(), /1 BTC = 59,700\.00 USD/);
    await quote.getByText(/Expires in 0:0\d/).waitFor();
    await checkPage(page, problems, 'exchange with a quote');
    await screenshot(page, 'portal-exchange');
    // The portal's own act: Balances, visited before, shows the hold at once, not its last answer first,
    // even on a slow connection.
    await page.route('**/api/v1/balances', slowBalances);
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.getByText('Order placed: waiting for the operator; the amount is held.').waitFor();
    await go(page, 'Balances');
    assert.equal(await row(page, 'BTC'), 'BTC 1.50000000 BTC 0.50000000 BTC 2.00000000 BTC');
    await page.unroute('**/api/v1/balances', slowBalances);

    await go(page, 'Orders');
    await page.getByRole('table', { name: 'Orders' }).getByText('Waiting for the operator; the amount is held').waitFor();
    const pending = await op(svc, 'GET', '/orders?state=pending_approval');
    const mine = pending.filter((o: { organizationId: string }) => o.organizationId === orgId);
    assert.equal(mine.length, 1);
    await op(svc, 'POST', `/orders/${mine[0].id}/approve`, {});
    // The list refreshes by itself while an order waits.
    await page.getByRole('table', { name: 'Orders' }).getByText('Completed', { exact: true }).waitFor({ timeout: 10_000 });
    await checkPage(page, problems, 'orders');
    await screenshot(page, 'portal-orders');

    await go(page, 'Balances');
    assert.equal(
      await rowShows(page, 'BTC', 'BTC 1.50000000 BTC 0.00000000 BTC 1.50000000 BTC'),
      'BTC 1.50000000 BTC 0.00000000 BTC 1.50000000 BTC',
    );
    assert.equal(await rowShows(page, 'USD', 'USD 39,850.00 USD 0.00 USD 39,850.00 USD'), 'USD 39,850.00 USD 0.00 USD 39,850.00 USD');

    await go(page, 'Ledger');
    await page.getByRole('cell', { name: 'Order settled' }).first().waitFor();
    await checkPage(page, problems, 'ledger');
  });

  test('an expired quote says so and offers a new one; no price at the moment is said in words', async () => {
    await go(page, 'Exchange');
    await page.getByLabel('Amount in BTC').fill('0.01');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByRole('region', { name: 'Your quote' }).waitFor();
    await page.getByText('This quote has expired: its price is no longer held.').waitFor({ timeout: QUOTE_TTL_MS + 3000 });
    assert.equal(await page.getByRole('button', { name: 'Accept quote' }).count(), 0, 'an expired quote cannot be accepted');
    await checkPage(page, problems, 'expired quote');
    await page.getByRole('button', { name: 'Get a new quote' }).click();
    await page
      .getByRole('region', { name: 'Your quote' })
      .getByText(/Expires in 0:0\d/)
      .waitFor();
    await page.getByRole('button', { name: 'Accept quote' }).waitFor();

    // A price below the cost of execution: the spec's "no price at the moment".
    await op(svc, 'PUT', '/market/pairs/USD/BTC', {
      midRate: '0.00001',
      spreadBps: 50,
      feeBps: 10,
      fixedFeeQuoteMinor: '100000000',
      minBaseMinor: '1',
      maxBaseMinor: '100000000000',
    });
    await page.reload();
    await page.getByLabel('You deliver').selectOption('USD');
    await page.getByLabel('You receive').selectOption('BTC');
    await page.getByLabel('Amount in USD').fill('100');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByText('No price at the moment for this pair. Try again later.').waitFor();
  });

  test('a deposit declaration: network as prominent as the address, the warning, the exact amount with copy and countdown; the arrival is listed', async () => {
    await go(page, 'Deposits');
    await page.getByText('Send only on the bitcoin network.').first().waitFor();
    await page.getByLabel('Amount').fill('0.1');
    await page.getByRole('button', { name: 'Declare' }).click();
    const decl = page.getByRole('region', { name: /Open declaration/ });
    await decl.waitFor();
    const text = await decl.innerText();
    const exact = /Send exactly\s+([0-9.]+) BTC/.exec(text)?.[1];
    assert.ok(exact && exact.startsWith('0.1') && exact.length === 10, `an exact 8-decimal amount near 0.1: ${text}`);
    assert.match(text, /Network\s+bitcoin/);
    assert.match(text, /Expires in 0:59:\d\d|Expires in 1:00:00/);
    await decl.getByRole('button', { name: 'Copy: Send exactly' }).waitFor();
    await checkPage(page, problems, 'deposits with a declaration');
    await screenshot(page, 'portal-deposits');

    const minor = exact.replace('.', '').replace(/^0+/, '');
    await op(svc, 'POST', '/deposits', { assetSymbol: 'BTC', network: 'bitcoin', amountMinor: minor, txid: 'tx-portal-0001' });
    await page.reload();
    await page.getByRole('cell', { name: 'tx-portal-0001' }).waitFor();
    await page.getByText('Credited', { exact: true }).waitFor();
    assert.equal(await page.getByRole('region', { name: /Open declaration/ }).count(), 0, 'the matched declaration closed');
  });

  test('a destination cools down until usable; a withdrawal only to a usable one, confirmed, and the hold shows at once', async () => {
    await go(page, 'Withdrawals');
    await page.getByText('No destination is usable yet.').waitFor();
    await page.getByText('Register a bank destination').click();
    await page.getByLabel('Label').fill('Payroll');
    await page.getByLabel('Asset').first().selectOption('USD');
    await page.getByLabel('Bank', { exact: true }).fill('Banco Río');
    await page.getByLabel('Account number').fill('0001234567');
    await page.getByLabel('Account holder').fill('Acme Treasury SA');
    await page.getByLabel('Holder document').fill('30-71234567-8');
    await page.getByRole('button', { name: 'Register destination' }).click();
    await page.getByText('Waiting for the operator to register it').waitFor();
    const list = await page.evaluate(
      async () => (await (await fetch('/api/v1/withdrawals/destinations')).json()).data as Array<{ id: string; usable: boolean }>,
    );
    assert.equal(list.length, 1);
    assert.equal(list[0]!.usable, false);
    await op(svc, 'POST', `/destinations/${list[0]!.id}/register-in-market`);
    await page.reload();
    await page.getByText('Usable', { exact: true }).waitFor();

    await page.getByLabel('Amount in USD').fill('100.005');
    await page.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByText('USD has 2 decimals').waitFor();
    await page.getByLabel('Amount in USD').fill('100');
    await page.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByText(/Withdraw 100\.00 USD to Payroll/).waitFor();
    // The hold shows with the confirmation, not after it, even on a slow connection.
    await page.route('**/api/v1/balances', slowBalances);
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByText('Withdrawal requested: waiting for the operator; the amount is held.').waitFor();
    assert.match(await page.getByText(/^Available: /).innerText(), /Available: 39,750\.00 USD · Held: 100\.00 USD/);
    await page.unroute('**/api/v1/balances', slowBalances);
    await page.getByRole('cell', { name: /Waiting for the operator/ }).waitFor();
    await checkPage(page, problems, 'withdrawals');
    await screenshot(page, 'portal-withdrawals');
    await go(page, 'Balances');
    assert.equal(await row(page, 'USD'), 'USD 39,750.00 USD 100.00 USD 39,850.00 USD', 'the hold shows at once');
  });

  test("team: members and roles; an invitation no wider than one's role; TOTP enrolment shows a QR code and the setup key", async () => {
    await go(page, 'Team');
    await page.getByRole('rowheader', { name: /Ana Owner/ }).waitFor();
    await page.getByText('Invite a member').click();
    await page.getByLabel('Name').fill('Bruno Viewer');
    await page.getByLabel('Email').fill('bruno.viewer@example.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByLabel('Invitation link', { exact: true }).waitFor();
    assert.match(await page.getByLabel('Invitation link', { exact: true }).inputValue(), /\/portal\/invitation#.+/);
    await page.getByRole('table', { name: 'Team' }).getByRole('rowheader', { name: 'Bruno Viewer' }).waitFor();
    // Not accepted yet: also among the pending invitations.
    await page.getByRole('table', { name: 'Pending invitations' }).getByRole('rowheader', { name: 'Bruno Viewer' }).waitFor();
    await checkPage(page, problems, 'team');
    await screenshot(page, 'portal-team');

    await go(page, 'Account');
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    await page.getByRole('img', { name: 'QR code of the setup key' }).waitFor();
    assert.match(await page.getByLabel('Setup key', { exact: true }).inputValue(), /^[A-Z2-7]{16,}=*$/);
    await checkPage(page, problems, 'account');
  });

  test('a member with a narrower role sees fewer controls, and a forced call is refused', async () => {
    const viewer = await member(svc, orgId, 'Carla Reader', ['portal:read']);
    const vctx = await br.context({ width: 375, height: 800 });
    const vpage = await vctx.newPage();
    const vproblems = watch(vpage, svc.baseUrl).problems;
    await acceptInvitation(vpage, svc, viewer);
    assert.equal(await vpage.evaluate(() => document.documentElement.scrollWidth), 375, 'nothing wider than a 375 px screen');
    await go(vpage, 'API keys');
    assert.equal(await vpage.getByRole('button', { name: 'Issue key' }).count(), 0);
    assert.equal(await vpage.getByRole('button', { name: /^Revoke / }).count(), 0);
    await go(vpage, 'Deposits');
    await vpage.getByText('Your role does not allow deposits.').waitFor();
    assert.equal(await vpage.getByRole('button', { name: 'Declare' }).count(), 0);
    await go(vpage, 'Withdrawals');
    assert.equal(await vpage.getByText('Register a bank destination').count(), 0);
    assert.equal(await vpage.getByRole('heading', { name: 'Request a withdrawal' }).count(), 0);
    await go(vpage, 'Team');
    assert.equal(await vpage.getByText('Invite a member').count(), 0);
    await go(vpage, 'Exchange');
    await vpage.getByText('Your role does not allow trading.').waitFor();
    assert.equal(await vpage.getByRole('button', { name: 'Get quote' }).isDisabled(), true);
    assert.equal(await vpage.getByRole('button', { name: 'Accept quote' }).count(), 0);
    await checkPage(vpage, vproblems, 'exchange, read-only role, 375 px');

    // Forced from the page itself, with the member's own session cookie.
    const keysBefore = await vpage.evaluate(`fetch('/portal/v1/api-keys').then((r) => r.json()).then((b) => b.data.length)`);
    // (a string: the test runner's transform would wrap named functions in a helper the page lacks)
    const forced = (await vpage.evaluate(`Promise.all([
      ['/portal/v1/api-keys', { scopes: ['portal:read'] }],
      ['/api/v1/withdrawals', { destinationId: 'x', assetSymbol: 'USD', assetDecimals: 2, amountMinor: '100' }],
      ['/portal/v1/team/members', { name: 'X', email: 'x@example.test', permissions: ['portal:read'] }],
    ].map(([url, body]) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(async (r) => ({ status: r.status, code: (await r.json()).code }))))`)) as Array<{ status: number; code: string }>;
    assert.deepEqual(
      forced.map((f) => f.status),
      [403, 403, 403],
      JSON.stringify(forced),
    );
    const keysAfter = await vpage.evaluate(`fetch('/portal/v1/api-keys').then((r) => r.json()).then((b) => b.data.length)`);
    assert.equal(keysAfter, keysBefore, 'the refused calls created nothing');
    await vctx.close();
  });

  test("Spanish: the portal in es, and the server's messages from the catalogue in es", async () => {
    const sctx = await br.context({ locale: 'es-AR' });
    const spage = await sctx.newPage();
    const sproblems = watch(spage, svc.baseUrl).problems;
    await spage.goto(`${svc.baseUrl}/portal/`);
    await spage.getByRole('button', { name: 'Iniciar sesión' }).waitFor();
    assert.equal(await spage.evaluate(() => document.documentElement.lang), 'es');
    await spage.getByLabel('Correo').fill(owner.email);
    await spage.getByLabel('Contraseña').fill('otra contraseña');
    await spage.getByRole('button', { name: 'Iniciar sesión' }).click();
    const alert = spage.getByRole('alert');
    await alert.waitFor();
    const es = (
      await svc.h.app.inject({
        method: 'POST',
        url: '/portal/v1/session',
        headers: { 'x-lang': 'es', 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'nobody@example.test', password: 'x' }),
      })
    ).json() as { message: string };
    assert.ok((await alert.innerText()).includes(es.message), `the catalogue's Spanish message: ${es.message}`);
    await checkPage(spage, sproblems, 'sign-in in Spanish');
    await spage.getByLabel('Contraseña').fill(owner.password);
    await spage.getByRole('button', { name: 'Iniciar sesión' }).click();
    await spage.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Saldos' }).waitFor();
    await spage.getByRole('columnheader', { name: 'Disponible' }).waitFor();
    await spage.getByRole('button', { name: 'English' }).click();
    await spage.getByRole('columnheader', { name: 'Available' }).waitFor();
    await sctx.close();
  });

  test('every POST the portal sent carried an Idempotency-Key of its own (docs/api-guide.md): one per action a person took', async () => {
    const posts = writes.filter((w) => w.what.startsWith('POST '));
    for (const what of [
      'POST /portal/v1/api-keys',
      'POST /api/v1/quotes',
      'POST /api/v1/orders',
      'POST /api/v1/deposits/declarations',
      'POST /api/v1/withdrawals/destinations/bank',
      'POST /api/v1/withdrawals',
      'POST /portal/v1/team/members',
    ]) {
      assert.ok(
        posts.some((w) => w.what === what),
        `${what} was sent`,
      );
    }
    for (const w of posts) assert.match(w.key ?? '', /^portal-[0-9a-f]{32}$/, `${w.what} carries a key`);
    assert.equal(new Set(posts.map((w) => w.key)).size, posts.length, 'no two actions share a key');
  });

  test('every page at 375 px: no horizontal scrolling, no serious accessibility violation', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    for (const link of ['Balances', 'Exchange', 'Orders', 'Deposits', 'Withdrawals', 'Ledger', 'Team', 'API keys', 'Account']) {
      await go(page, link);
      await page.waitForLoadState('networkidle');
      assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 375, `${link} fits 375 px`);
      await checkPage(page, problems, `${link} at 375 px`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
