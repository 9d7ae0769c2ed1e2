// The desk's venue page in Chromium against the service in production at the loopback Binance double:
// what the person watching the market notices (the venue answering or not, the book behind each pair
// and its age, the orders sent with the venue's figures) and where a partial fill is completed by hand.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { listAssets, seedOrg, type SeededOrg } from '../harness.ts';
import { startBinanceDouble, type BinanceDouble } from '../venue-double/binance-double.ts';
import { BOOK, SELL_PAIR, venueEnv } from '../venue-double/venue-harness.ts';
import { client, go, invite, join, op, type Staff } from './desk-world.ts';
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

async function assertAccessible(page: Page): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], describeViolations(v));
}

async function approvedOrder(svc: Service, org: SeededOrg): Promise<string> {
  const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
  assert.equal(q.status, 201, JSON.stringify(q.body));
  const o = await client(svc, org.key, 'POST', '/orders', { quoteId: q.body.data.id });
  assert.equal(o.status, 201, JSON.stringify(o.body));
  await op(svc, 'POST', `/orders/${o.body.data.id}/approve`, {});
  return o.body.data.id;
}

describe('desk in Chromium: the venue page (production at the Binance double)', { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let double: BinanceDouble;
  let org: SeededOrg;
  let vera: Staff;
  let page: Page;
  let problems: string[];
  let filled: string;
  let partial: string;

  before(async () => {
    requireBuilt('desk');
    double = await startBinanceDouble();
    double.setBook('BTCUSDT', BOOK);
    double.setBalance('BTC', '100');
    br = await launchBrowser();
    svc = await startService(venueEnv(double.origin));
    await listAssets(svc.h, { BTC: 8, USDT: 2 });
    await op(svc, 'PUT', '/market/pairs/BTC/USDT', SELL_PAIR);
    org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 500_000_000n } });
    filled = await approvedOrder(svc, org);
    double.expireNextOrderAfter('0.4');
    partial = await approvedOrder(svc, org);
    const v = await invite(svc, 'Vera Approver', 'approver');
    page = await join(br, svc, v);
    problems = watch(page, svc.baseUrl).problems;
    vera = v;
  });
  after(async () => {
    await vera?.ctx?.close();
    await br?.close();
    await svc?.close();
    await double?.close();
  });

  test("health, the book of each venue pair with its age and best levels, executions with the venue's order ids and figures", async () => {
    await go(page, 'Venue');
    await page.getByText('Answering: its last request succeeded').waitFor();
    const books = page.getByRole('table', { name: 'Venue-priced pairs and their books' });
    const btc = books.getByRole('row', { name: /BTC\/USDT/ });
    await btc.getByRole('cell', { name: '65000 × 0.5' }).waitFor();
    await btc.getByRole('cell', { name: '65010 × 0.5' }).waitFor();
    assert.match(await btc.innerText(), /\d+\.\d s/);

    const executions = page.getByRole('table', { name: 'Orders sent to the venue, newest first' });
    const [first, second] = [
      double.orders.find((o) => o.clientOrderId === filled)!,
      double.orders.find((o) => o.clientOrderId === partial)!,
    ];
    const done = executions.getByRole('row', { name: new RegExp(filled) });
    await done.getByText('Filled', { exact: true }).waitFor();
    await done.getByRole('cell', { name: String(first.orderId), exact: true }).waitFor();
    assert.match(await done.innerText(), /64,930\.00|64930\.00/); // proceeds net of the venue's USDT fee
    const part = executions.getByRole('row', { name: new RegExp(partial) });
    await part.getByText('Filled in part — waits for the desk').waitFor();
    await part.getByRole('cell', { name: String(second.orderId), exact: true }).waitFor();
    await part.getByRole('cell', { name: '0.4', exact: true }).waitFor();
    await part.getByRole('cell', { name: '26000', exact: true }).waitFor();
    await page.getByText('Partial fills waiting for the desk').waitFor();
    await assertAccessible(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await assertAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(problems, []);
  });

  test('a partial fill is completed where approved requests wait: its link leads to Record fill', async () => {
    await page.getByRole('link', { name: `Record fill of ${partial}` }).click();
    await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor();
    await page.getByRole('button', { name: `Record fill ${partial}` }).waitFor();
  });

  test('the venue stops answering: the page says failing, with the last error', async () => {
    double.fail('/api/v3/depth', 503, 1000);
    // A quote past the book's age asks the venue, which fails.
    await new Promise((r) => setTimeout(r, 2_100));
    const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
    assert.equal(q.status, 503);
    await go(page, 'Venue');
    await page.getByText('Failing: its last request failed').waitFor();
    await page.getByText(/book:/).first().waitFor();
    await assertAccessible(page);
    double.clearFaults();
  });
});
