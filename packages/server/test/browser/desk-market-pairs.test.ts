// The desk's Market page does what was API-only, in production at the loopback Binance double: an admin
// lists assets with their kind, prices a pair from the venue's book by choosing one of the venue's markets
// (not typing it) and sees that book's best levels, and prices both directions of a pair from one mid and
// spread, each with its exact offered rate. Checked with axe at 1280 and 375 px.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { listAssets, seedOrg, type SeededOrg } from '../harness.ts';
import { startBinanceDouble, type BinanceDouble } from '../venue-double/binance-double.ts';
import { BOOK, venueEnv } from '../venue-double/venue-harness.ts';
import { assertLaidOut, client, go, invite, join, op, type Staff } from './desk-world.ts';
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

interface PairRow {
  baseSymbol: string;
  quoteSymbol: string;
  midRate: string;
  source?: string;
  venueSymbol?: string;
  rateQuoteMinor: string;
  minBaseMinor: string;
  maxBaseMinor: string;
}

describe(
  'desk in Chromium: the Market page lists assets, prices from the venue and prices both directions',
  { skip: skip ?? false },
  () => {
    let br: BrowserHandle;
    let svc: Service;
    let double: BinanceDouble;
    let org: SeededOrg;
    let ada: Staff;
    let page: Page;
    let problems: string[];

    before(async () => {
      requireBuilt('desk');
      double = await startBinanceDouble();
      double.setBook('BTCUSDT', BOOK);
      double.setBalance('BTC', '100');
      br = await launchBrowser();
      svc = await startService(venueEnv(double.origin));
      await listAssets(svc.h, { BTC: 8 });
      org = await seedOrg(svc.h, { name: 'Acme Treasury', balances: { BTC: 500_000_000n } });
      const a = await invite(svc, 'Ada Admin', 'admin');
      page = await join(br, svc, a);
      problems = watch(page, svc.baseUrl).problems;
      ada = a;
    });
    after(async () => {
      await ada?.ctx?.close();
      await br?.close();
      await svc?.close();
      await double?.close();
    });

    test('staff list USDT as crypto and USD as fiat; the table shows each kind and its decimals', async () => {
      await go(page, 'Market');
      const assets = page.getByRole('region', { name: 'Assets' });
      for (const [symbol, kind, word] of [
        ['USDT', 'crypto', 'Crypto (on a chain)'],
        ['USD', 'fiat', 'Fiat (bank transfers)'],
      ] as const) {
        await assets.getByLabel('Asset symbol').fill(symbol.toLowerCase());
        await assets.getByLabel('Kind').selectOption(kind);
        await assets.getByLabel('Decimals').fill('2');
        await assets.getByRole('button', { name: 'List asset' }).click();
        await page
          .getByRole('dialog', { name: `List ${symbol} (${word}) with 2 decimals?` })
          .getByRole('button', { name: 'List asset' })
          .click();
        const r = assets.getByRole('row', { name: new RegExp(`^${symbol} `) });
        await r.getByRole('cell', { name: word }).waitFor();
        await r.getByRole('cell', { name: '2', exact: true }).waitFor();
      }
      const listed = (await op(svc, 'GET', '/market/assets')) as Array<{ symbol: string; decimals: number; kind?: string }>;
      assert.deepEqual(listed.map((a) => [a.symbol, a.decimals, a.kind ?? null]).sort(), [
        ['BTC', 8, null],
        ['USD', 2, 'fiat'],
        ['USDT', 2, 'crypto'],
      ]);
      assert.deepEqual(problems, []);
    });

    test("a pair priced from the venue: its symbol is chosen from the venue's markets, and the page shows that book's best levels", async () => {
      const pairs = page.getByRole('region', { name: 'Pairs and prices' });
      await pairs.getByLabel('Priced by').selectOption('venue');
      const symbol = pairs.getByLabel('Venue market');
      assert.equal(await symbol.evaluate((e) => e.tagName), 'SELECT', 'chosen, not typed');
      assert.deepEqual(await symbol.locator('option').allInnerTexts(), ['Choose one of the venue’s markets.', 'BTC/USDT']);
      await symbol.selectOption('BTC/USDT');
      assert.equal(await pairs.getByLabel('Base asset').inputValue(), 'BTC');
      assert.equal(await pairs.getByLabel('Quote asset').inputValue(), 'USDT');
      assert.equal(await pairs.getByLabel('Mid rate').count(), 0, 'no mid rate for a venue-priced pair');
      // The market's book is read as soon as it is chosen, before any pair is priced from it.
      const before = pairs.getByRole('table', { name: "The venue's book for BTC/USDT: best levels" }).getByRole('row', { name: /binance/ });
      await before.getByRole('cell', { name: '65,000 × 0.5', exact: true }).waitFor();
      await before.getByRole('cell', { name: '65,010 × 0.5', exact: true }).waitFor();
      await pairs.getByLabel('Spread (bps)').fill('50');
      await pairs.getByLabel('Fee (bps)').fill('10');
      await pairs.getByLabel('Fixed fee (USDT)').fill('1');
      await pairs.getByLabel('Smallest order (BTC)').fill('0.0001');
      await pairs.getByLabel('Largest order (BTC)').fill('5');
      await pairs.getByRole('button', { name: 'Price pair' }).click();
      const dialog = page.getByRole('dialog', { name: "Price BTC/USDT from the venue's BTC/USDT book?" });
      await dialog.getByText('0.00010000 BTC').waitFor();
      await dialog.getByRole('button', { name: 'Price pair' }).click();
      const row = pairs.getByRole('table', { name: 'Priced pairs' }).getByRole('row', { name: /BTC\/USDT/ });
      await row.getByText("Venue's book (BTC/USDT)").waitFor();
      const stored = ((await op(svc, 'GET', '/market/pairs')) as PairRow[]).find((p) => p.baseSymbol === 'BTC' && p.quoteSymbol === 'USDT');
      assert.deepEqual(
        [stored?.source, stored?.venueSymbol, stored?.minBaseMinor, stored?.maxBaseMinor],
        ['venue', 'BTC/USDT', '10000', '500000000'],
      );

      // The service reads the book when a quote needs it; the page then shows its best levels, in the person's digits.
      const q = await client(svc, org.key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USDT', amountBaseMinor: '100000000' });
      assert.equal(q.status, 201, JSON.stringify(q.body));
      const book = pairs.getByRole('table', { name: "The venue's books: best levels" }).getByRole('row', { name: /BTC\/USDT/ });
      await book.getByRole('cell', { name: '65,000 × 0.5', exact: true }).waitFor();
      await book.getByRole('cell', { name: '65,010 × 0.5', exact: true }).waitFor();
      await screenshot(page, 'desk-market-venue');
      await assertLaidOut(page, 'Market with a venue-priced pair');
      assert.deepEqual(problems, []);
    });

    test('one mid and spread price BTC/USD and USD/BTC: the inverse mid is exact to 36 decimals and both offered rates are exact', async () => {
      const pairs = page.getByRole('region', { name: 'Pairs and prices' });
      await pairs.getByLabel('Priced by').selectOption('static');
      await pairs.getByLabel('Base asset').selectOption('BTC');
      await pairs.getByLabel('Quote asset').selectOption('USD');
      await pairs.getByLabel('Mid rate').fill('60,000');
      await pairs.getByLabel('Spread (bps)').fill('50');
      await pairs.getByLabel('Fee (bps)').fill('10');
      await pairs.getByLabel('Fixed fee (USD)').fill('0');
      await pairs.getByLabel('Smallest order (BTC)').fill('0.0001');
      await pairs.getByLabel('Largest order (BTC)').fill('10');
      await pairs.getByLabel('Also price USD/BTC from this mid and spread').check();
      const reverse = pairs.getByRole('group', { name: 'The other direction: USD/BTC' });
      await reverse
        .getByText('Its mid is the inverse: 0.000016666666666666666666666666666666 BTC per USD (36 decimals, rounded down).')
        .waitFor();
      await reverse.getByLabel('Fixed fee (BTC)').fill('0');
      await reverse.getByLabel('Smallest order (USD)').fill('10');
      await reverse.getByLabel('Largest order (USD)').fill('100,000');
      await pairs.getByRole('button', { name: 'Price pair' }).click();
      const dialog = page.getByRole('dialog', { name: 'Price BTC/USD and USD/BTC from 60,000?' });
      await dialog.getByText('59,700.00 USD').waitFor();
      await dialog.getByText('0.00001658 BTC').waitFor();
      await dialog.getByText('100,000.00 USD').waitFor();
      await dialog.getByRole('button', { name: 'Price pair' }).click();

      const table = pairs.getByRole('table', { name: 'Priced pairs' });
      const btcUsd = table.getByRole('row', { name: /^BTC\/USD / });
      await btcUsd.getByRole('cell', { name: '60,000', exact: true }).waitFor();
      await btcUsd.getByText('59,700.00 USD').waitFor();
      const usdBtc = table.getByRole('row', { name: /^USD\/BTC / });
      await usdBtc.getByRole('cell', { name: '0.000016666666666666666666666666666666', exact: true }).waitFor();
      await usdBtc.getByText('0.00001658 BTC').waitFor();
      await usdBtc.getByText('10.00 USD').waitFor();

      const stored = (await op(svc, 'GET', '/market/pairs')) as PairRow[];
      const pick = (b: string, q: string) => stored.find((p) => p.baseSymbol === b && p.quoteSymbol === q)!;
      assert.deepEqual(
        [pick('BTC', 'USD').midRate, pick('BTC', 'USD').rateQuoteMinor, pick('BTC', 'USD').maxBaseMinor],
        ['60000', '5970000', '1000000000'],
      );
      assert.deepEqual(
        [pick('USD', 'BTC').midRate, pick('USD', 'BTC').rateQuoteMinor, pick('USD', 'BTC').minBaseMinor, pick('USD', 'BTC').maxBaseMinor],
        ['0.000016666666666666666666666666666666', '1658', '1000', '10000000'],
      );
      await screenshot(page, 'desk-market-both-directions');
      await assertLaidOut(page, 'Market with both directions');
      assert.deepEqual(problems, []);
    });
  },
);
