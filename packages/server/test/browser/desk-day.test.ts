// An operator's day at the desk, as people meet it: a reconciliation with a field left empty (skipped,
// never a zero) and one that would stop the platform (it says so, with the difference, before it is
// sent); a bank destination's full account number shown with a fresh code to an admin, never to a
// viewer; the decided list right after approving a withdrawal; an arrival recorded with the client's
// deposit reference; and the Spanish desk's words (audit kinds, actors, four-eyes, networks, rates).
// Every page changed is checked with axe at 1280 and 375 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg, type SeededOrg } from '../harness.ts';
import { balance, client, freshCode, go, invite, join, market, op, type Staff } from './desk-world.ts';
import {
  axeSerious,
  browserSkipReason,
  describeViolations,
  launchBrowser,
  requireBuilt,
  startService,
  watch,
  type BrowserHandle,
  type Service,
} from './harness.ts';

const skip = browserSkipReason();

async function accessible(page: Page, what: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    const v = await axeSerious(page);
    assert.deepEqual(v, [], `${what} at ${width} px: ${describeViolations(v)}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The Spanish desk's navigation. */
async function ir(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Mesa' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

describe("an operator's day at the desk, in English and Spanish", { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let org: SeededOrg;
  let ada: Staff;
  let page: Page;
  let problems: string[];
  let destinationId = '';

  before(async () => {
    requireBuilt('desk');
    br = await launchBrowser();
    svc = await startService({ CAMBIO_DESTINATION_COOLDOWN_MS: '0', CAMBIO_SEED_DEMO: 'false' });
    await market(svc);
    await op(svc, 'PUT', '/wallets/USD', { network: 'wire', address: 'US00CAMBIO0001' });
    org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 5000000n, USD: 104213122n } });
    const d = await client(svc, org.key, 'POST', '/withdrawals/destinations/bank', {
      label: 'Payroll account',
      assetSymbol: 'USD',
      bankName: 'Banco Río',
      accountKind: 'checking',
      accountNumber: '000123456789',
      holderName: 'Acme SA',
      holderDocument: '30-1',
    });
    assert.equal(d.status, 201, JSON.stringify(d.body));
    destinationId = d.body.data.id;
    await op(svc, 'POST', `/destinations/${destinationId}/register-in-market`);
    const a = await invite(svc, 'Ada Admin', 'admin');
    page = await join(br, svc, a);
    problems = watch(page, svc.baseUrl).problems;
    ada = a;
  });
  after(async () => {
    await ada?.ctx?.close();
    await br?.close();
    await svc?.close();
  });

  test('reconciliation: an empty field is skipped, not a zero; a run that would stop the platform says so, with the difference, first', async () => {
    await go(page, 'Reconciliation');
    await page.getByLabel('Enter the balances the market reports').check();
    await page.getByText('Up to 8 decimals; leave empty to skip (not compared).').waitFor();
    await page.getByLabel('Market balance BTC').fill('0.05');
    await page.getByRole('button', { name: 'Run reconciliation' }).click();
    let dialog = page.getByRole('dialog', { name: 'Run the reconciliation?' });
    await dialog.getByText('The figures entered match the books.').waitFor();
    await dialog.getByText('Not compared (left empty): USD.').waitFor();
    await accessible(page, 'the run dialog');
    await dialog.getByRole('button', { name: 'Run reconciliation' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Last run: every asset matched' }).waitFor();
    await page.getByRole('heading', { name: 'Reconciled: client operations run' }).waitFor();
    const last = (await op(svc, 'GET', '/reconciliation')).lastRun;
    assert.deepEqual(
      last.figures.map((f: { assetSymbol: string }) => f.assetSymbol),
      ['BTC'],
      'USD was not recorded at all',
    );

    // USD typed as 0: the dialog says the run would stop the platform, and by how much; Cancel sends nothing.
    await page.getByLabel('Market balance USD').fill('0');
    await page.getByRole('button', { name: 'Run reconciliation' }).click();
    dialog = page.getByRole('dialog', { name: 'Run the reconciliation?' });
    const alert = dialog.getByRole('alert');
    await alert.getByText(/This run would stop the platform: 1 asset\(s\) differ from the books/).waitFor();
    assert.match(await alert.innerText(), /USD differs by\s+-1,042,131\.22 USD/);
    // The same button, styled as a danger: the alert above it says what it does.
    assert.equal(await dialog.getByRole('button', { name: 'Run reconciliation' }).getAttribute('class'), 'danger');
    await accessible(page, 'the run dialog that would stop');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const state = await op(svc, 'GET', '/reconciliation');
    assert.deepEqual([state.reconciled, state.lastRun.id], [true, last.id], 'nothing was sent');
    assert.deepEqual(problems, []);
  });

  test("an admin shows a destination's full account number with a fresh code; a wrong code shows nothing", async () => {
    await go(page, 'Organizations');
    await page.getByLabel('Search').fill('Acme');
    await page.getByRole('link', { name: 'Acme Treasury' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Treasury' }).waitFor();
    const dests = page.getByRole('region', { name: 'Destinations' });
    await dests.getByRole('button', { name: 'Show full account number Payroll account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Full account number of Payroll account' });
    await dialog.getByLabel('Code').fill('12');
    await dialog.getByRole('button', { name: 'Show' }).click();
    await dialog.getByText('Enter the 6 digits of your authenticator app.').waitFor();
    const right = freshCode(ada);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    await dialog.getByLabel('Code').fill(wrong);
    await dialog.getByRole('button', { name: 'Show' }).click();
    await dialog.getByText(/That code is not right or was already used/).waitFor();
    assert.equal(await dialog.getByLabel('Full account number').count(), 0);
    await dialog.getByLabel('Code').fill(right);
    await dialog.getByRole('button', { name: 'Show' }).click();
    assert.equal(await dialog.getByLabel('Full account number').inputValue(), '000123456789');
    await dialog.getByText('Recorded in the audit trail. Closing this window hides the number again.').waitFor();
    await accessible(page, 'the full account number');
    await dialog.getByRole('button', { name: 'Close' }).click();
    const audit = await svc.h.op('GET', `/audit?subjectId=${destinationId}&action=destination.reveal`);
    assert.deepEqual(
      audit.body.data.map((e: { actor: string }) => e.actor),
      [`staff:${ada.id}`],
    );

    // A viewer is never offered it (and the server refuses anyway: destination-reveal.test.ts).
    const v = await invite(svc, 'Vic Viewer', 'viewer');
    const vp = await join(br, svc, v);
    await vp.goto(page.url());
    await vp
      .getByRole('region', { name: 'Destinations' })
      .getByRole('row', { name: /Payroll account/ })
      .waitFor();
    assert.equal(await vp.getByRole('button', { name: /Show full account number/ }).count(), 0);
    await v.ctx!.close();
  });

  test('after approving a withdrawal, the decided list shows it without choosing a kind; Orders alone says where it is', async () => {
    const w = await client(svc, org.key, 'POST', '/withdrawals', {
      destinationId,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '25000',
    });
    assert.equal(w.status, 201, JSON.stringify(w.body));
    await go(page, 'Approvals');
    const row = page.locator(`tr[data-request="${w.body.data.id}"]`);
    await row.getByText('No approval yet (1 needed)').waitFor();
    await row.getByRole('button', { name: /^Approve/ }).click();
    await page
      .getByRole('dialog', { name: `Approve withdrawal ${w.body.data.id}?` })
      .getByRole('button', { name: 'Confirm approval of the withdrawal' })
      .click();
    const history = page.getByRole('region', { name: 'Decided requests' });
    await history.getByRole('row', { name: new RegExp(w.body.data.id) }).waitFor();
    assert.equal(await history.getByLabel('Request kind').locator('option:checked').innerText(), 'Orders and withdrawals');
    await history.getByLabel('Request kind').selectOption('order');
    await history.getByText('No decided order matches (withdrawals are under the kind Withdrawals).').waitFor();
    await history.getByLabel('Request kind').selectOption('withdrawal');
    await history.getByRole('row', { name: new RegExp(w.body.data.id) }).waitFor();
    await accessible(page, 'Approvals with the decided list');
  });

  test("an arrival recorded with the client's deposit reference is credited to that declaration", async () => {
    const decl = await client(svc, org.key, 'POST', '/deposits/declarations', {
      assetSymbol: 'USD',
      assetDecimals: 2,
      declaredAmountMinor: '100000',
    });
    assert.equal(decl.status, 201, JSON.stringify(decl.body));
    const { reference, expectedAmountMinor } = decl.body.data as { reference: string; expectedAmountMinor: string };
    const expected = `${expectedAmountMinor.slice(0, -2)}.${expectedAmountMinor.slice(-2)}`;
    const before = (await balance(svc, org.key, 'USD')).available;
    await go(page, 'Deposits');
    const form = page.getByRole('region', { name: 'Record an arrival' });
    await form.getByLabel('Asset').selectOption('USD');
    assert.equal(await form.getByLabel('Network').locator('option:checked').innerText(), 'Bank transfer');
    await form.getByLabel('Amount').fill(expected);
    await form.getByLabel('Transaction id').fill('WIRE-2026-0001');
    await form.getByLabel("Client's deposit reference").fill('not-it');
    await form.getByRole('button', { name: 'Record arrival' }).click();
    await form.getByText('A deposit reference is 8 letters and digits, such as K7QM-3XPA.').waitFor();
    await form.getByLabel("Client's deposit reference").fill(reference.toLowerCase().replace('-', ''));
    await form.getByRole('button', { name: 'Record arrival' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record this arrival?' });
    await dialog.getByText(reference, { exact: true }).waitFor();
    await accessible(page, 'the arrival with its reference');
    await dialog.getByRole('button', { name: 'Record arrival' }).click();
    await page.getByText('Arrival WIRE-2026-0001 matched a declaration and was credited.').waitFor();
    assert.equal((await balance(svc, org.key, 'USD')).available, before + BigInt(expectedAmountMinor), 'credited to Acme, exactly');
  });

  test("the organization's page downloads a month's statement of one asset, exact, as CSV and PDF", async () => {
    const month = new Date().toISOString().slice(0, 7);
    await go(page, 'Organizations');
    await page.getByRole('link', { name: 'Acme Treasury' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Treasury' }).waitFor();
    const region = page.getByRole('region', { name: 'Statements' });
    await region.getByLabel('Asset').selectOption('BTC');
    assert.equal(await region.getByLabel('Month').inputValue(), month);
    const [csv] = await Promise.all([page.waitForEvent('download'), region.getByRole('button', { name: 'Download CSV' }).click()]);
    assert.equal(csv.suggestedFilename(), `statement-BTC-${month}.csv`);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split(/\r?\n/);
    assert.match(lines[1]!, /,Opening balance,.*,0$/);
    assert.match(lines.at(-1)!, /,Closing balance,.*,5000000$/, `0.05 BTC funded this month:\n${lines.join('\n')}`);
    const [pdf] = await Promise.all([page.waitForEvent('download'), region.getByRole('button', { name: 'Download PDF' }).click()]);
    assert.equal(
      readFileSync((await pdf.path())!)
        .subarray(0, 5)
        .toString('latin1'),
      '%PDF-',
    );
    await accessible(page, "the organization's page with its statements");
  });

  test('the Spanish desk names things in words: audit kinds and actors, the platform, four-eyes, networks, the mid rate', async () => {
    // A failed sign-in (someone not signed in) and a reconciliation that stops, resolved: both in the audit trail.
    await svc.h.app.inject({
      method: 'POST',
      url: '/operator/v1/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'nobody@operator.test', password: 'wrong password here' }),
    });
    await op(svc, 'POST', '/reconciliation/run', { marketBalances: [{ assetSymbol: 'USD', amountMinor: '1' }] });
    await op(svc, 'POST', '/reconciliation/resolve', { note: 'test of the words' });
    const w = await client(svc, org.key, 'POST', '/withdrawals', {
      destinationId,
      assetSymbol: 'USD',
      assetDecimals: 2,
      amountMinor: '1000',
    });
    assert.equal(w.status, 201);

    await page.evaluate(() => localStorage.setItem('cambio.desk.lang', 'es'));
    await page.reload();
    await ir(page, 'Auditoría');
    const table = page.getByRole('table', { name: 'Entradas de auditoría, la más reciente primero' });
    const mismatch = table.getByRole('row').filter({ hasText: 'Conciliación: diferencia (operaciones detenidas)' });
    await mismatch.getByRole('cell', { name: 'La plataforma', exact: true }).waitFor();
    const failed = table.getByRole('row').filter({ hasText: 'Inicio de sesión fallido' });
    await failed.getByText('Alguien sin sesión iniciada').waitFor();
    await failed
      .getByText('Miembro: ninguna cuenta con ese correo')
      .or(failed.getByText('Persona del personal: ninguna cuenta con ese correo'))
      .waitFor();
    const text = await table.innerText();
    assert.doesNotMatch(text, /\banonymous\b|platform platform|member unknown|staff unknown/);
    await accessible(page, 'Auditoría');

    await ir(page, 'Aprobaciones');
    await page.locator(`tr[data-request="${w.body.data.id}"]`).getByText('Aún sin aprobación (se necesitan 1)').waitFor();

    await ir(page, 'Mercado');
    const btcUsd = page.getByRole('region', { name: 'Pares y precios' }).getByRole('row', { name: /BTC\/USD/ });
    const cells = await btcUsd.getByRole('cell').allInnerTexts();
    assert.ok(
      cells.some((c) => /^60\.000(,0+)?$/.test(c.trim())),
      `the mid rate the Spanish way: ${cells.join(' | ')}`,
    );
    await page.getByRole('region', { name: 'Billeteras de depósito' }).getByText('Transferencia bancaria').waitFor();
    await accessible(page, 'Mercado');

    await ir(page, 'Depósitos');
    await page.getByRole('region', { name: 'Registrar un ingreso' }).getByLabel('Referencia de depósito del cliente').waitFor();
    await page.evaluate(() => localStorage.setItem('cambio.desk.lang', 'en'));
    assert.deepEqual(problems, []);
  });
});
