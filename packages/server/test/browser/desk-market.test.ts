// The desk does the whole job in production without curl: an admin prices a pair and registers a
// client's bank destination in the market; the client then quotes and withdraws to it through the API
// and the desk sees the withdrawal to approve. Also: a balance adjustment with its reason, bulk
// approval, the decided history, the dashboard of what waits, the audit by a person's name with
// amounts in their decimals, and the production-only forms (no venue to read, networks to choose).
// Every page checked with axe at 1280 and 375 px, and nothing wider than a 375 px screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg, type SeededOrg } from '../harness.ts';
import { assertLaidOut, balance, client, go, invite, join, op, row, type Staff } from './desk-world.ts';
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

const skip = browserSkipReason();
const SECRET = 'desk-market-test-secret-0123456789abcdef0123456789';

describe(
  'desk in Chromium (production): pricing, destinations, adjustments, bulk approval, history, audit by name',
  { skip: skip ?? false },
  () => {
    let br: BrowserHandle;
    let svc: Service;
    let org: SeededOrg;
    let ada: Staff;
    let page: Page;
    let problems: string[];
    let withdrawalId = '';

    before(async () => {
      requireBuilt('desk');
      br = await launchBrowser();
      svc = await startService({
        CAMBIO_MODE: 'production',
        CAMBIO_SECRET: SECRET,
        CAMBIO_DESTINATION_COOLDOWN_MS: '0',
        CAMBIO_SEED_DEMO: 'false',
      });
      await op(svc, 'PUT', '/market/assets/BTC', { decimals: 8 });
      await op(svc, 'PUT', '/market/assets/USD', { decimals: 2 });
      await op(svc, 'PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1qproduction0desk0test0address0xyz' });
      org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 5000000n, USD: 100000n } });
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

    test('signed out, the first load asks for sign-in without a 401 in the console; the desk has its favicon; production shows no sandbox banner', async () => {
      const ctx = await br.context();
      const p = await ctx.newPage();
      const errors: string[] = [];
      p.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await p.goto(`${svc.baseUrl}/desk/`);
      await p.getByRole('heading', { name: 'Sign in to the desk' }).waitFor();
      assert.equal(await p.getByText('Sandbox.').count(), 0);
      const icon = await p.locator('link[rel="icon"]').getAttribute('href');
      assert.equal(icon, '/desk/favicon.svg');
      const r = await svc.h.app.inject({ method: 'GET', url: icon! });
      assert.deepEqual([r.statusCode, r.headers['content-type']], [200, 'image/svg+xml']);
      assert.deepEqual(errors, [], 'no console error on the first load');
      await ctx.close();
    });

    test('an admin prices a pair on the Market page; the client then quotes at that price', async () => {
      await go(page, 'Market');
      const pairs = page.getByRole('region', { name: 'Pairs and prices' });
      await pairs.getByText('No pair priced: clients cannot get a quote.').waitFor();
      assert.equal(
        (await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' })).status >=
          400,
        true,
        'no quote before the price',
      );
      await pairs.getByLabel('Base asset').selectOption('BTC');
      await pairs.getByLabel('Quote asset').selectOption('USD');
      await pairs.getByLabel('Mid rate').fill('60000');
      await pairs.getByLabel('Spread (bps)').fill('50');
      await pairs.getByLabel('Fee (bps)').fill('10');
      await pairs.getByLabel('Fixed fee (USD)').fill('0');
      await pairs.getByLabel('Smallest order (BTC)').fill('0.000000001');
      await pairs.getByLabel('Largest order (BTC)').fill('100');
      await pairs.getByRole('button', { name: 'Price pair' }).click();
      await pairs.getByText('At most 8 decimals for this asset.').waitFor();
      await pairs.getByLabel('Smallest order (BTC)').fill('0.0001');
      await pairs.getByRole('button', { name: 'Price pair' }).click();
      const dialog = page.getByRole('dialog', { name: 'Price BTC/USD at 60000?' });
      await dialog.getByText('0.00010000 BTC to 100.00000000 BTC').waitFor();
      await dialog.getByRole('button', { name: 'Price pair' }).click();
      const btcUsd = pairs.getByRole('row', { name: /BTC\/USD/ });
      await btcUsd.getByRole('cell', { name: '60,000', exact: true }).waitFor();
      await btcUsd.getByText('0.00010000 BTC').waitFor();
      const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '1000000' });
      assert.equal(q.status, 201, JSON.stringify(q.body));
      assert.equal(q.body.data.amountQuoteMinor, '59700', '0.01 BTC at 60000 less 50 bps spread and 10 bps fee');
      await screenshot(page, 'desk-market');
      await assertLaidOut(page, 'Market');
      assert.deepEqual(problems, []);
    });

    test("a client's bank destination is registered in the market from its organization's page; the client withdraws to it and the desk approves it", async () => {
      const d = await client(svc, org.key, 'POST', '/withdrawals/destinations/bank', {
        label: 'Main account',
        assetSymbol: 'USD',
        bankName: 'Banco Río',
        accountKind: 'checking',
        accountNumber: '77778888',
        holderName: 'Acme SA',
        holderDocument: '30-1',
      });
      assert.equal(d.status, 201, JSON.stringify(d.body));
      const before = await client(svc, org.key, 'POST', '/withdrawals', {
        destinationId: d.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '25000',
      });
      assert.ok(before.status >= 400, 'not usable before it is registered in the market');

      await go(page, 'Organizations');
      await page.getByLabel('Search').fill('Acme');
      await page.getByRole('link', { name: 'Acme Treasury' }).click();
      await page.getByRole('heading', { level: 1, name: 'Acme Treasury' }).waitFor();
      const dests = page.getByRole('region', { name: 'Destinations' });
      const main = dests.getByRole('row', { name: /Main account/ });
      await main.getByText('Not registered').waitFor();
      await main.getByRole('button', { name: 'Register in market Main account' }).click();
      await page
        .getByRole('dialog', { name: 'Register Main account in the market?' })
        .getByRole('button', { name: 'Register in market' })
        .click();
      await dests.getByText('Main account is registered in the market and usable now.').waitFor();
      await main.getByText('Usable', { exact: true }).waitFor();
      await screenshot(page, 'desk-organization-money');
      await assertLaidOut(page, 'Organization');

      const w = await client(svc, org.key, 'POST', '/withdrawals', {
        destinationId: d.body.data.id,
        assetSymbol: 'USD',
        assetDecimals: 2,
        amountMinor: '25000',
      });
      assert.equal(w.status, 201, JSON.stringify(w.body));
      withdrawalId = w.body.data.id;

      await go(page, 'Approvals');
      const waits = page.getByRole('region', { name: 'What waits' });
      await waits.getByRole('link', { name: '1 Withdrawals waiting for approval' }).waitFor();
      await row(page, withdrawalId).getByText('250.00 USD').waitFor();
      await row(page, withdrawalId)
        .getByRole('button', { name: /^Approve/ })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm approval of the withdrawal' }).click();
      await page.getByText(`Withdrawal ${withdrawalId} approved: waiting for execution.`).waitFor();
      await waits.getByRole('link', { name: '1 Approved withdrawals waiting for their payout' }).waitFor();
      assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 100000n - 25000n, held: 25000n });
      assert.deepEqual(problems, []);
    });

    test('an adjustment with its reason: a debit below zero is refused and changes nothing; a credit lands exactly', async () => {
      await go(page, 'Organizations');
      await page.getByLabel('Search').fill('Acme');
      await page.getByRole('link', { name: 'Acme Treasury' }).click();
      const adj = page.getByRole('region', { name: 'Adjust a balance' });
      await adj.getByLabel('Adjustment asset').selectOption('USD');
      await adj.getByLabel('Direction').selectOption('debit');
      await adj.getByLabel('Adjustment amount').fill('5000');
      await adj.getByRole('button', { name: 'Adjust balance' }).click();
      await adj.getByText('Say why: it is kept with the entry.').waitFor();
      await adj.getByLabel('Reason').fill('bank fee charged twice');
      await adj.getByRole('button', { name: 'Adjust balance' }).click();
      const debit = page.getByRole('dialog', { name: 'Debit Acme Treasury?' });
      await debit.getByText('5,000.00 USD').waitFor();
      await debit.getByRole('button', { name: 'Confirm adjustment' }).click();
      await debit.getByRole('alert').waitFor();
      await debit.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 75000n, held: 25000n });

      await adj.getByLabel('Direction').selectOption('credit');
      await adj.getByLabel('Adjustment amount').fill('12.34');
      await adj.getByRole('button', { name: 'Adjust balance' }).click();
      await page.getByRole('dialog', { name: 'Credit Acme Treasury?' }).getByRole('button', { name: 'Confirm adjustment' }).click();
      await adj.getByText('Adjusted: available USD is now 762.34 USD.').waitFor();
      assert.deepEqual(await balance(svc, org.key, 'USD'), { available: 76234n, held: 25000n });
      assert.deepEqual(problems, []);
    });

    test('bulk approval: two orders approved in one confirmed act, one request each with its own key; the decided history lists them', async () => {
      const keys: string[] = [];
      const listen = (r: { method(): string; url(): string; headers(): Record<string, string> }) => {
        if (r.method() === 'POST' && /\/operator\/v1\/orders\/[^/]+\/approve$/.test(new URL(r.url()).pathname))
          keys.push(r.headers()['idempotency-key'] ?? '');
      };
      page.on('request', listen);
      const ids: string[] = [];
      for (const amount of ['1000000', '2000000']) {
        const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: amount });
        const o = await client(svc, org.key, 'POST', '/orders', { quoteId: q.body.data.id });
        assert.equal(o.status, 201, JSON.stringify(o.body));
        ids.push(o.body.data.id);
      }
      await go(page, 'Approvals');
      await page.getByRole('region', { name: 'What waits' }).getByRole('link', { name: '2 Orders waiting for approval' }).waitFor();
      for (const id of ids) await page.getByRole('checkbox', { name: `Select order ${id}` }).check();
      await page.getByRole('button', { name: 'Approve selected (2)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve 2 requests?' });
      await dialog.getByText('0.01000000 BTC').waitFor();
      await screenshot(page, 'desk-bulk-approve');
      await dialog.getByRole('button', { name: 'Approve all selected' }).click();
      await page.getByText('2 approved.').waitFor();
      page.off('request', listen);
      assert.equal(keys.length, 2);
      assert.equal(new Set(keys).size, 2, 'one key per decision');
      for (const k of keys) assert.match(k, /^desk-[0-9a-f]{32}$/);
      for (const id of ids) assert.equal((await client(svc, org.key, 'GET', `/orders/${id}`)).body.data.state, 'approved');

      const history = page.getByRole('region', { name: 'Decided requests' });
      await history.getByLabel('Decision').selectOption('approved');
      for (const id of ids)
        await history
          .getByRole('row', { name: new RegExp(id) })
          .getByText('Ada Admin')
          .waitFor();
      await history.getByLabel('Request kind').selectOption('withdrawal');
      await history
        .getByRole('row', { name: new RegExp(withdrawalId) })
        .getByText('250.00 USD')
        .waitFor();
      await screenshot(page, 'desk-approvals-history');
      await assertLaidOut(page, 'Approvals');
      assert.deepEqual(problems, []);
    });

    test("audit: found by the person's name or email, shown by name, the change in the asset's decimals", async () => {
      await go(page, 'Audit');
      await page.getByLabel('Person', { exact: true }).fill('ada.admin@operator');
      await page.getByLabel('Record id').fill(withdrawalId);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const entry = page.getByRole('row', { name: /withdrawal\.approve/ });
      await entry.getByRole('strong').filter({ hasText: 'Ada Admin' }).waitFor();
      await entry.getByText('ada.admin@operator.test').waitFor();
      assert.equal(await page.getByRole('cell', { name: /^staff:stf_/ }).count(), 0, 'no raw actor instead of a name');
      await entry.getByText('Before and after', { exact: true }).click();
      const amount = entry.getByRole('row', { name: /^amountMinor/ });
      assert.match(await amount.innerText(), /250\.00 USD\s+250\.00 USD/);
      await entry
        .getByRole('row', { name: /^state/ })
        .getByText('approved', { exact: true })
        .waitFor();
      const byName = (await op(svc, 'GET', '/audit?person=Ada%20Admin&limit=100')) as Array<{
        actor: string;
        actorName: string;
        actorEmail: string;
      }>;
      assert.ok(
        byName.length > 0 && byName.every((a) => a.actorName === 'Ada Admin' && a.actorEmail === 'ada.admin@operator.test'),
        JSON.stringify(byName.slice(0, 2)),
      );
      assert.deepEqual(await op(svc, 'GET', '/audit?person=nobody-at-all'), []);
      await screenshot(page, 'desk-audit-names');
      await assertLaidOut(page, 'Audit');
      assert.deepEqual(problems, []);
    });

    test("production without a venue: reconciliation asks for the market's figures; an arrival's network is chosen from the asset's wallets", async () => {
      await go(page, 'Reconciliation');
      await page.getByText('No venue is connected: enter the balances the market reports.').waitFor();
      assert.equal(await page.getByLabel(/Read them from the venue/).count(), 0);
      await page.getByLabel('Market balance BTC').waitFor();
      await assertLaidOut(page, 'Reconciliation');
      await go(page, 'Deposits');
      const record = page.getByRole('region', { name: 'Record an arrival' });
      await record.getByLabel('Asset', { exact: true }).selectOption('BTC');
      const network = record.getByLabel('Network', { exact: true });
      assert.equal(await network.evaluate((e) => e.tagName), 'SELECT');
      assert.deepEqual(await network.locator('option').allInnerTexts(), ['bitcoin']);
      await record.getByLabel('Asset', { exact: true }).selectOption('USD');
      await record.getByText('No deposit wallet for USD: set one on the Market page before recording its arrivals.').waitFor();
      await assertLaidOut(page, 'Deposits');
      assert.deepEqual(problems, []);
    });
  },
);
