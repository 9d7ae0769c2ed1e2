/**
 * A treasury user's day in the portal without surprises, in Chromium, the way a person meets it: a new
 * destination says until when it cools down and, apart, that the operator has to register it; a
 * withdrawal above what is available never reaches its confirm step; amounts are typed in the person's
 * language (`0,5`, `1.000,5` in Spanish); refusals name the field in words, never the schema's; scopes
 * read as words; a stale refusal goes when the asset changes; during the platform's stop the acts it
 * would refuse are disabled with a plain notice while quotes go on. axe clean at 1280 and 375 px.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';
import { acceptInvitation, ALL_ROLE, checkBoth, go, market, member, op, organization, type Person } from './portal-world.ts';

const skip = browserSkipReason();

/** `go` of portal-world, with the Spanish navigation's name. */
async function goEs(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
}

describe("portal: a treasury user's day, in Chromium", { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  let owner: Person;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    requireBuilt('portal');
    // The sandbox's own cooldown (no CAMBIO_DESTINATION_COOLDOWN_MS): a minute.
    svc = await startService();
    br = await launchBrowser();
    await market(svc);
    await op(svc, 'PUT', '/wallets/USD', { network: 'wire', address: 'DEMOUS33-0001234567' });
    orgId = await organization(svc, 'Day Treasury SA');
    owner = await member(svc, orgId, 'Dana Owner', ALL_ROLE);
    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, owner);
  });
  afterEach(async (t) => {
    if (process.env.PORTAL_DEBUG && page)
      await page.screenshot({ path: `${process.env.PORTAL_DEBUG}/${t.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true });
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('a new destination says until when it cools down and, apart, that it waits for the operator', async () => {
    assert.equal(svc.h.config.destinationCooldownMs, 60_000, "the sandbox's cooldown is a minute");
    await go(page, 'Withdrawals');
    await page.getByText('Register a bank destination').click();
    await page.getByLabel('Label').fill('Operating account');
    await page.getByLabel('Bank', { exact: true }).fill('First Demo Bank');
    await page.getByLabel('Account number').fill('001234567890');
    await page.getByLabel('Account holder').fill('Day Treasury SA');
    await page.getByLabel('Holder document').fill('30-71234567-8');
    await page.getByRole('button', { name: 'Register destination' }).click();
    const card = page.locator('li.card').filter({ hasText: 'Operating account' });
    await card.getByText(/^Cooling down: usable from \d\d:\d\d/).waitFor();
    await card.getByText('Waiting for the operator to register it').waitFor();
    const [d] = (await svc.h.op('GET', `/destinations?organizationId=${orgId}`)).body.data;
    const shown = (await card.getByText(/^Cooling down: usable from/).innerText()).replace('Cooling down: usable from ', '');
    // The time shown is the cooldown's end rounded up to the minute, in the person's time zone (the browser's is the test's).
    const ends = new Date(Date.parse(d.cooldownUntil) + ((60_000 - (Date.parse(d.cooldownUntil) % 60_000)) % 60_000));
    assert.equal(shown, new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }).format(ends));
    await checkBoth(page, problems, 'a destination cooling down');

    await op(svc, 'POST', `/destinations/${d.id}/register-in-market`);
    await page.reload();
    await card.getByText(/^Cooling down: usable from/).waitFor();
    assert.equal(await card.getByText('Waiting for the operator to register it').count(), 0, 'registered: only the cooldown is left');
    // The minute passes (moved back in the store rather than waited for).
    await svc.h.store.db
      .updateTable('withdrawal_destinations')
      .set({ cooldown_until: new Date(0) })
      .where('id', '=', d.id)
      .execute();
    await page.reload();
    await card.getByText('Usable', { exact: true }).waitFor();
  });

  test('a withdrawal above the available balance, or of 80 digits, is stopped at the amount, before any confirm step', async () => {
    await go(page, 'Withdrawals');
    const amount = page.getByLabel('Amount in USD');
    await amount.fill('20000');
    await page.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByText('At most 10,000.00 USD is available.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Confirm withdrawal' }).count(), 0);
    assert.equal(await page.locator('.confirm').count(), 0, 'no confirm step');
    await amount.fill('1'.repeat(80));
    await page.getByText('This amount is too large.').waitFor();
    assert.equal(await page.locator('.confirm').count(), 0);
    await amount.fill('1,000.5');
    await page.getByText('You will send 1,000.50 USD.').waitFor();
    await checkBoth(page, problems, 'withdrawal amount refused in words');
  });

  test('a refusal on Deposits goes when the asset changes', async () => {
    await go(page, 'Deposits');
    await page.getByLabel('Asset', { exact: true }).selectOption('USD');
    await page.getByLabel('Amount', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Declare', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'declare at least 10' });
    await refusal.waitFor();
    await page.getByLabel('Asset', { exact: true }).selectOption('BTC');
    await refusal.waitFor({ state: 'detached' });
    assert.equal(await page.getByText(/declare at least/).count(), 0);
  });

  test('API keys: scopes in words, a bad IP named by its field in both languages', async () => {
    await go(page, 'API keys');
    await page.getByRole('button', { name: 'Issue key' }).click();
    await page.getByRole('checkbox', { name: 'portal:read', exact: true }).check();
    await page.getByRole('checkbox', { name: 'portal:trade', exact: true }).check();
    await page.getByLabel(/Allowed IP addresses/).fill('203.0.113.7, 999.1.1.1');
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    await page.getByText('Allowed IP addresses: “999.1.1.1” is not an IP address (e.g. 203.0.113.7 or 2001:db8::7).').waitFor();
    await page.getByLabel(/Allowed IP addresses/).fill('203.0.113.7');
    await page.getByLabel('Name (optional)').fill('ERP payments');
    await page.getByRole('button', { name: 'Issue', exact: true }).click();
    const key = page.getByLabel('API key', { exact: true });
    await key.waitFor();
    const secret = await key.inputValue();
    assert.match(secret, /^cmb_/);
    // The whole key is in view: the field is as tall as its wrapped text needs.
    assert.ok(await key.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1), 'not cut off');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('cell', { name: 'Read balances and records, Trade' }).waitFor();
    await page.getByRole('cell', { name: 'ERP payments' }).waitFor();
    assert.equal(await page.getByRole('cell', { name: /portal:read/ }).count(), 0, 'no raw scope in the list');
    await checkBoth(page, problems, 'API keys');

    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByRole('cell', { name: 'Ver saldos y registros, Operar cambios' }).waitFor();
    await page.getByRole('button', { name: 'Emitir clave' }).click();
    await page.getByRole('checkbox', { name: 'portal:read', exact: true }).check();
    await page.getByLabel(/Direcciones IP permitidas/).fill('10.0.0.300');
    await page.getByRole('button', { name: 'Emitir', exact: true }).click();
    await page.getByText('Direcciones IP permitidas: “10.0.0.300” no es una dirección IP (p. ej. 203.0.113.7 o 2001:db8::7).').waitFor();
    await page.getByRole('button', { name: 'Cancelar' }).click();
  });

  test('amounts in Spanish: decimal comma, group separators ignored, shown back exactly', async () => {
    await goEs(page, 'Cambio');
    const amount = page.getByLabel('Monto en BTC');
    await amount.fill('0,5');
    await page.getByText('Usted enviará 0,50000000 BTC.').waitFor();
    await page.getByRole('button', { name: 'Cotizar' }).click();
    await page.getByRole('region', { name: 'Su cotización' }).waitFor();
    await amount.fill('0,000000001');
    await page.getByText('BTC tiene 8 decimales: ingrese como máximo 8 dígitos después de la coma.').waitFor();

    await goEs(page, 'Retiros');
    await page.getByLabel('Monto en USD').fill('1.000,5');
    // Intl('es') groups from five digits: 1000,50 but 10.000,00.
    await page.getByText('Usted enviará 1000,50 USD.').waitFor();
    await page.getByRole('button', { name: 'Solicitar retiro' }).click();
    await page.getByRole('group', { name: /1000,50 USD/ }).waitFor();
    await page.getByRole('button', { name: 'Cancelar', exact: true }).click();
    await page.getByLabel('Monto en USD').fill('20.000');
    await page.getByRole('button', { name: 'Solicitar retiro' }).click();
    await page.getByText('Hay como máximo 10.000,00 USD disponible.').waitFor();
    await checkBoth(page, problems, 'Spanish amounts');
  });

  test("during the platform's stop: a plain notice, the refused acts disabled, quotes go on", async () => {
    await op(svc, 'POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'BTC', amountMinor: '1' }] });
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: 'El cambio y los retiros están en pausa; sus saldos están seguros.' });
    await banner.waitFor();
    assert.doesNotMatch(await page.locator('body').innerText(), /libros de la plataforma y el saldo del mercado/);

    await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
    await page.getByRole('alert').filter({ hasText: 'Trading and withdrawals are paused; your balances are safe.' }).waitFor();
    await go(page, 'Exchange');
    await page.getByLabel('Amount in BTC').fill('0.01');
    await page.getByRole('button', { name: 'Get quote' }).click();
    const quote = page.getByRole('region', { name: 'Your quote' });
    await quote.waitFor();
    assert.equal(await quote.getByRole('button', { name: 'Accept quote' }).isDisabled(), true);
    await quote.getByText('Paused for now: trading and withdrawals are paused; your balances are safe.').waitFor();
    await checkBoth(page, problems, 'exchange while paused');

    await go(page, 'Withdrawals');
    assert.equal(await page.getByRole('button', { name: 'Request withdrawal' }).isDisabled(), true);
    await go(page, 'Deposits');
    assert.equal(await page.getByRole('button', { name: 'Declare', exact: true }).isDisabled(), true);
    await page.getByText('Balances', { exact: true }).first().waitFor();

    await op(svc, 'POST', '/reconciliation/resolve', { note: 'reviewed: a test difference' });
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Deposits' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByRole('button', { name: 'Declare', exact: true }).isDisabled(), false);
  });
});
