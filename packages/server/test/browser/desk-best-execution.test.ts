// The desk in Chromium with two venues connected (two Binance doubles with different books): the order
// page shows what each venue offered when the order was quoted and which one it took, and the Venue page
// lists each venue and which one executed each order (docs/market.md, "Several venues").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { listAssets, SECRET, seedOrg, type SeededOrg } from '../harness.ts';
import { DOUBLE_KEY, DOUBLE_SECRET, startBinanceDouble, type BinanceDouble } from '../venue-double/binance-double.ts';
import { BOOK, SELL_PAIR } from '../venue-double/venue-harness.ts';
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

// beta pays more for BTC: selling 1 BTC there gives floor(65075 × 0.995 × 100) = 6474962 (64,749.62 USDT).
const BETTER = {
  bids: [
    ['65100.00', '0.5'],
    ['65050.00', '1.0'],
  ] as Array<[string, string]>,
  asks: [['65110.00', '1.0']] as Array<[string, string]>,
};

describe('desk in Chromium: best execution across two venues', { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let alpha: BinanceDouble;
  let beta: BinanceDouble;
  let org: SeededOrg;
  let vera: Staff;
  let page: Page;
  let problems: string[];
  let orderId: string;

  before(async () => {
    requireBuilt('desk');
    [alpha, beta] = await Promise.all([startBinanceDouble(), startBinanceDouble()]);
    alpha.setBook('BTCUSDT', BOOK);
    beta.setBook('BTCUSDT', BETTER);
    beta.setBalance('BTC', '100');
    br = await launchBrowser();
    svc = await startService({
      CAMBIO_MODE: 'production',
      CAMBIO_SECRET: SECRET,
      CAMBIO_VENUES: 'alpha=ccxt:binance,beta=ccxt:binance',
      CAMBIO_VENUE_ALPHA_URL: alpha.origin,
      CAMBIO_VENUE_ALPHA_API_KEY: DOUBLE_KEY,
      CAMBIO_VENUE_ALPHA_SECRET: DOUBLE_SECRET,
      CAMBIO_VENUE_BETA_URL: beta.origin,
      CAMBIO_VENUE_BETA_API_KEY: DOUBLE_KEY,
      CAMBIO_VENUE_BETA_SECRET: DOUBLE_SECRET,
    });
    await listAssets(svc.h, { BTC: 8, USDT: 2 });
    await op(svc, 'PUT', '/market/pairs/BTC/USDT', SELL_PAIR);
    org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 500_000_000n } });
    const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
    assert.equal(q.status, 201, JSON.stringify(q.body));
    const o = await client(svc, org.key, 'POST', '/orders', { quoteId: q.body.data.id });
    assert.equal(o.status, 201, JSON.stringify(o.body));
    orderId = o.body.data.id;
    await op(svc, 'POST', `/orders/${orderId}/approve`, {});
    const v = await invite(svc, 'Vera Approver', 'approver');
    page = await join(br, svc, v);
    problems = watch(page, svc.baseUrl).problems;
    vera = v;
  });
  after(async () => {
    await vera?.ctx?.close();
    await br?.close();
    await svc?.close();
    await alpha?.close();
    await beta?.close();
  });

  test('the Venue page lists both venues; the order executed at beta links to its offers: beta chosen, alpha not the best', async () => {
    await go(page, 'Venue');
    const venues = page.getByRole('table', { name: 'Each connected venue, in the order they are listed' });
    await venues.getByRole('row', { name: /alpha/ }).waitFor();
    await venues.getByRole('row', { name: /beta/ }).waitFor();
    const executions = page.getByRole('table', { name: 'Orders sent to the venue, newest first' });
    const sent = executions.getByRole('row', { name: new RegExp(orderId) });
    await sent.getByRole('cell', { name: 'beta', exact: true }).waitFor();
    await sent.getByRole('link', { name: orderId }).click();
    await page.getByRole('heading', { level: 1, name: `Exchange request ${orderId}` }).waitFor();
    const offers = page.getByRole('table', { name: 'What each venue offered at quote time' });
    const a = offers.getByRole('row', { name: /^alpha/ });
    const b = offers.getByRole('row', { name: /^beta/ });
    await b.getByText('Chosen', { exact: true }).waitFor();
    await a.getByText('Not the best', { exact: true }).waitFor();
    assert.match(await b.innerText(), /64,749\.62/);
    assert.match(await a.innerText(), /64,670\.02/);
    assert.equal(alpha.orders.filter((x) => x.clientOrderId === orderId).length, 0);
    assert.equal(beta.orders.filter((x) => x.clientOrderId === orderId).length, 1);
    const v = await axeSerious(page);
    assert.deepEqual(v, [], describeViolations(v));
    await page.setViewportSize({ width: 375, height: 800 });
    await b.getByText('Chosen', { exact: true }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(problems, []);
  });
});
