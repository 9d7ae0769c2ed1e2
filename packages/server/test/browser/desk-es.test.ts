// The desk in Spanish: a person who chooses Español reads the feature pages in it, by the same roles as in
// English, with figures and dates the Spanish way, and the pages stay accessible on a desktop and a phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg, type SeededOrg } from '../harness.ts';
import { go, invite, join, market, placeOrder, row, type Staff } from './desk-world.ts';
import { axeSerious, browserSkipReason, describeViolations, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';

const skip = browserSkipReason();
const DAY = /\b\d{2}\/\d{2}\/\d{4}\b/;

/** Follows a link of the desk's navigation, named "Mesa" in Spanish, to the page of that heading. */
async function ir(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Mesa' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** axe finds nothing serious at 1280 px and at 375 px. */
async function accessibleAtBothWidths(page: Page): Promise<void> {
  const was = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: was.height });
    const v = await axeSerious(page);
    assert.deepEqual(v, [], `${width} px: ${describeViolations(v)}`);
  }
  await page.setViewportSize(was);
}

let br: BrowserHandle;
before(async () => { if (!skip) br = await launchBrowser(); });
after(async () => { await br?.close(); });

describe('desk in Spanish (Chromium)', { skip: skip ?? false }, () => {
  let svc: Service;
  let org: SeededOrg;
  let ada: Staff;
  let problems: string[];
  let orderId: string;

  before(async () => {
    requireBuilt('desk');
    svc = await startService();
    await market(svc);
    org = await seedOrg(svc.h, { name: 'Acme Tesorería', balances: { BTC: 200000000n, USD: 1000000n } });
    const a = await invite(svc, 'Ada Admin', 'admin');
    await join(br, svc, a, true);
    ada = a;
    problems = watch(ada.page!, svc.baseUrl).problems;
    orderId = (await placeOrder(svc, org.key, '50000000')).id; // 0.5 BTC for 29,850.00 USD
  });
  after(async () => {
    await ada?.ctx?.close();
    await svc?.close();
  });

  test('Approvals in Spanish: headings, buttons and the row by role and name, amounts as Intl(es) writes them; approving says so in Spanish', async () => {
    const page = ada.page!;
    await go(page, 'Approvals');
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Aprobaciones' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    for (const name of ['Lo que espera', 'Esperando aprobación (1)', 'Solicitudes decididas', 'Reglas de cuatro ojos']) {
      await page.getByRole('heading', { level: 2, name }).waitFor();
    }
    await page.getByRole('button', { name: 'Seleccionar todo lo que puedo aprobar' }).waitFor();
    await page.getByRole('columnheader', { name: 'Organización' }).first().waitFor();
    const r = row(page, orderId);
    await r.getByText('Entrega 0,50000000 BTC').waitFor();
    await r.getByText('Recibe 29.850,00 USD').waitFor();
    await r.getByText('Esperando aprobación — monto retenido').waitFor();
    await accessibleAtBothWidths(page);
    await r.getByRole('button', { name: `Aprobar orden ${orderId}` }).click();
    const dialog = page.getByRole('dialog', { name: `¿Aprobar la orden ${orderId}?` });
    await dialog.getByText('Se ejecuta ahora en el mercado simulado').waitFor();
    assert.match(await dialog.locator('dd').nth(3).innerText(), DAY, 'the requested date is dd/mm/yyyy');
    await accessibleAtBothWidths(page);
    await dialog.getByRole('button', { name: 'Confirmar la aprobación de la orden' }).click();
    await page.getByText(`Orden ${orderId} aprobada: completada.`).waitFor();
    await page.getByText('Nada espera aprobación.').waitFor();
  });

  test('an organization\'s page in Spanish: its panels, status and date the Spanish way', async () => {
    const page = ada.page!;
    await ir(page, 'Organizaciones');
    await page.getByRole('link', { name: 'Acme Tesorería' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Tesorería' }).waitFor();
    for (const name of ['Estado', 'Destinos', 'Ajustar un saldo']) await page.getByRole('heading', { level: 2, name }).waitFor();
    await page.getByText('Puede operar.').waitFor();
    await page.getByRole('button', { name: 'Cambiar estado' }).waitFor();
    await page.getByRole('button', { name: 'Ajustar saldo' }).waitFor();
    await page.getByRole('combobox', { name: 'Sentido' }).waitFor();
    assert.match(await page.locator('p.intro').first().innerText(), new RegExp(`creada el ${DAY.source}`));
    await accessibleAtBothWidths(page);
  });

  test('Audit in Spanish: the search form and the approval just made, dated dd/mm/yyyy', async () => {
    const page = ada.page!;
    await ir(page, 'Auditoría');
    await page.getByRole('search', { name: 'Buscar en la auditoría' }).waitFor();
    await page.getByRole('button', { name: 'Buscar', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Limpiar' }).waitFor();
    await page.getByLabel('Id del registro').fill(orderId);
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    const table = page.getByRole('table', { name: 'Entradas de auditoría, la más reciente primero' });
    await table.getByRole('columnheader', { name: 'Cuándo' }).waitFor();
    const approval = table.getByRole('row').filter({ hasText: 'order.approve' });
    await approval.waitFor();
    assert.match(await approval.getByRole('cell').first().innerText(), DAY);
    await page.getByText(/Página 1 de 1/).waitFor();
    await accessibleAtBothWidths(page);
    assert.deepEqual(problems, []);
  });
});
