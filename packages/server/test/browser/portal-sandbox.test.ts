/**
 * The portal in sandbox, in Chromium against the real service: the magic amounts beside the amount fields,
 * "Simulate a deposit" crediting the open declaration, and "Send test event" showing how an endpoint answered.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startReceiver } from '../webhook-receiver.ts';
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
import { acceptInvitation, ALL_ROLE, go, market, member, organization } from './portal-world.ts';

const skip = browserSkipReason();

async function checkPage(page: Page, problems: string[], what: string): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], `${what}: ${describeViolations(v)}`);
  assert.deepEqual(problems, [], what);
}

describe('portal sandbox in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;

  before(async () => {
    requireBuilt('portal');
    svc = await startService({});
    br = await launchBrowser();
    await market(svc);
    orgId = await organization(svc, 'Sandbox Treasury SA');
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('magic amounts beside the amount fields; Simulate a deposit credits the open declaration; Send test event shows the outcome', async () => {
    const rx = await startReceiver();
    const ctx = await br.context();
    const page = await ctx.newPage();
    const problems = watch(page, svc.baseUrl).problems;
    try {
      await acceptInvitation(page, svc, await member(svc, orgId, 'Sara Sandbox', [...ALL_ROLE, 'portal:webhooks']));

      await go(page, 'Exchange');
      const magic = page.getByRole('note').filter({ hasText: 'Sandbox magic amounts:' });
      await magic.waitFor();
      assert.match(await magic.innerText(), /1111 \(completed, e\.g\. 1\.00001111 BTC\), 2222 \(rejected\) or 3333 \(fails\)/);

      await go(page, 'Deposits');
      assert.match(await magic.innerText(), /1111 \(e\.g\. 1\.00001111 BTC\) is matched by a simulated arrival within seconds/);
      await page.getByLabel('Amount', { exact: true }).fill('0.5');
      await page.getByRole('button', { name: 'Declare' }).click();
      const decl = page.getByRole('region', { name: /Open declaration/ });
      await decl.waitFor();
      const exact = /Send exactly\s+([0-9.]+) BTC/.exec(await decl.innerText())![1]!;
      const simulate = page.getByRole('region', { name: 'Simulate a deposit' });
      // The open declaration's exact amount is filled in: one click credits it.
      assert.equal(await simulate.getByLabel('How much arrives (BTC)').inputValue(), exact);
      await checkPage(page, problems, 'deposits in sandbox');
      await simulate.getByRole('button', { name: 'Simulate the deposit' }).click();
      await page.getByText(`Arrived and credited: ${exact} BTC.`).waitFor();
      await decl.waitFor({ state: 'detached' });
      await page.getByText('Credited', { exact: true }).first().waitFor();

      await go(page, 'Webhooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.getByLabel('URL', { exact: true }).fill(rx.url);
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await page.getByRole('button', { name: `Send test event to ${rx.url}` }).click();
      await page.getByText(new RegExp(`Test event delivered: ${rx.url.replace(/[./]/g, '\\$&')} answered 200 in \\d+ ms\\.`)).waitFor();
      assert.equal(rx.received.length, 1);
      assert.equal(JSON.parse(rx.received[0]!.body).type, 'webhook.test');
      await checkPage(page, problems, 'webhooks in sandbox');
    } finally {
      await ctx.close();
      await rx.close();
    }
  });
});
