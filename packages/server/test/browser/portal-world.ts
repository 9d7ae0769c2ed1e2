/**
 * The world the portal's browser tests act in, made through the operator API (bootstrap token): a
 * market (BTC 8 decimals, USD 2, a BTC/USD price, a BTC wallet), an active organization with balances,
 * and members who accept their invitation in the browser and so have a password.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeSerious, describeViolations, type Service } from './harness.ts';

export const ALL_ROLE = [
  'portal:read',
  'portal:trade',
  'portal:deposit',
  'portal:destinations',
  'portal:withdraw',
  'portal:api_keys',
  'portal:team',
];

export async function op(svc: Service, method: string, url: string, body?: unknown) {
  const r = await svc.h.op(method, url, body);
  assert.ok(r.status < 300, `${method} ${url}: ${r.status} ${r.raw}`);
  return r.body.data;
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
  await op(svc, 'PUT', '/wallets/BTC', { network: 'bitcoin', address: 'bc1qsandbox0portal0test0address0xyz' });
}

export async function organization(svc: Service, name: string): Promise<string> {
  const org = await op(svc, 'POST', '/organizations', { name, status: 'active', limits: {} });
  await op(svc, 'POST', `/organizations/${org.id}/adjustments`, {
    assetSymbol: 'BTC',
    amountMinor: '200000000',
    reason: 'sandbox funding',
  });
  await op(svc, 'POST', `/organizations/${org.id}/adjustments`, { assetSymbol: 'USD', amountMinor: '1000000', reason: 'sandbox funding' });
  return org.id;
}

export interface Person {
  id: string;
  email: string;
  password: string;
  name: string;
  invitationUrl: string;
}

/** A member created by the operator; the answer carries the one-time invitation (docs/design/people-and-apps.md). */
export async function member(svc: Service, orgId: string, name: string, permissions: string[]): Promise<Person> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@example.test`;
  const r = await op(svc, 'POST', `/organizations/${orgId}/members`, { name, email, permissions });
  const m = r.member ?? r;
  const url: string = r.invitation?.url ?? m.invitation?.url;
  assert.ok(url, `the member answer carries an invitation url: ${JSON.stringify(r)}`);
  return { id: m.id, email, password: `Correct horse ${name} battery 42!`, name, invitationUrl: url };
}

/** Opens the invitation link (token in the fragment) in this service and chooses the password. */
export async function acceptInvitation(page: Page, svc: Service, p: Person): Promise<void> {
  const u = new URL(p.invitationUrl);
  await page.goto(`${svc.baseUrl}${u.pathname}${u.hash}`);
  await page.getByLabel('Choose a password').fill(p.password);
  await page.getByLabel('Repeat the password').fill(p.password);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

export async function signIn(page: Page, svc: Service, p: Person): Promise<void> {
  await page.goto(`${svc.baseUrl}/portal/`);
  await page.getByLabel('Email').fill(p.email);
  await page.getByLabel('Password').fill(p.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

export async function go(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/**
 * axe clean at 1280 px and at 375 px, nothing wider than the screen (the widest offenders named), and no
 * script error, CSP refusal or other origin seen by `watch` (`problems`).
 */
export async function checkBoth(page: Page, problems: string[], what: string): Promise<void> {
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    const v = await axeSerious(page);
    assert.deepEqual(v, [], `${what} at ${width} px: ${describeViolations(v)}`);
    const wider = await page.evaluate(
      (w) =>
        document.documentElement.scrollWidth <= w
          ? []
          : [...document.querySelectorAll('body *')]
              .filter((e) => e.getBoundingClientRect().right > w + 1)
              .slice(-5)
              .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent ?? '').slice(0, 60)}`),
      width,
    );
    assert.deepEqual(wider, [], `${what} fits ${width} px`);
  }
  await page.setViewportSize(before);
  assert.deepEqual(problems, [], what);
}
