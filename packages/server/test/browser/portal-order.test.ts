/**
 * An order's own page tells what happened to it and when, from the organization's events: placed, then
 * approved and completed by the operator, or rejected with the operator's reason, or cancelled by the
 * client; in English and in Spanish, with the times in the person's language. Chromium, by role and
 * label, axe clean at 1280 and 375 px. Screenshots: CAMBIO_SCREENSHOTS=docs/screenshots node scripts/test.mjs browser/portal-order
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
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
/** A moment as Intl.DateTimeFormat('en') writes it (11/26/2026, 05:26 PM) and as 'es' does (26/11/2026, 17:26). */
const EN_TIME = String.raw`\d{2}/\d{2}/\d{4}, \d{2}:\d{2} [AP]M`;
const ES_TIME = String.raw`\d{2}/\d{2}/\d{4}, \d{2}:\d{2}`;

/** The timeline's steps as a person reads them, once there are `n` of them. */
async function timeline(page: Page, heading: string, n: number): Promise<string[]> {
  const steps = page.getByRole('region', { name: heading }).getByRole('listitem');
  await steps.nth(n - 1).waitFor();
  return (await steps.allInnerTexts()).map((s) => s.replace(/\s+/g, ' ').trim());
}

describe("portal: an order's timeline from its events, in Chromium", { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  let owner: Person;
  let key: string;
  let ctx: BrowserContext;
  let page: Page;
  let problems: string[];

  /** An order for `amountBaseMinor` of BTC placed by the owner's key, as a program of the client places it. */
  const placeByKey = async (amountBaseMinor: string): Promise<string> => {
    const q = await svc.h.call(key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor });
    assert.equal(q.status, 201, q.raw);
    const o = await svc.h.call(key, 'POST', '/orders', { quoteId: q.body.data.id });
    assert.equal(o.status, 201, o.raw);
    return o.body.data.id;
  };
  const openOrder = async (id: string) => {
    await page.goto(`${svc.baseUrl}/portal/orders/${encodeURIComponent(id)}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };

  before(async () => {
    requireBuilt('portal');
    svc = await startService();
    br = await launchBrowser();
    await market(svc);
    orgId = await organization(svc, 'Timeline Treasury SA');
    owner = await member(svc, orgId, 'Olga Owner', ALL_ROLE);
    key = (await op(svc, 'POST', `/members/${owner.id}/api-keys`, { scopes: ['portal:read', 'portal:trade'] })).key;
    ctx = await br.context();
    page = await ctx.newPage();
    problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, owner);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('placed in the portal, approved by the operator: the order page shows placed, approved and completed, in that order, with their times', async () => {
    await go(page, 'Exchange');
    await page.getByLabel('Amount in BTC').fill('0.01');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await page.getByRole('button', { name: 'Accept quote' }).click();
    await page.getByText('Order placed: waiting for the operator; the amount is held.').waitFor();
    await go(page, 'Orders');
    const details = page.getByRole('link', { name: /^Details of the order of 0\.01000000 BTC from / });
    const id = decodeURIComponent((await details.getAttribute('href'))!.split('/').pop()!);
    assert.match(id, /^ord_/);
    await details.click();
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
    const waiting = await timeline(page, 'Timeline', 1);
    assert.equal(waiting.length, 1, 'waiting for the operator: one step');
    assert.match(waiting[0]!, new RegExp(`^${EN_TIME} — Placed; the amount was held$`));

    await op(svc, 'POST', `/orders/${id}/approve`, {});
    // The page reads the order again by itself while it waits, and its events with it.
    const steps = await timeline(page, 'Timeline', 3);
    assert.equal(steps.length, 3, steps.join('\n'));
    assert.match(steps[0]!, new RegExp(`^${EN_TIME} — Placed; the amount was held$`));
    assert.match(steps[1]!, new RegExp(`^${EN_TIME} — Approved by the operator$`));
    assert.match(steps[2]!, new RegExp(`^${EN_TIME} — Completed; 597\\.00 USD received$`));
    await page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').first().locator('time').waitFor();
    const times = await page
      .getByRole('region', { name: 'Timeline' })
      .locator('time')
      .evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!));
    assert.deepEqual([...times].sort(), times, 'oldest first');
    assert.match(await page.locator('dl.summary').innerText(), /State\s+Completed/);
    await checkBoth(page, problems, 'order page, completed');
    await screenshot(page, 'portal-order-timeline');

    // The same page in Spanish: the steps in Spanish words, the times as Intl('es') writes them.
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Español' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orden' }).waitFor();
    await page
      .getByRole('region', { name: 'Historial' })
      .getByText(/Completada; se recibieron 597,00 USD/)
      .waitFor();
    const pasos = await timeline(page, 'Historial', 3);
    assert.match(pasos[0]!, new RegExp(`^${ES_TIME} — Creada; el monto quedó retenido$`));
    assert.match(pasos[1]!, new RegExp(`^${ES_TIME} — Aprobada por el operador$`));
    assert.match(pasos[2]!, new RegExp(`^${ES_TIME} — Completada; se recibieron 597,00 USD$`));
    await checkBoth(page, problems, 'order page in Spanish');
    await screenshot(page, 'portal-order-timeline-es');
    await page.getByRole('group', { name: 'Idioma' }).getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { level: 1, name: 'Order' }).waitFor();
  });

  test('rejected with a reason, and cancelled by the client: each page tells its own story', async () => {
    const rejected = await placeByKey('2000000'); // 0.02 BTC
    const cancelled = await placeByKey('3000000'); // 0.03 BTC
    await op(svc, 'POST', `/orders/${rejected}/reject`, { reason: "outside today's limits" });
    assert.equal((await svc.h.call(key, 'POST', `/orders/${cancelled}/cancel`)).status, 200);

    await openOrder(rejected);
    const r = await timeline(page, 'Timeline', 2);
    assert.equal(r.length, 2, r.join('\n'));
    assert.match(r[0]!, new RegExp(`^${EN_TIME} — Placed; the amount was held$`));
    assert.match(r[1]!, new RegExp(`^${EN_TIME} — Rejected by the operator; the hold was released \\(reason: outside today's limits\\)$`));
    await checkBoth(page, problems, 'order page, rejected');

    await openOrder(cancelled);
    const c = await timeline(page, 'Timeline', 2);
    assert.equal(c.length, 2, c.join('\n'));
    assert.match(c[0]!, new RegExp(`^${EN_TIME} — Placed; the amount was held$`));
    assert.match(c[1]!, new RegExp(`^${EN_TIME} — Cancelled by your organization; the hold was released$`));
    assert.match(await page.locator('dl.summary').innerText(), /You deliver\s+0\.03000000 BTC/);
    await checkBoth(page, problems, 'order page, cancelled');
  });
});
