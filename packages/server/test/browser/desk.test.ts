// The desk in Chromium against the real service (one browser; one context per staff person): what
// staff see and do, asserted as they and the client notice it — exact amounts, states, reasons, codes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SECRET, seedOrg, usableDestination, type SeededOrg } from '../harness.ts';
import { balance, client, freshCode, go, invite, join, market, op, placeOrder, row, type Staff } from './desk-world.ts';
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

/** Every POST a page sends to a path, with its Idempotency-Key. */
function posts(page: Page, path: RegExp): Array<{ url: string; key: string | undefined }> {
  const seen: Array<{ url: string; key: string | undefined }> = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && path.test(new URL(r.url()).pathname)) seen.push({ url: r.url(), key: r.headers()['idempotency-key'] });
  });
  return seen;
}

// One Chromium for the whole file: each person (and each service) gets a context of its own.
let br: BrowserHandle;
before(async () => {
  if (!skip) br = await launchBrowser();
});
after(async () => {
  await br?.close();
});

describe('desk in Chromium (sandbox)', { skip: skip ?? false }, () => {
  let svc: Service;
  let org: SeededOrg;
  let ana: Staff, bo: Staff, vic: Staff, ada: Staff;
  const problems: string[][] = [];
  /** Every POST the approvers' and the admin's pages sent after joining, with its Idempotency-Key. */
  const writes: Array<Array<{ url: string; key: string | undefined }>> = [];

  before(async () => {
    requireBuilt('desk');
    svc = await startService({ CAMBIO_DESTINATION_COOLDOWN_MS: '0' });
    await market(svc);
    org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 200000000n, USD: 1000000n } });
    const people = [
      await invite(svc, 'Ana Approver', 'approver'),
      await invite(svc, 'Bo Second', 'approver'),
      await invite(svc, 'Vic Viewer', 'viewer'),
      await invite(svc, 'Ada Admin', 'admin'),
    ];
    for (const p of people) {
      await join(br, svc, p, p.role !== 'viewer');
      problems.push(watch(p.page!, svc.baseUrl).problems);
    }
    [ana, bo, vic, ada] = [people[0]!, people[1]!, people[2]!, people[3]!];
    // The viewer's page also sends a forced decision by hand (no key): what the desk itself sends is the others'.
    for (const p of [ana, bo, ada]) writes.push(posts(p.page!, /^\/operator\/v1\//));
  });
  after(async () => {
    for (const p of [ana, bo, vic, ada]) await p?.ctx?.close();
    await svc?.close();
  });

  test('signed out, the desk asks for Email and Password, then the Code; under its CSP, accessible, the sandbox said', async () => {
    const ctx = await br.context();
    const page = await ctx.newPage();
    const w = watch(page, svc.baseUrl);
    writes.push(posts(page, /^\/operator\/v1\//));
    const res = await page.goto(`${svc.baseUrl}/desk/approvals`);
    assert.equal(res?.status(), 200);
    assert.match(res!.headers()['content-security-policy']!, /script-src 'self'/);
    await page.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
    await page.getByRole('note').getByText('Sandbox.').waitFor();
    await assertAccessible(page);
    await screenshot(page, 'desk-sign-in');
    await page.getByLabel('Email').fill(ana.email);
    await page.getByLabel('Password').fill(ana.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Code', { exact: true }).fill(freshCode(ana));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await page.getByText('Sandbox.').waitFor();
    const nav = page.getByRole('navigation', { name: 'Desk' });
    for (const name of ['Approvals', 'Deposits', 'Reconciliation', 'Organizations', 'Market', 'Audit'])
      await nav.getByRole('link', { name, exact: true }).waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Staff' }).count(), 0, 'Staff is for admins');
    assert.deepEqual(w.problems, []);
    await ctx.close();
  });

  test("an approver approves an order placed through the API: one request for a double click, and the client's balances change exactly", async () => {
    const order = await placeOrder(svc, org.key, '50000000');
    assert.equal(order.quoteMinor, 2985000n); // 0.5 BTC at floor(60000 × 0.995) = 59,700.00 USD
    const page = ana.page!;
    const sent = posts(page, new RegExp(`/operator/v1/orders/${order.id}/approve$`));
    await go(page, 'Approvals');
    const r = row(page, order.id);
    await r.getByText('Delivers 0.50000000 BTC').waitFor();
    await r.getByText('Receives 29,850.00 USD').waitFor();
    await r.getByText('Acme Treasury').waitFor();
    await r.getByText('No approval yet (1 needed)').waitFor();
    await assertAccessible(page);
    await screenshot(page, 'desk-approvals');
    await r.getByRole('button', { name: /^Approve/ }).click();
    const dialog = page.getByRole('dialog', { name: `Approve order ${order.id}?` });
    await dialog.getByText('It executes at the simulated market now').waitFor();
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Confirm approval of the order' }).dblclick();
    await page.getByText(`Order ${order.id} approved: completed.`).waitFor();
    assert.equal(sent.length, 1, 'a double click sends one decision');
    assert.match(sent[0]!.key ?? '', /^desk-[0-9a-f]{32}$/, 'the decision carries an Idempotency-Key');
    await r.waitFor({ state: 'detached' });
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 150000000n, held: 0n });
    assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 1000000n + 2985000n, held: 0n });
    const listed = await client(svc, org.key, 'GET', `/orders`);
    assert.equal(listed.body.data.find((o: { id: string }) => o.id === order.id).state, 'completed');
  });

  test("a rejection asks for a reason, releases the hold, and the client's list shows the reason", async () => {
    const order = await placeOrder(svc, org.key, '10000000');
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 140000000n, held: 10000000n });
    const page = ana.page!;
    await page.reload();
    const r = row(page, order.id);
    await r.getByRole('button', { name: /^Reject/ }).click();
    const dialog = page.getByRole('dialog', { name: `Reject order ${order.id}?` });
    const confirm = dialog.getByRole('button', { name: 'Confirm rejection of the order' });
    assert.equal(await confirm.isDisabled(), true, 'no rejection without a reason');
    await dialog.getByLabel('Reason').fill('Outside the agreed trading window');
    await confirm.click();
    await page.getByText(`Order ${order.id} rejected`).waitFor();
    const listed = await client(svc, org.key, 'GET', '/orders');
    const o = listed.body.data.find((x: { id: string }) => x.id === order.id);
    assert.deepEqual([o.state, o.reason], ['rejected', 'Outside the agreed trading window']);
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 150000000n, held: 0n });
  });

  test("a withdrawal rejected with a reason: the hold is released, and the client's portal lists it rejected with that reason", async () => {
    const destinationId = await usableDestination(svc.h, org.key);
    const usd = await balance(svc, org.key, 'USD');
    const w = await client(svc, org.key, 'POST', '/withdrawals', {
      destinationId,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '12345',
    });
    assert.equal(w.status, 201, JSON.stringify(w.body));
    const id: string = w.body.data.id;
    assert.deepEqual(await balance(svc, org.key, 'USD'), { available: usd.available - 12345n, held: 12345n });
    const page = ana.page!;
    await go(page, 'Approvals');
    const r = row(page, id);
    await r.getByText('123.45 USD').waitFor();
    await r.getByRole('button', { name: /^Reject/ }).click();
    const dialog = page.getByRole('dialog', { name: `Reject withdrawal ${id}?` });
    const confirm = dialog.getByRole('button', { name: 'Confirm rejection of the withdrawal' });
    assert.equal(await confirm.isDisabled(), true, 'no rejection without a reason');
    await dialog.getByLabel('Reason').fill('The destination account is under review');
    await confirm.click();
    await page.getByText(`Withdrawal ${id} rejected`).waitFor();
    await r.waitFor({ state: 'detached' });
    assert.deepEqual(await balance(svc, org.key, 'USD'), usd, 'the hold is released, nothing left');

    // What the client sees: a member of the organization signed in to the portal.
    const m = await op(svc, 'POST', `/organizations/${org.orgId}/members`, {
      name: 'Carla Client',
      email: 'carla.client@example.test',
      permissions: ['portal:read'],
    });
    const token = new URL(m.invitation.url).hash.slice(1);
    const accepted = await svc.h.app.inject({
      method: 'POST',
      url: '/portal/v1/invitations/accept',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token, password: 'Carla client long passphrase 42!' }),
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const [name, value] = String(accepted.headers['set-cookie']).split(';')[0]!.split('=');
    const ctx = await br.context();
    await ctx.addCookies([{ name: name!, value: value!, url: svc.baseUrl }]);
    const portal = await ctx.newPage();
    await portal.goto(`${svc.baseUrl}/portal/withdrawals`);
    const listed = portal.getByRole('row').filter({ hasText: '123.45 USD' });
    await listed.getByText('— The destination account is under review').waitFor();
    assert.match(await listed.innerText(), /Rejected/);
    await ctx.close();
  });

  test('four-eyes: the first approval leaves it waiting "1 of 2 approvals, by Ana Approver"; only another person completes it', async () => {
    await op(svc, 'PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: '100000000' });
    const order = await placeOrder(svc, org.key, '100000000');
    const page = ana.page!;
    await page.reload();
    const r = row(page, order.id);
    await r.getByText('No approval yet (2 needed)').waitFor();
    await r.getByRole('button', { name: /^Approve/ }).click();
    await page.getByRole('dialog').getByText('This is the first of two approvals').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm approval of the order' }).click();
    await page.getByText(`Your approval of order ${order.id} is recorded; it needs a second person.`).waitFor();
    await r.getByText('1 of 2 approvals, by Ana Approver').waitFor();
    assert.equal(await r.getByRole('button', { name: /^Approve/ }).isDisabled(), true, 'the same person cannot approve twice');
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 50000000n, held: 100000000n });
    await screenshot(page, 'desk-four-eyes');

    const second = bo.page!;
    await go(second, 'Approvals');
    const r2 = row(second, order.id);
    await r2.getByText('1 of 2 approvals, by Ana Approver').waitFor();
    await r2.getByRole('button', { name: /^Approve/ }).click();
    await second.getByRole('dialog').getByRole('button', { name: 'Confirm approval of the order' }).click();
    await second.getByText(`Order ${order.id} approved: completed.`).waitFor();
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 50000000n, held: 0n });
    await op(svc, 'PUT', '/policies/approvals/BTC', { secondApprovalFromMinor: null });
  });

  test('a viewer sees the queue but no decision; a decision forced from their browser is refused and changes nothing', async () => {
    const order = await placeOrder(svc, org.key, '1000000');
    const page = vic.page!;
    await go(page, 'Approvals');
    const r = row(page, order.id);
    await r.getByText('Delivers 0.01000000 BTC').waitFor();
    assert.equal(await r.getByRole('button').count(), 0, 'no decision buttons for a viewer');
    await page.getByText('Your role (viewer) reads the queue').waitFor();
    const forced = await page.evaluate(async (id) => {
      const res = await fetch(`/operator/v1/orders/${id}/approve`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return { status: res.status, code: (await res.json()).code };
    }, order.id);
    assert.deepEqual(forced, { status: 403, code: 'auth.role_missing' });
    const listed = await client(svc, org.key, 'GET', '/orders');
    assert.equal(listed.body.data.find((o: { id: string }) => o.id === order.id).state, 'pending_approval');
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 49000000n, held: 1000000n });
  });

  test('reconciliation: a difference stops client operations with a banner on every page, until resolved with a note', async () => {
    const page = ana.page!;
    await go(page, 'Reconciliation');
    await page.getByRole('heading', { name: 'Reconciled: client operations run' }).waitFor();
    await page.getByLabel('Enter the balances the market reports').check();
    await page.getByLabel('Market balance BTC').fill('999.5');
    await page.getByRole('button', { name: 'Run reconciliation' }).click();
    await page.getByRole('dialog').getByText('999.50000000 BTC').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Run reconciliation' }).click();
    await page.getByRole('heading', { name: 'Stopped: the books and the market disagree' }).waitFor();
    await page.getByRole('heading', { name: 'Last run: differences found' }).waitFor();
    await page.getByRole('row', { name: /BTC .*999\.50000000 BTC.*Differs/ }).waitFor();
    await assertAccessible(page);
    await screenshot(page, 'desk-reconciliation');

    const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '100000' });
    const stopped = await client(svc, org.key, 'POST', '/orders', { quoteId: q.body.data.id });
    assert.deepEqual([stopped.status, stopped.body.code], [409, 'ledger.ledger_not_reconciled']);
    for (const p of [page, vic.page!]) {
      await go(p, 'Deposits');
      await p.getByRole('alert').filter({ hasText: 'Stopped: the books and the market disagree.' }).waitFor();
    }

    await go(page, 'Reconciliation');
    await page.getByRole('button', { name: 'Resolve' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resolve the stop?' });
    await dialog.getByLabel('Note').fill('Venue statement re-read: the figure was a typo.');
    await dialog.getByRole('button', { name: 'Resolve and resume' }).click();
    await page.getByRole('heading', { name: 'Reconciled: client operations run' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Stopped' }).waitFor({ state: 'detached' });
    const again = await placeOrder(svc, org.key, '100000');
    assert.ok(again.id);
  });

  test('a stray arrival is attributed to the organization found by search, and credited exactly', async () => {
    const arrival = await op(svc, 'POST', '/deposits', {
      assetSymbol: 'BTC',
      network: 'bitcoin',
      amountMinor: '12345678',
      txid: 'stray-tx-0001',
    });
    assert.equal(arrival.state, 'unattributed');
    const before = await balance(svc, org.key, 'BTC');
    const page = ana.page!;
    await go(page, 'Deposits');
    const r = page.getByRole('row', { name: /stray-tx-0001/ });
    await r.getByText('0.12345678 BTC').waitFor();
    await r.getByRole('button', { name: /^Attribute/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Attribute the arrival stray-tx-0001?' });
    await dialog.getByLabel('Search organization').fill(org.orgId);
    await dialog.getByRole('radio', { name: /Acme Treasury/ }).check();
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Credit this organization' }).click();
    await page.getByText('BTC arrival stray-tx-0001 credited to Acme Treasury.').waitFor();
    const after = await balance(svc, org.key, 'BTC');
    assert.equal(after.available - before.available, 12345678n);
    await page.getByRole('row', { name: /stray-tx-0001/ }).waitFor({ state: 'detached' });
  });

  test('every page of an admin is accessible and shows what it manages; the audit names who decided', async () => {
    const page = ada.page!;
    for (const name of ['Organizations', 'Market', 'Audit', 'Staff', 'Deposits', 'Approvals']) {
      await go(page, name);
      await assertAccessible(page);
      await screenshot(page, `desk-${name.toLowerCase()}`);
    }
    await go(page, 'Audit');
    await page.getByLabel('Person', { exact: true }).fill(ana.email);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page
      .getByRole('cell', { name: `${ana.name} (${ana.email} · staff:${ana.id})` })
      .first()
      .waitFor();
    await page.getByLabel('Person', { exact: true }).fill(`staff:${ana.id}`);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page
      .getByRole('cell', { name: `${ana.name} (${ana.email} · staff:${ana.id})` })
      .first()
      .waitFor();
    for (const p of problems) assert.deepEqual(p, []);
  });

  test('every POST the desk sent carried an Idempotency-Key of its own (docs/api-guide.md): one per action confirmed, sign-in included', () => {
    const sent = writes.flat().map((w) => ({ what: new URL(w.url).pathname, key: w.key }));
    for (const what of [
      /^\/operator\/v1\/session$/,
      /\/approve$/,
      /\/reject$/,
      /^\/operator\/v1\/reconciliation\/run$/,
      /^\/operator\/v1\/reconciliation\/resolve$/,
      /\/attribute$/,
    ]) {
      assert.ok(
        sent.some((w) => what.test(w.what)),
        `${what} was sent`,
      );
    }
    for (const w of sent) assert.match(w.key ?? '', /^desk-[0-9a-f]{32}$/, `${w.what} carries a key`);
    assert.equal(new Set(sent.map((w) => w.key)).size, sent.length, 'no two actions share a key');
  });
});

describe('desk in Chromium (production: the desk executes)', { skip: skip ?? false }, () => {
  let svc: Service;
  let org: SeededOrg;
  let pia: Staff;

  before(async () => {
    requireBuilt('desk');
    svc = await startService({
      CAMBIO_MODE: 'production',
      CAMBIO_SECRET: SECRET,
      CAMBIO_DESTINATION_COOLDOWN_MS: '0',
      CAMBIO_SEED_DEMO: 'false',
    });
    await market(svc);
    org = await seedOrg(svc.h, { name: 'Prod Treasury', balances: { BTC: 5000000n, USD: 50000n } });
    const p = await invite(svc, 'Pia Production', 'approver');
    await join(br, svc, p);
    pia = p;
  });
  after(async () => {
    await pia?.ctx?.close();
    await svc?.close();
  });

  test('an approved order waits for execution; the fill shows the margin it implies before it is confirmed; the client gets the quote', async () => {
    const order = await placeOrder(svc, org.key, '1000000');
    assert.equal(order.quoteMinor, 59700n);
    const page = pia.page!;
    await go(page, 'Approvals');
    assert.equal(await page.getByText('Sandbox.').count(), 0, 'production shows no sandbox banner');
    await row(page, order.id)
      .getByRole('button', { name: /^Approve/ })
      .click();
    await page.getByRole('dialog').getByText('execute it at the venue, then record the fill here').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm approval of the order' }).click();
    await page.getByText(`Order ${order.id} approved: waiting for execution.`).waitFor();
    await row(page, order.id)
      .getByRole('button', { name: /^Record fill/ })
      .click();
    const dialog = page.getByRole('dialog', { name: `Record the fill of order ${order.id}?` });
    await dialog.getByLabel('Venue', { exact: true }).fill('Kraken OTC');
    await dialog.getByLabel('Venue reference').fill('kr-7781');
    await dialog.getByLabel('Proceeds (USD)').fill('599.401');
    await dialog.getByText('At most 2 decimals for this asset.').waitFor();
    await dialog.getByLabel('Proceeds (USD)').fill('599.40');
    await dialog.getByText('Margin 2.40 USD (40 bps)').waitFor();
    await dialog.getByText('you will send 59940 minor units').waitFor();
    await assertAccessible(page);
    await screenshot(page, 'desk-fill');
    await dialog.getByRole('button', { name: 'Confirm the fill' }).click();
    await page.getByText(`Order ${order.id} completed with the fill kr-7781 at Kraken OTC.`).waitFor();
    assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 50000n + 59700n, held: 0n });
    assert.deepEqual(await balance(svc, org.key, 'BTC'), { available: 4000000n, held: 0n });
  });

  test('an approved withdrawal waits for the payout reference, then completes', async () => {
    const destinationId = await usableDestination(svc.h, org.key);
    const w = await client(svc, org.key, 'POST', '/withdrawals', {
      destinationId,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '25000',
    });
    assert.equal(w.status, 201, JSON.stringify(w.body));
    const page = pia.page!;
    await page.reload();
    await row(page, w.body.data.id).getByText('250.00 USD').waitFor();
    await row(page, w.body.data.id)
      .getByRole('button', { name: /^Approve/ })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm approval of the withdrawal' }).click();
    await page.getByText(`Withdrawal ${w.body.data.id} approved: waiting for execution.`).waitFor();
    await row(page, w.body.data.id)
      .getByRole('button', { name: /^Record payout/ })
      .click();
    const dialog = page.getByRole('dialog', { name: `Record the payout of withdrawal ${w.body.data.id}?` });
    await dialog.getByLabel('Payout reference').fill('SEPA-2026-0001');
    await dialog.getByRole('button', { name: 'Confirm the payout' }).click();
    await page.getByText(`Withdrawal ${w.body.data.id} completed with the payout SEPA-2026-0001.`).waitFor();
    const listed = await client(svc, org.key, 'GET', '/withdrawals');
    assert.equal(listed.body.data.find((x: { id: string }) => x.id === w.body.data.id).state, 'completed');
    assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 50000n + 59700n - 25000n, held: 0n });
  });
});
