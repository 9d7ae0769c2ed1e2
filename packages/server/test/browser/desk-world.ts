/**
 * The world the desk's browser tests act in: a market, a funded organization with an API key (the
 * client side, through /api/v1), and operator staff created with the bootstrap token who accept their
 * invitation and enrol TOTP in the browser, as a new colleague would.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { axeSerious, describeViolations, type BrowserHandle, type Service } from './harness.ts';

export async function op(svc: Service, method: string, url: string, body?: unknown) {
  const r = await svc.h.op(method, url, body);
  assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.raw}`);
  return r.body.data;
}

/** A call of the client API with an organization's key, as a client program makes it. */
export async function client(svc: Service, key: string, method: string, url: string, body?: unknown) {
  const r = await svc.h.call(key, method, url, body);
  return { status: r.status, body: r.body as { code: string | null; data: any } };
}

export async function market(svc: Service): Promise<void> {
  await op(svc, 'PUT', '/market/assets/BTC', { decimals: 8 });
  await op(svc, 'PUT', '/market/assets/USD', { decimals: 2 });
  await op(svc, 'PUT', '/market/pairs/BTC/USD', {
    midRate: '60000',
    spreadBps: 50,
    feeBps: 10,
    fixedFeeQuoteMinor: '0',
    minBaseMinor: '10000',
    maxBaseMinor: '10000000000',
  });
  await op(svc, 'PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1qsandbox0desk0test0address0xyz' });
}

/** An order placed through the API for `base` minor units of BTC; answers its id. */
export async function placeOrder(svc: Service, key: string, amountBaseMinor: string): Promise<{ id: string; quoteMinor: bigint }> {
  const q = await client(svc, key, 'POST', '/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor });
  assert.equal(q.status, 201, JSON.stringify(q.body));
  const o = await client(svc, key, 'POST', '/orders', { quoteId: q.body.data.id });
  assert.equal(o.status, 201, JSON.stringify(o.body));
  return { id: o.body.data.id, quoteMinor: BigInt(o.body.data.quote.amountMinor) };
}

export async function balance(svc: Service, key: string, asset: string): Promise<{ available: bigint; held: bigint }> {
  const r = await client(svc, key, 'GET', '/balances');
  const row = (r.body.data as Array<{ assetSymbol: string; amountMinor: string; heldMinor: string }>).find((b) => b.assetSymbol === asset);
  return { available: BigInt(row?.amountMinor ?? '0'), held: BigInt(row?.heldMinor ?? '0') };
}

// --- staff ---

export interface Staff {
  id: string;
  name: string;
  email: string;
  password: string;
  role: string;
  /** Base32 TOTP secret, read from the page's Setup key at enrolment. */
  secret?: string;
  usedSteps: Set<number>;
  ctx?: BrowserContext;
  page?: Page;
}

export async function invite(
  svc: Service,
  name: string,
  role: 'viewer' | 'approver' | 'admin',
): Promise<Staff & { invitationUrl: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@operator.test`;
  const r = await op(svc, 'POST', '/staff', { name, email, role });
  assert.ok(r.invitation?.url, `the staff answer carries an invitation: ${JSON.stringify(r)}`);
  return {
    id: r.staff.id,
    name,
    email,
    role,
    password: `Desk ${name} long passphrase 42!`,
    usedSteps: new Set(),
    invitationUrl: r.invitation.url,
  };
}

/** RFC 6238 (SHA-1, 6 digits, 30 s) of a base32 secret at a step. */
export function totpAt(secretBase32: string, step: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of secretBase32.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(step));
  const h = createHmac('sha1', key).update(msg).digest();
  const o = h[h.length - 1]! & 0xf;
  const n = ((h[o]! & 0x7f) << 24) | (h[o + 1]! << 16) | (h[o + 2]! << 8) | h[o + 3]!;
  return String(n % 1_000_000).padStart(6, '0');
}

/** A code this person has not used yet: the current step's, else the next one's (the server accepts ±1 step). */
export function freshCode(s: Staff): string {
  const now = Math.trunc(Date.now() / 30_000);
  const step = [now, now + 1].find((x) => !s.usedSteps.has(x))!;
  s.usedSteps.add(step);
  return totpAt(s.secret!, step);
}

/**
 * Opens the invitation link in a context of the person's own, chooses the password and, when `enrol`,
 * sets up two-step sign-in on the page the desk sends them to, reading the Setup key as an app would.
 */
export async function join(br: BrowserHandle, svc: Service, s: Staff & { invitationUrl: string }, enrol = true): Promise<Page> {
  s.ctx = await br.context();
  const page = (s.page = await s.ctx.newPage());
  const u = new URL(s.invitationUrl);
  assert.equal(u.pathname, '/desk/invitation');
  await page.goto(`${svc.baseUrl}${u.pathname}${u.hash}`);
  await page.getByLabel('New password').fill(s.password);
  await page.getByLabel('Repeat the password').fill(s.password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await page.getByRole('heading', { name: 'Your security' }).waitFor();
  if (enrol) {
    await page.getByRole('button', { name: 'Set up two-step sign-in' }).click();
    s.secret = await page.getByLabel('Setup key', { exact: true }).inputValue();
    await page.getByLabel('Code', { exact: true }).fill(freshCode(s));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in is on' }).waitFor();
  }
  return page;
}

export async function go(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Desk' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** The queue row of a request, found by its id. */
export function row(page: Page, id: string) {
  return page.locator(`tr[data-request="${id}"]`);
}

/** axe clean and no horizontal overflow, at 1280 px and at 375 px. */
export async function assertLaidOut(page: Page, what: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    const v = await axeSerious(page);
    assert.deepEqual(v, [], `${what} at ${width} px: ${describeViolations(v)}`);
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scroll > width) {
      // Which elements reach past the screen, to say what to fix.
      const wide = await page.evaluate(
        (w) =>
          [...document.querySelectorAll('body *')]
            .filter((e) => {
              if (e.getBoundingClientRect().right <= w + 1) return false;
              for (let a = e.parentElement; a; a = a.parentElement) if (getComputedStyle(a).overflowX !== 'visible') return false;
              return true;
            })
            .slice(0, 8)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
        width,
      );
      await page.setViewportSize({ width: 1280, height: 800 });
      assert.fail(`${what} at ${width} px is ${scroll} px wide: ${wide.join(', ')}`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
