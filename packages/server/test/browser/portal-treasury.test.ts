/**
 * A treasurer's own figures in the portal, in Chromium, the way a person meets them on Balances: the
 * reporting currency chosen on the page, each asset valued in it and the total (labelled an estimate),
 * the balance history as a chart with its exact table on demand, and this month's statement downloaded as
 * CSV and PDF; then the same page in Spanish on a phone. axe clean at 1280 and 375 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';
import { acceptInvitation, ALL_ROLE, checkBoth, go, market, member, organization, type Person } from './portal-world.ts';

const skip = browserSkipReason();

describe("portal: a treasurer's valuation, history and statements, in Chromium", { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let owner: Person;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];
  /** What the API answers for the organization's valuation, once USD is its reporting currency. */
  let valuation: { totalValueMinor: string; balances: { assetSymbol: string; valueMinor: string | null }[] };

  before(async () => {
    requireBuilt('portal');
    svc = await startService();
    br = await launchBrowser();
    await market(svc);
    // 2 BTC and 10,000.00 USD (portal-world's organization).
    const orgId = await organization(svc, 'Ledger Treasury SA');
    owner = await member(svc, orgId, 'Tess Treasurer', ALL_ROLE);
    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, owner);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  const valuationTable = () => page.getByRole('table', { name: 'Estimated value per asset' });
  const statements = () => page.getByRole('region', { name: 'Statements' });

  test('the reporting currency chosen on the page values each asset and the total, exactly as the API does', async () => {
    await go(page, 'Balances');
    await page.getByRole('combobox', { name: 'Reporting currency' }).selectOption('USD');
    await valuationTable().waitFor();
    // The API's own answer, read with the member's session as the portal's SDK reads it.
    valuation = await page.evaluate(async () => (await (await fetch('/api/v1/valuation', { credentials: 'same-origin' })).json()).data);
    const btc = valuation.balances.find((b) => b.assetSymbol === 'BTC')!;
    const usd = valuation.balances.find((b) => b.assetSymbol === 'USD')!;
    // Selling 2 BTC now at the rate a quote gives: 2 × 60,000 × (1 − 50 bps spread) = 119,400.00 USD.
    assert.equal(btc.valueMinor, '11940000');
    assert.equal(usd.valueMinor, '1000000');
    assert.equal(valuation.totalValueMinor, '12940000');

    const btcRow = valuationTable()
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'BTC', exact: true }) });
    assert.deepEqual(await btcRow.getByRole('cell').allInnerTexts(), ['2.00000000 BTC', '119,400.00 USD']);
    const usdRow = valuationTable()
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'USD', exact: true }) });
    assert.deepEqual(await usdRow.getByRole('cell').allInnerTexts(), ['10,000.00 USD', '10,000.00 USD']);
    await page.getByText('Estimated total: 129,400.00 USD').waitFor();
    await page
      .getByText(/estimate/i)
      .first()
      .waitFor();
    await checkBoth(page, problems, 'Balances with the valuation');
  });

  test('the history chart names the last closing balance; its exact table opens on demand', async () => {
    const history = page.getByRole('region', { name: 'Balance history' });
    await history.getByLabel('Asset').selectOption('BTC');
    const chart = history.getByRole('img', { name: /Daily closing balance of BTC/ });
    await chart.waitFor();
    const today = new Date().toISOString().slice(0, 10);
    assert.match((await chart.getAttribute('aria-labelledby')) ?? '', /chart-BTC-t chart-BTC-d/);
    assert.match(
      (await chart.locator('desc').textContent()) ?? '',
      new RegExp(`to ${today}; the last closing balance is 2\\.00000000 BTC`),
    );
    await history.getByText('Show the exact figures').click();
    const todayRow = history.getByRole('row').filter({ has: page.getByRole('rowheader', { name: today, exact: true }) });
    assert.deepEqual(await todayRow.getByRole('cell').allInnerTexts(), ['2.00000000 BTC']);
  });

  test("this month's statement downloads as CSV (opening, the funding, closing, exact) and as a PDF", async () => {
    const month = new Date().toISOString().slice(0, 7);
    await statements().getByLabel('Asset').selectOption('BTC');
    assert.equal(await statements().getByLabel('Month').inputValue(), month);
    const [csv] = await Promise.all([page.waitForEvent('download'), statements().getByRole('button', { name: 'Download CSV' }).click()]);
    assert.equal(csv.suggestedFilename(), `statement-BTC-${month}.csv`);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    assert.match(lines[1]!, /,Opening balance,.*,0$/);
    assert.ok(
      lines.some((l) => /,200000000,200000000$/.test(l)),
      `the funding of 2 BTC with its running balance:\n${lines.join('\n')}`,
    );
    assert.match(lines.at(-1)!, /,Closing balance,.*,200000000$/);
    const [pdf] = await Promise.all([page.waitForEvent('download'), statements().getByRole('button', { name: 'Download PDF' }).click()]);
    assert.equal(pdf.suggestedFilename(), `statement-BTC-${month}.pdf`);
    assert.equal(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    );
    assert.deepEqual(problems, []);
  });

  test('in Spanish on a phone: the same figures in Spanish form, and the statement in Spanish', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Saldos' }).waitFor();
    const table = page.getByRole('table', { name: 'Valor estimado por activo' });
    const btcRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'BTC', exact: true }) });
    assert.deepEqual(await btcRow.getByRole('cell').allInnerTexts(), ['2,00000000 BTC', '119.400,00 USD']);
    await page.getByText('Total estimado: 129.400,00 USD').waitFor();
    const region = page.getByRole('region', { name: 'Estados de cuenta' });
    await region.getByLabel('Activo').selectOption('BTC');
    const [csv] = await Promise.all([page.waitForEvent('download'), region.getByRole('button', { name: 'Descargar CSV' }).click()]);
    const text = readFileSync((await csv.path())!, 'utf8');
    assert.match(text, /Saldo inicial/);
    await checkBoth(page, problems, 'Saldos en español');
    await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
  });
});
