// The desk in Spanish: a person who chooses Español reads the feature pages in it, by the same roles as in
// English, with figures and dates the Spanish way, and the pages stay accessible on a desktop and a phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg, type SeededOrg } from '../harness.ts';
import { freshCode, go, invite, join, market, placeOrder, row, type Staff } from './desk-world.ts';
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
const DAY = /\b\d{2}\/\d{2}\/\d{4}\b/;

/** Follows a link of the desk's navigation, named "Mesa" in Spanish, to the page of that heading. */
async function ir(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Mesa' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** None of these English words is left in the page's main content (visually hidden text included). */
async function noEnglish(page: Page, words: string[]): Promise<void> {
  const text = await page.locator('main').innerText();
  for (const w of words) assert.ok(!text.includes(w), `"${w}" is still in English on the page:\n${text}`);
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
before(async () => {
  if (!skip) br = await launchBrowser();
});
after(async () => {
  await br?.close();
});

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

  test("an organization's page in Spanish: its panels, status and date the Spanish way", async () => {
    const page = ada.page!;
    await ir(page, 'Organizaciones');
    await page.getByRole('link', { name: 'Acme Tesorería' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Tesorería' }).waitFor();
    for (const name of ['Estado', 'Destinos', 'Ajustar un saldo'])
      await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
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

  test('Market in Spanish: the assets, the priced pair with its figures the Spanish way, the price form and its errors, the wallets', async () => {
    const page = ada.page!;
    await ir(page, 'Mercado');
    await page.getByText('El mercado simulado del sandbox: los precios se fijan aquí.').waitFor();
    for (const name of ['Activos', 'Pares y precios', 'Billeteras de depósito'])
      await page.getByRole('heading', { level: 2, name }).waitFor();
    await page.getByRole('heading', { level: 3, name: 'Poner precio a un par' }).waitFor();
    const assets = page.getByRole('table', { name: 'Activos, su tipo y sus decimales' });
    await assets.getByRole('columnheader', { name: 'Decimales' }).waitFor();
    await assets.getByRole('columnheader', { name: 'Tipo' }).waitFor();
    await assets.getByRole('row', { name: 'BTC Sin fijar (cualquier destino) 8' }).waitFor();
    const pairs = page.getByRole('region', { name: 'Pares y precios' });
    const table = pairs.getByRole('table', { name: 'Pares con precio' });
    for (const name of [
      'Par',
      'Tasa media',
      'Tasa ofrecida',
      'Diferencial',
      'Comisión',
      'Comisión fija',
      'Rango de una orden (base)',
      'Actualizado',
    ]) {
      await table.getByRole('columnheader', { name, exact: true }).waitFor();
    }
    const btcUsd = table.getByRole('row', { name: /BTC\/USD/ });
    await btcUsd.getByRole('cell', { name: '59.700,00 USD', exact: true }).waitFor(); // 60000 less 50 bps
    await btcUsd.getByRole('cell', { name: '50 pb', exact: true }).waitFor();
    await btcUsd.getByRole('cell', { name: '10 pb', exact: true }).waitFor();
    await btcUsd.getByText('0,00010000 BTC').waitFor();
    await btcUsd.getByText('100,00000000 BTC').waitFor();
    assert.match(await btcUsd.getByRole('cell').nth(6).innerText(), DAY);
    for (const label of [
      'Activo base',
      'Activo cotizado',
      'Tasa media',
      'Diferencial (pb)',
      'Comisión (pb)',
      'Comisión fija (USD)',
      'Orden mínima (BTC)',
      'Orden máxima (BTC)',
    ]) {
      await pairs.getByLabel(label, { exact: true }).waitFor();
    }
    assert.equal(await pairs.getByLabel('Activo base').locator('option:checked').innerText(), 'BTC (8 decimales)');
    await pairs.getByLabel('Orden mínima (BTC)').fill('0.000000001');
    await pairs.getByRole('button', { name: 'Fijar precio' }).click();
    await pairs.getByText('A lo sumo 8 decimales para este activo.').waitFor();
    await pairs.getByText('Escriba la tasa en dígitos con a lo sumo una coma decimal, p. ej. 60.000,50.').waitFor();
    await accessibleAtBothWidths(page);

    await btcUsd.getByRole('button', { name: 'Cambiar precio de BTC/USD' }).click();
    assert.equal(await pairs.getByLabel('Tasa media').inputValue(), '60000');
    await pairs.getByRole('button', { name: 'Fijar precio' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Fijar el precio de BTC/USD en 60000?' });
    await dialog.getByText('60000 USD por BTC').waitFor();
    await dialog.getByText('50 pb · 10 pb · fija 0,00 USD').waitFor();
    await dialog.getByText('0,00010000 BTC a 100,00000000 BTC').waitFor();
    await dialog
      .getByText('Los clientes cotizan al nuevo precio desde su próxima cotización; las cotizaciones ya dadas conservan el suyo.')
      .waitFor();
    await accessibleAtBothWidths(page);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await pairs.getByRole('button', { name: 'Limpiar' }).click();

    const wallets = page.getByRole('region', { name: 'Billeteras de depósito' });
    await wallets
      .getByRole('table', { name: 'Billeteras de depósito' })
      .getByRole('row', { name: /BTC bitcoin/ })
      .waitFor();
    for (const label of ['Activo de la billetera', 'Red de la billetera', 'Dirección de la billetera'])
      await wallets.getByLabel(label).waitFor();
    await wallets.getByRole('button', { name: 'Fijar billetera' }).waitFor();
    await page.getByRole('region', { name: 'Activos' }).getByRole('button', { name: 'Listar activo' }).waitFor();
    await noEnglish(page, [
      'Market',
      'Assets',
      'Pairs and prices',
      'Priced pairs',
      'Mid rate',
      'Offered rate',
      'Spread',
      'Fixed fee',
      'Order range',
      'Updated',
      'Change price',
      'Stop pricing',
      'Price a pair',
      'Base asset',
      'Quote asset',
      'Smallest order',
      'Largest order',
      'Price pair',
      'bps',
      'decimals',
      'Deposit wallets',
      'Wallet',
      'Network',
      'Address',
      'Set wallet',
      'List asset',
      'At most',
      'Write the',
    ]);
    await accessibleAtBothWidths(page);
    await screenshot(page, 'desk-market-es');
  });

  test('Your security in Spanish: the role, password and personal tokens; a token issued and revoked, dated dd/mm/yyyy', async () => {
    const page = ada.page!;
    await page.getByRole('link', { name: 'Ada Admin (administrador)' }).click();
    await page.getByRole('heading', { level: 1, name: 'Su seguridad' }).waitFor();
    await page.getByText('Ada Admin · ada.admin@operator.test · administrador').waitFor();
    await page.getByText('El inicio de sesión en dos pasos está activado.').waitFor();
    for (const name of ['Contraseña', 'Tokens personales']) await page.getByRole('heading', { level: 2, name }).waitFor();
    for (const label of ['Contraseña actual', 'Contraseña nueva']) await page.getByLabel(label, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cambiar contraseña' }).waitFor();
    await page.getByText('No hay tokens.').waitFor();
    await page.getByLabel('Nombre del token').fill('script nocturno');
    await page.getByRole('button', { name: 'Emitir token' }).click();
    assert.match(await page.getByLabel('Token', { exact: true }).inputValue(), /^ops_/);
    await page.getByText('Se muestra una sola vez. Guárdelo ahora; la mesa no puede mostrarlo de nuevo.').waitFor();
    await page.getByRole('button', { name: 'Copiar' }).waitFor();
    const tokens = page.getByRole('table', { name: 'Sus tokens' });
    for (const name of ['Nombre', 'Creado', 'Último uso', 'Estado'])
      await tokens.getByRole('columnheader', { name, exact: true }).waitFor();
    const token = tokens.getByRole('row', { name: /script nocturno/ });
    await token.getByRole('cell', { name: 'nunca', exact: true }).waitFor();
    await token.getByRole('cell', { name: 'Activo', exact: true }).waitFor();
    assert.match(await token.getByRole('cell').nth(0).innerText(), DAY);
    await accessibleAtBothWidths(page);
    await token.getByRole('button', { name: 'Revocar script nocturno' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Revocar el token script nocturno?' });
    await dialog.getByText('Los scripts que lo usan se detienen en su próxima solicitud.').waitFor();
    await dialog.getByRole('button', { name: 'Revocar token' }).click();
    await token.getByText(/^Revocado el /).waitFor();
    assert.match(await token.getByRole('cell').nth(2).innerText(), new RegExp(`^Revocado el ${DAY.source}`));
    assert.equal(await token.getByRole('button').count(), 0, 'a revoked token has nothing left to revoke');
    await noEnglish(page, [
      'Your security',
      'Password',
      'Personal tokens',
      'Token name',
      'Issue token',
      'Two-step',
      'Last used',
      'never',
      'Active',
      'Revoke',
      'Shown once',
    ]);
    await accessibleAtBothWidths(page);
    await screenshot(page, 'desk-security-es');
    assert.deepEqual(problems, []);
  });

  test('a new colleague whose browser speaks Spanish accepts the invitation and sets up two-step sign-in in Spanish', async () => {
    const beto = await invite(svc, 'Beto Aprobador', 'approver');
    const ctx = await br.context({ locale: 'es-ES' });
    try {
      const page = await ctx.newPage();
      const seen = watch(page, svc.baseUrl).problems;
      const u = new URL(beto.invitationUrl);
      await page.goto(`${svc.baseUrl}${u.pathname}${u.hash}`);
      await page.getByRole('heading', { level: 1, name: 'Acepte su invitación' }).waitFor();
      await page.getByText('Elija la contraseña con la que iniciará sesión.', { exact: false }).waitFor();
      await page.getByLabel('Contraseña nueva').fill(beto.password);
      await page.getByLabel('Repita la contraseña').fill(`${beto.password}?`);
      await page.getByRole('button', { name: 'Aceptar invitación' }).click();
      await page.getByText('Las dos contraseñas no coinciden.').waitFor();
      await accessibleAtBothWidths(page);
      await page.getByLabel('Repita la contraseña').fill(beto.password);
      await page.getByRole('button', { name: 'Aceptar invitación' }).click();
      await page.getByRole('heading', { level: 1, name: 'Su seguridad' }).waitFor();
      await page.getByText('Beto Aprobador · beto.aprobador@operator.test · aprobador').waitFor();
      await page.getByRole('heading', { level: 2, name: 'Inicio de sesión en dos pasos' }).waitFor();
      await page.getByText('El personal debe configurar una aplicación de autenticación antes de su primera decisión.').waitFor();
      await page.getByRole('button', { name: 'Configurar el inicio de sesión en dos pasos' }).click();
      await page.getByRole('img', { name: 'Imagen para escanear con su aplicación de autenticación' }).waitFor();
      beto.secret = await page.getByLabel('Clave de configuración', { exact: true }).inputValue();
      await accessibleAtBothWidths(page);
      await page.getByLabel('Código', { exact: true }).fill(freshCode(beto));
      await page.getByRole('button', { name: 'Confirmar' }).click();
      await page.getByRole('heading', { level: 2, name: 'El inicio de sesión en dos pasos está activado' }).waitFor();
      await page.getByText('Estos códigos de recuperación se muestran una sola vez.', { exact: false }).waitFor();
      await noEnglish(page, ['Two-step', 'recovery codes', 'Setup key', 'Your security', 'approver']);
      await accessibleAtBothWidths(page);
      assert.deepEqual(seen, []);
    } finally {
      await ctx.close();
    }
  });

  test("Staff in Spanish: each person's role in Spanish words, and the roles to choose described in Spanish", async () => {
    const page = ada.page!;
    await ir(page, 'Personal');
    await page
      .getByRole('row', { name: /Beto Aprobador/ })
      .getByRole('cell', { name: 'aprobador', exact: true })
      .waitFor();
    await page
      .getByRole('row', { name: /Ada Admin/ })
      .getByRole('cell', { name: 'administrador', exact: true })
      .waitFor();
    const invite = page.getByRole('region', { name: 'Invitar a una persona' });
    assert.deepEqual(await invite.getByLabel('Rol').locator('option').allInnerTexts(), [
      'Lector — lee todo, no decide nada',
      'Auditor — lee todo, el registro de auditoría y las políticas; no cambia nada',
      'Aprobador — decide solicitudes, llegadas y conciliación',
      'Administrador — todo, incluidas organizaciones, mercado y personal',
    ]);
    await noEnglish(page, ['viewer', 'approver', 'Admin —', 'reads everything', 'decides requests']);
    await accessibleAtBothWidths(page);
  });
  // Last: a difference found here stops client operations for the rest of the service's life.
  test('Reconciliation in Spanish: the figures entered by a person, the last run said in Spanish, with its author and audit link', async () => {
    const page = ada.page!;
    await ir(page, 'Conciliación');
    await page.getByLabel('Ingresar los saldos que informa el mercado').check();
    await page.getByLabel('Saldo del mercado BTC').fill('999');
    await page.getByRole('button', { name: 'Ejecutar conciliación' }).click();
    await page.getByRole('dialog').getByText('999,00000000 BTC').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Ejecutar conciliación' }).click();
    await page.getByRole('heading', { name: 'Última ejecución: se encontraron diferencias' }).waitFor();
    const line = page.locator('section[aria-labelledby="last-title"] p.small');
    assert.match(await line.innerText(), /por Ada Admin.*cifras del mercado ingresadas por una persona · auditoría/);
    await line.getByRole('link', { name: 'auditoría' }).waitFor();
    await noEnglish(page, ['market figures', 'entered by a person', ' by ']);
    await accessibleAtBothWidths(page);
  });
});
