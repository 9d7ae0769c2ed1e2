/**
 * What a client needs from the portal beyond the happy path: only priced pairs with their bounds, the
 * available balance and Max; the platform's stop as a banner; cancelling what still waits; an order's
 * own page; role presets; the ledger filtered and as CSV, in Spanish words and formats; a national
 * currency's deposit as a bank transfer; recovery codes to download. Chromium, by role and label, axe
 * clean at 1280 and 375 px. Screenshots: CAMBIO_SCREENSHOTS=docs/screenshots node scripts/test.mjs browser/portal-needs
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { totpCode } from '../../src/domain/people/totp.ts';
import {
  browserSkipReason,
  launchBrowser,
  requireBuilt,
  screenshot,
  startService,
  watch,
  type BrowserHandle,
  type Service,
} from './harness.ts';
import { acceptInvitation, ALL_ROLE, checkBoth, go, market, member, op, organization, type Person } from './portal-world.ts';

const skip = browserSkipReason();

const text = async (page: Page, what: Parameters<Page['getByRole']>[0], name: string | RegExp) =>
  (await page.getByRole(what, { name }).innerText()).replace(/\s+/g, ' ');

describe('portal: what the client needs, in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  let owner: Person;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    requireBuilt('portal');
    svc = await startService({ CAMBIO_DESTINATION_COOLDOWN_MS: '0' });
    br = await launchBrowser();
    await market(svc);
    // ETH is held but no pair prices it: it is not offered to exchange.
    await op(svc, 'PUT', '/market/assets/ETH', { decimals: 18 });
    await op(svc, 'PUT', '/wallets/USD', { network: 'wire', address: 'DEMOUS33-0001234567' });
    orgId = await organization(svc, 'Acme Treasury SA');
    await op(svc, 'POST', `/organizations/${orgId}/adjustments`, {
      assetSymbol: 'ETH',
      amountMinor: '1000000000000000000',
      reason: 'sandbox funding',
    });
    owner = await member(svc, orgId, 'Ana Owner', [...ALL_ROLE, 'portal:webhooks']);
    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, owner);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });
  afterEach(async (t) => {
    if (process.env.PORTAL_DEBUG && page)
      await page.screenshot({ path: `${process.env.PORTAL_DEBUG}/${t.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true });
  });

  test('exchange offers only priced pairs, with the available balance, Max, the bounds and the last quoted rate', async () => {
    await go(page, 'Exchange');
    const give = page.getByLabel('You deliver');
    assert.deepEqual(await give.locator('option').allInnerTexts(), ['BTC'], 'ETH is held but not priced; USD has no pair of its own');
    assert.deepEqual(await page.getByLabel('You receive').locator('option').allInnerTexts(), ['USD']);
    await page.getByText('Available: 2.00000000 BTC · This pair quotes from 0.00010000 to 100.00000000 BTC.').waitFor();
    await page.getByText('The rate comes with the quote, held for a few seconds.').waitFor();

    await page.getByLabel('Amount in BTC').fill('0.00001');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByText('The smallest amount this pair quotes is 0.00010000 BTC.').waitFor();
    assert.equal(await page.getByRole('region', { name: 'Your quote' }).count(), 0, 'nothing was asked of the server');

    await page.getByRole('button', { name: 'Max: 2.00000000 BTC, all you can deliver' }).click();
    assert.equal(await page.getByLabel('Amount in BTC').inputValue(), '2.00000000');
    await page.getByText('You will send 2.00000000 BTC.').waitFor();
    assert.equal(await page.getByText(/minimum units/).count(), 0, 'no minimum units for people');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByRole('region', { name: 'Your quote' }).getByText('1 BTC = 59,700.00 USD').waitFor();
    await page.getByLabel('Amount in BTC').fill('0.5');
    await page.getByText(/^Last quoted rate: 1 BTC = 59,700\.00 USD, at .*Indicative only/).waitFor();
    await checkBoth(page, problems, 'exchange');
    await screenshot(page, 'portal-exchange-bounds');
  });

  test('a read-only member sees the exchange form disabled, with the reason', async () => {
    const viewer = await member(svc, orgId, 'Carla Reader', ['portal:read']);
    const vctx = await br.context({ width: 375, height: 800 });
    const vpage = await vctx.newPage();
    const vproblems = watch(vpage, svc.baseUrl).problems;
    await acceptInvitation(vpage, svc, viewer);
    await go(vpage, 'Exchange');
    await vpage.getByText('Your role does not allow trading.').waitFor();
    assert.equal(await vpage.getByRole('button', { name: 'Get quote' }).isDisabled(), true);
    assert.equal(await vpage.getByLabel('Amount in BTC').isDisabled(), true);
    assert.equal(
      (await vpage.getByRole('group', { name: /Your role does not allow trading/ }).count()) +
        (await vpage.locator('fieldset[aria-describedby="cannot-trade"]').count()),
      1,
      'the reason describes the disabled form',
    );
    await checkBoth(vpage, vproblems, 'exchange, read-only');
    await vctx.close();
  });

  test('an order waiting for the operator is cancelled from the list; its own page shows the quote, rate and timeline', async () => {
    await go(page, 'Exchange');
    await page.getByLabel('Amount in BTC').fill('0.01');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.getByText('Order placed: waiting for the operator; the amount is held.').waitFor();
    await go(page, 'Orders');
    const cancel = page.getByRole('button', { name: /^Cancel the order of 0\.01000000 BTC from / });
    assert.equal(await page.getByRole('button', { name: /ord_/ }).count(), 0, 'no raw id in a button');
    assert.equal(await cancel.innerText(), 'Cancel');

    await page.getByRole('link', { name: /^Details of the order of 0\.01000000 BTC from / }).click();
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    assert.match(await page.locator('dl.summary').innerText(), /Rate\s+1 BTC = 59,700\.00 USD/);
    assert.match(await page.locator('dl.summary').innerText(), /You receive\s+597\.00 USD/);
    await page.getByText('Quote held until').waitFor();
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByText(/Placed; the amount was held/).waitFor();
    assert.equal(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).getAttribute('aria-current'),
      'page',
    );
    await checkBoth(page, problems, 'order detail');
    await screenshot(page, 'portal-order-detail');

    await page.getByRole('link', { name: 'Back to orders' }).click();
    await page.getByRole('button', { name: /^Cancel the order of 0\.01000000 BTC/ }).click();
    await page.getByText('Cancel this order? The hold is released at once.').waitFor();
    await checkBoth(page, problems, 'orders, confirming a cancel');
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByText('Order cancelled; the hold was released.').waitFor();
    await page.getByRole('table', { name: 'Orders' }).getByText('Cancelled; the hold was released', { exact: true }).waitFor();
    await go(page, 'Balances');
    await page.getByRole('row', { name: /^BTC 2\.00000000 BTC 0\.00000000 BTC 2\.00000000 BTC$/ }).waitFor();
  });

  test('a bank destination is for a national currency, checked before sending; a pending withdrawal is cancelled', async () => {
    await go(page, 'Withdrawals');
    await page.getByText('Register a bank destination').click();
    assert.deepEqual(
      await page.getByLabel('Asset').first().locator('option').allInnerTexts(),
      ['USD'],
      'no crypto asset for a bank account',
    );
    assert.deepEqual(await page.getByLabel('Account kind').locator('option').allInnerTexts(), ['Checking account', 'Savings account']);
    await page.getByRole('button', { name: 'Register destination' }).click();
    await page.getByText('Enter the label.').waitFor();
    await page.getByText('Enter the account holder.').waitFor();
    assert.equal(await page.getByText(/must have at least|characters/).count(), 0, 'no schema text');
    assert.equal(await page.getByLabel('Label').getAttribute('aria-invalid'), 'true');
    await checkBoth(page, problems, 'destination form with errors');
    await page.getByLabel('Label').fill('Payroll');
    await page.getByLabel('Bank', { exact: true }).fill('Banco Río');
    await page.getByLabel('Account number').fill('0001234567');
    await page.getByLabel('Account holder').fill('Acme Treasury SA');
    await page.getByLabel('Holder document').fill('30-71234567-8');
    await page.getByRole('button', { name: 'Register destination' }).click();
    await page.getByText('Waiting for the operator to register it').waitFor();
    const list = await page.evaluate(
      async () => (await (await fetch('/api/v1/withdrawals/destinations')).json()).data as Array<{ id: string }>,
    );
    await op(svc, 'POST', `/destinations/${list[0]!.id}/register-in-market`);
    await page.reload();
    await page.getByLabel('Amount in USD').fill('250');
    await page.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByText('Withdrawal requested: waiting for the operator; the amount is held.').waitFor();
    await page.getByRole('button', { name: /^Cancel the withdrawal of 250\.00 USD from / }).click();
    await page.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await page.getByText('Withdrawal cancelled; the hold was released.').waitFor();
    await page.getByRole('table', { name: 'Withdrawal requests' }).getByText('Cancelled; the hold was released', { exact: true }).waitFor();
    assert.match(await page.getByText(/^Available: /).innerText(), /Available: 10,000\.00 USD · Held: 0\.00 USD/);
    await checkBoth(page, problems, 'withdrawals after a cancel');
    await screenshot(page, 'portal-withdrawals-cancel');
  });

  test('a USD deposit reads as a bank transfer: bank details and the reference to quote, no chain wording', async () => {
    await go(page, 'Deposits');
    const usd = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'USD' }) });
    await usd.getByText('Bank details').waitFor();
    await usd.getByText('DEMOUS33-0001234567').waitFor();
    assert.equal(await usd.getByText(/network|chain/i).count(), 0, await usd.innerText());
    await page.getByLabel('Asset').selectOption('USD');
    await page.getByLabel('Amount').fill('1500');
    await page.getByText('You will send about 1,500.00 USD; the exact amount comes with the declaration.').waitFor();
    await page.getByRole('button', { name: 'Declare' }).click();
    const decl = page.getByRole('region', { name: /Open declaration/ });
    await decl.waitFor();
    const reference = await decl.locator('h2 code').innerText();
    await decl.getByText(`Quote the reference ${reference} in the transfer's description and send exactly this amount`).waitFor();
    assert.match(await decl.innerText(), /Send exactly\s+1,50\d\.\d\d USD/);
    assert.doesNotMatch(await decl.innerText(), /chain|Send only on/);
    await checkBoth(page, problems, 'USD deposit');
    await screenshot(page, 'portal-deposit-usd');
    // Not sending after all: cancelled with a confirming click; a new one can be declared.
    await decl.getByRole('button', { name: 'Cancel this declaration' }).click();
    await decl
      .getByRole('group', {
        name: `Cancel the declaration ${reference}? A transfer of its amount that still arrives will wait for manual attribution.`,
      })
      .waitFor();
    await checkBoth(page, problems, 'cancelling a declaration');
    await decl.getByRole('button', { name: 'Cancel declaration' }).click();
    await page.getByText('Declaration cancelled. You can declare a new deposit.').waitFor();
    assert.equal(await page.getByRole('region', { name: /Open declaration/ }).count(), 0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('region', { name: /Open declaration/ }).count(), 0, 'the server has it closed too');
  });

  test("the platform's stop shows as a banner on every page, and goes when it is resolved", async () => {
    await op(svc, 'POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'BTC', amountMinor: '99950000000' }] });
    await go(page, 'Balances');
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: 'Trading and withdrawals are paused; your balances are safe.' });
    await banner.waitFor();
    await go(page, 'Exchange');
    await banner.waitFor();
    await checkBoth(page, problems, 'exchange while stopped');
    await screenshot(page, 'portal-stopped');
    await op(svc, 'POST', '/reconciliation/resolve', { note: 'reviewed: a test difference' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Exchange' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await banner.count(), 0);
  });

  test('role presets with a description each over raw permissions; Custom keeps the raw ones', async () => {
    await go(page, 'Team');
    await page.getByText('Invite a member').click();
    for (const [name, hint] of [
      ['Admin', 'Everything'],
      ['Trader', 'Reads everything, trades'],
      ['Viewer', 'Reads balances'],
      ['Custom', 'Choose the permissions'],
    ] as const) {
      const radio = page.getByRole('radio', { name: new RegExp(`^${name}`) });
      assert.match(
        await radio.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')!)?.textContent ?? ''),
        new RegExp(hint),
      );
    }
    assert.equal(await page.getByRole('radio', { name: /^Viewer/ }).isChecked(), true, 'the narrowest role unless another is chosen');
    assert.equal(await page.getByRole('checkbox', { name: 'portal:read' }).count(), 0);
    await page.getByRole('radio', { name: /^Custom/ }).check();
    await page.getByRole('checkbox', { name: 'portal:read', exact: true }).waitFor();
    await page.getByRole('radio', { name: /^Trader/ }).check();
    await page.getByLabel('Name').fill('Tomás Trader');
    await page.getByLabel('Email').fill('tomas.trader@example.test');
    await checkBoth(page, problems, 'team, role presets');
    await screenshot(page, 'portal-team-roles');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByLabel('Invitation link', { exact: true }).waitFor();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    assert.match(
      (await pending.getByRole('row', { name: /Tomás Trader/ }).innerText()).replace(/\s+/g, ' '),
      /Tomás Trader tomas\.trader@example\.test Trader/,
    );
    assert.match(await text(page, 'row', /Tomás Trader.*Active|Tomás Trader.*Invited/), /Trader Read balances and records, Trade, Deposit/);
    await checkBoth(page, problems, 'team with a pending invitation');
    await screenshot(page, 'portal-team-pending');
    // Sent again: a new link, shown like the first one; the first one no longer works (people.test.ts).
    const firstLink = await page.getByLabel('Invitation link', { exact: true }).inputValue();
    await page.getByRole('button', { name: 'Resend the invitation of Tomás Trader' }).click();
    await page.getByRole('button', { name: 'Send a new link' }).click();
    const pendingRegion = page.getByRole('region', { name: 'Pending invitations' });
    await pendingRegion
      .getByText(
        'New invitation for Tomás Trader. Send this link; it is shown once and works for 7 days. The earlier link no longer works.',
      )
      .waitFor();
    const newLink = await pendingRegion.getByLabel('Invitation link', { exact: true }).inputValue();
    assert.match(newLink, /\/portal\/invitation#[A-Za-z0-9_-]{43}$/);
    assert.notEqual(newLink, firstLink);
    await checkBoth(page, problems, 'team, invitation sent again');
    await page.getByRole('button', { name: 'Revoke the invitation of Tomás Trader' }).click();
    await page.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByRole('table', { name: 'Pending invitations' }).waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Tomás Trader.*Removed/ }).waitFor();
  });

  test('ledger: filtered by asset, downloaded as CSV', async () => {
    await go(page, 'Ledger');
    await page.getByLabel('Asset').selectOption('USD');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    // The previous page stays on screen until the filtered one arrives: wait for it, up to 10 s.
    let rows = await page.locator('tbody tr').allInnerTexts();
    for (const until = Date.now() + 10_000; rows.some((r) => r.includes('BTC')) && Date.now() < until;) {
      await page.waitForTimeout(100);
      rows = await page.locator('tbody tr').allInnerTexts();
    }
    assert.ok(rows.length > 0 && rows.every((r) => r.includes('USD') && !r.includes('BTC')), rows.join('\n'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    assert.equal(download.suggestedFilename(), 'ledger-USD.csv');
    assert.match(csv.split('\n')[0]!, /^createdAt,id,entryId,kind,account,assetSymbol,assetDecimals,amount,amountMinor/);
    assert.ok(csv.includes(',adjustment,available,USD,2,10000.00,1000000,'), csv);
    assert.ok(!csv.includes(',BTC,'), 'only USD');
    await checkBoth(page, problems, 'ledger filtered');
    await screenshot(page, 'portal-ledger-filters');
  });

  test('Spanish: the ledger in Spanish words, Spanish numbers and dates; account types in Spanish', async () => {
    const sctx = await br.context({ locale: 'es-AR' });
    const spage = await sctx.newPage();
    const sproblems = watch(spage, svc.baseUrl).problems;
    await spage.goto(`${svc.baseUrl}/portal/`);
    await spage.getByLabel('Correo').fill(owner.email);
    await spage.getByLabel('Contraseña').fill(owner.password);
    await spage.getByRole('button', { name: 'Iniciar sesión' }).click();
    const goEs = async (link: string) => {
      await spage.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: link, exact: true }).click();
      await spage.getByRole('heading', { level: 1, name: link }).waitFor();
    };
    await goEs('Libro mayor');
    const usdAdjustment = spage.getByRole('row').filter({ hasText: '10.000,00 USD' });
    const row = (await usdAdjustment.innerText()).replace(/\s+/g, ' ');
    const d = new Date();
    const today = `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
    assert.match(
      row,
      new RegExp(`^${today.replace(/\//g, '\\/')},? \\d{2}:\\d{2} Ajuste — sandbox funding Disponible 10\\.000,00 USD(?: [✓✗…])?$`),
      'the row ends with its log mark (verified, failed or still checking)',
    );
    await spage.getByRole('cell', { name: 'Retención por orden' }).first().waitFor();
    await spage.getByRole('cell', { name: 'Retenido', exact: true }).first().waitFor();
    assert.equal(await spage.getByRole('cell', { name: /^(order_hold|available|held)$/ }).count(), 0, 'no raw identifier');
    await checkBoth(spage, sproblems, 'ledger in Spanish');
    await screenshot(spage, 'portal-ledger-es');
    await goEs('Saldos');
    await spage
      .getByRole('table', { name: 'Saldos', exact: true })
      .getByRole('row', { name: /^BTC 2,00000000 BTC/ })
      .waitFor();
    await goEs('Retiros');
    await spage
      .getByText(/Banco Río · Cuenta corriente ····/)
      .first()
      .waitFor();
    await sctx.close();
  });

  test('recovery codes can be downloaded as a file, or copied', async () => {
    await go(page, 'Account');
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    const secret = await page.getByLabel('Setup key', { exact: true }).inputValue();
    await page.getByLabel('Code from the app').fill(totpCode(secret, new Date()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('Two-step sign-in is on.').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as a file' }).click()]);
    const codes = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    assert.equal(codes.length, 10);
    assert.deepEqual(codes, await page.locator('ul.codes code').allInnerTexts());
    await page.getByRole('button', { name: /^Copy/ }).waitFor();
    await checkBoth(page, problems, 'recovery codes');
  });
});
