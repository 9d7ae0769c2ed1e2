/**
 * The portal's lists of orders, withdrawals and deposits are filtered (by state and days) and downloaded
 * as CSV, like the ledger: the table shows only what was chosen, and the file holds the same records
 * with their amounts as exact decimals and minimum units. In English and in Spanish; Chromium, by role
 * and label, axe clean at 1280 and 375 px.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Locator, Page } from 'playwright-core';
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

/** The body rows of a table once `ok` holds for them (the previous list stays on screen until the filtered one arrives). */
async function rowsWhen(table: Locator, ok: (rows: string[]) => boolean): Promise<string[]> {
  let rows: string[] = [];
  for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    rows = (await table.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    if (ok(rows)) return rows;
  }
  assert.fail(`the table never showed what was expected:\n${rows.join('\n')}`);
}

/** Clicks the CSV button and reads the file it saves: its name and its records (CRLF-separated, header first). */
async function downloadCsv(page: Page, button: string): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const text = readFileSync((await download.path())!, 'utf8');
  assert.ok(text.endsWith('\r\n'), 'RFC 4180: every record ends with CRLF');
  return { name: download.suggestedFilename(), lines: text.slice(0, -2).split('\r\n') };
}

describe('portal: lists filtered and downloaded as CSV, in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  let owner: Person;
  let key: string;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];

  const call = async (method: string, url: string, body?: unknown) => {
    const r = await svc.h.call(key, method, url, body);
    assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.raw}`);
    return r.body.data;
  };
  const placeOrder = async (amountBaseMinor: string): Promise<string> => {
    const q = await call('POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor });
    return (await call('POST', '/orders', { quoteId: q.id })).id;
  };

  before(async () => {
    requireBuilt('portal');
    svc = await startService({ CAMBIO_DESTINATION_COOLDOWN_MS: '0' });
    br = await launchBrowser();
    await market(svc);
    orgId = await organization(svc, 'Lists Treasury SA');
    owner = await member(svc, orgId, 'Lena Lists', ALL_ROLE);
    key = (
      await op(svc, 'POST', `/members/${owner.id}/api-keys`, {
        scopes: ['portal:read', 'portal:trade', 'portal:deposit', 'portal:destinations', 'portal:withdraw'],
      })
    ).key;

    // Orders: 0.01 BTC completed (597.00 USD at 59,700.00), 0.02 BTC rejected, 0.03 BTC still waiting.
    const done = await placeOrder('1000000');
    const rejected = await placeOrder('2000000');
    await placeOrder('3000000');
    await op(svc, 'POST', `/orders/${done}/approve`, {});
    await op(svc, 'POST', `/orders/${rejected}/reject`, { reason: 'limits' });

    // Withdrawals to a usable USD account: 1,234.56 USD completed, 25.00 USD cancelled by the client.
    const dest = await call('POST', '/withdrawals/destinations/bank', {
      label: 'Main',
      assetSymbol: 'USD',
      bankName: 'Banco Río',
      accountKind: 'checking',
      accountNumber: '77778888',
      holderName: 'Lists Treasury SA',
      holderDocument: '30-1',
    });
    await op(svc, 'POST', `/destinations/${dest.id}/register-in-market`);
    const big = await call('POST', '/withdrawals', { destinationId: dest.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '123456' });
    const small = await call('POST', '/withdrawals', { destinationId: dest.id, assetSymbol: 'USD', assetDecimals: 2, amountMinor: '2500' });
    await op(svc, 'POST', `/withdrawals/${big.id}/approve`, {});
    await call('POST', `/withdrawals/${small.id}/cancel`);

    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, owner);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('orders: filtered to Completed, the table and the CSV hold only the completed order, its amounts exact', async () => {
    await go(page, 'Orders');
    const table = page.getByRole('table', { name: 'Orders' });
    await rowsWhen(table, (rows) => rows.length === 3);
    const filters = page.getByRole('form', { name: 'Filter the orders' });
    assert.deepEqual(await filters.getByLabel('State').locator('option').allInnerTexts(), [
      'All states',
      'Waiting for the operator; the amount is held',
      'Approved',
      'Completed',
      'Rejected; the hold was released',
      'Failed; the hold was released',
      'Cancelled; the hold was released',
    ]);
    await filters.getByLabel('State').selectOption({ label: 'Completed' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const rows = await rowsWhen(table, (r) => r.length === 1);
    assert.match(rows[0]!, /0\.01000000 BTC 597\.00 USD Completed/);
    await checkBoth(page, problems, 'orders filtered');
    await screenshot(page, 'portal-orders-filtered');

    const csv = await downloadCsv(page, 'Download CSV');
    assert.equal(csv.name, 'orders-completed.csv');
    assert.equal(
      csv.lines[0],
      'createdAt,id,state,baseAssetSymbol,baseAssetDecimals,baseAmount,baseAmountMinor,quoteAssetSymbol,quoteAssetDecimals,quoteAmount,quoteAmountMinor,rate,quoteId,reason,updatedAt',
    );
    assert.equal(csv.lines.length, 2, csv.lines.join('\n'));
    assert.match(
      csv.lines[1]!,
      /^\d{4}-\d{2}-\d{2}T[\d:.]+Z,ord_\w+,completed,BTC,8,0\.01000000,1000000,USD,2,597\.00,59700,59700\.00,quo_\w+,,\d{4}-\d{2}-\d{2}T[\d:.]+Z$/,
    );

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await rowsWhen(table, (r) => r.length === 3);
    const all = await downloadCsv(page, 'Download CSV');
    assert.equal(all.name, 'orders.csv');
    assert.deepEqual(
      all.lines.slice(1).map((l) => l.split(',').slice(2, 7).join(',')),
      ['completed,BTC,8,0.01000000,1000000', 'rejected,BTC,8,0.02000000,2000000', 'pending_approval,BTC,8,0.03000000,3000000'],
      'oldest first',
    );
    assert.match(all.lines[2]!, /,rejected,.*,limits,/);
  });

  test('withdrawals: filtered to Cancelled, then by a day with nothing; the CSV has the exact amount', async () => {
    await go(page, 'Withdrawals');
    const table = page.getByRole('table', { name: 'Withdrawal requests' });
    await rowsWhen(table, (rows) => rows.length === 2);
    const filters = page.getByRole('form', { name: 'Filter the withdrawals' });
    await filters.getByLabel('State').selectOption({ label: 'Cancelled; the hold was released' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const rows = await rowsWhen(table, (r) => r.length === 1);
    assert.match(rows[0]!, /25\.00 USD .*Cancelled; the hold was released/);
    const csv = await downloadCsv(page, 'Download CSV');
    assert.equal(csv.name, 'withdrawals-cancelled.csv');
    assert.equal(
      csv.lines[0],
      'createdAt,id,state,assetSymbol,assetDecimals,amount,amountMinor,destinationId,destinationSummary,reason,updatedAt',
    );
    assert.equal(csv.lines.length, 2);
    assert.match(csv.lines[1]!, /,wdr_\w+,cancelled,USD,2,25\.00,2500,dst_\w+,Banco Río · checking ···· 8888,,/);
    await checkBoth(page, problems, 'withdrawals filtered');

    await filters.getByLabel('State').selectOption({ label: 'Completed' });
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    assert.match((await rowsWhen(table, (r) => r.length === 1 && r[0]!.includes('1,234.56 USD')))[0]!, /Completed/);
    assert.match((await downloadCsv(page, 'Download CSV')).lines[1]!, /,completed,USD,2,1234\.56,123456,/);

    // A span of days before today: nothing; the file is its header alone.
    await filters.getByLabel('From (day)').fill('2020-01-01');
    await filters.getByLabel('To (day, included)').fill('2020-01-31');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('region', { name: 'Withdrawal requests' }).getByText('Nothing yet.').waitFor();
    const none = await downloadCsv(page, 'Download CSV');
    assert.equal(none.name, 'withdrawals-completed-2020-01-01-2020-01-31.csv');
    assert.equal(none.lines.length, 1);
  });

  test('deposits: the credited deposit found by its day, in the CSV with the exact amount sent', async () => {
    const declared = await call('POST', '/deposits/declarations', {
      assetSymbol: 'BTC',
      assetDecimals: 8,
      declaredAmountMinor: '50000000',
    });
    await op(svc, 'POST', '/deposits', {
      assetSymbol: 'BTC',
      network: 'bitcoin',
      amountMinor: declared.expectedAmountMinor,
      txid: 'tx-lists-0001',
    });
    await go(page, 'Deposits');
    const table = page.getByRole('table', { name: 'Deposits that arrived' });
    const figure = `${declared.expectedAmount as string} BTC`;
    await rowsWhen(table, (rows) => rows.length === 1 && rows[0]!.includes(figure));
    const filters = page.getByRole('form', { name: 'Filter the deposits' });
    assert.equal(await filters.getByLabel('State').count(), 0, 'what arrives for an organization is credited: no state to choose');
    const d = new Date();
    const today = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    await filters.getByLabel('From (day)').fill(today);
    await filters.getByLabel('To (day, included)').fill(today);
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await rowsWhen(table, (rows) => rows.length === 1 && rows[0]!.includes('tx-lists-0001'));
    await checkBoth(page, problems, 'deposits filtered');
    const csv = await downloadCsv(page, 'Download CSV');
    assert.equal(csv.name, `deposits-${today}-${today}.csv`);
    assert.equal(csv.lines[0], 'createdAt,id,state,assetSymbol,assetDecimals,amount,amountMinor,network,txid,declarationId,updatedAt');
    assert.equal(csv.lines.length, 2);
    assert.match(declared.expectedAmount, /^0\.5000\d{4}$/);
    assert.ok(
      csv.lines[1]!.includes(
        `,credited,BTC,8,${declared.expectedAmount as string},${BigInt(declared.expectedAmountMinor as string).toString()},bitcoin,tx-lists-0001,${declared.id as string},`,
      ),
      csv.lines[1],
    );
  });

  test('Spanish: the filters in Spanish words; the table in Spanish figures; the CSV keeps the exact decimal with a point', async () => {
    await go(page, 'Orders');
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Órdenes' }).waitFor();
    const filters = page.getByRole('form', { name: 'Filtrar las órdenes' });
    for (const label of ['Estado', 'Desde (día)', 'Hasta (día, incluido)']) await filters.getByLabel(label).waitFor();
    await filters.getByLabel('Estado').selectOption({ label: 'Completada' });
    await filters.getByRole('button', { name: 'Aplicar filtros' }).click();
    const rows = await rowsWhen(page.getByRole('table', { name: 'Órdenes' }), (r) => r.length === 1);
    assert.match(rows[0]!, /0,01000000 BTC 597,00 USD Completada/);
    await page.getByText('Toda la lista filtrada, del más antiguo al más reciente, como archivo de planilla.').waitFor();
    await checkBoth(page, problems, 'orders filtered, in Spanish');
    const csv = await downloadCsv(page, 'Descargar CSV');
    assert.match(csv.lines[1]!, /,completed,BTC,8,0\.01000000,1000000,USD,2,597\.00,59700,59700\.00,/);
    await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
  });
});
