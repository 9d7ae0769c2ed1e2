/**
 * Crypto out in the portal, in Chromium against the real service (sandbox): a member registers a
 * Bitcoin address (a bad one is refused, the first and last characters are confirmed before it is
 * registered), sees its network beside it, withdraws to it once the operator registered it in the
 * market, and after the approval sees the txid linked to the configured block explorer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
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
import { acceptInvitation, ALL_ROLE, go, market, member, op, organization } from './portal-world.ts';

const skip = browserSkipReason();
const ADDRESS = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

async function checkPage(page: Page, problems: string[], what: string): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], `${what}: ${describeViolations(v)}`);
  assert.deepEqual(problems, [], what);
}

describe('portal crypto destinations in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;

  before(async () => {
    requireBuilt('portal');
    svc = await startService({ CAMBIO_DESTINATION_COOLDOWN_MS: '0', CAMBIO_EXPLORER_BITCOIN: 'https://mempool.example/tx/{txid}' });
    br = await launchBrowser();
    await market(svc);
    await op(svc, 'PUT', '/market/assets/BTC', { decimals: 8, kind: 'crypto' });
    orgId = await organization(svc, 'Crypto Treasury SA');
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('a member registers an address after confirming its ends, withdraws to it, and sees the txid linked to the explorer', async () => {
    const ctx = await br.context();
    const page = await ctx.newPage();
    const problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, await member(svc, orgId, 'Cora Crypto', ALL_ROLE));
    await go(page, 'Withdrawals');
    await page.getByText('Register a crypto address').click();
    await page.getByLabel('Nickname').fill('Cold storage');
    await page.getByLabel('Crypto asset').selectOption('BTC');
    await page.getByLabel('Network', { exact: true }).fill('bitcoin');
    // A mistyped address: the server refuses it, nothing is registered.
    await page.getByLabel('Address', { exact: true }).fill(`${ADDRESS.slice(0, -1)}5`);
    await page.getByRole('button', { name: 'Register address' }).click();
    await page.getByRole('group', { name: 'Check the address' }).waitFor();
    await page.getByRole('button', { name: 'Both match: register' }).click();
    await page.getByText('The address is not a valid address of the network bitcoin').waitFor();

    await page.getByLabel('Address', { exact: true }).fill(ADDRESS);
    await page.getByRole('button', { name: 'Register address' }).click();
    const check = page.getByRole('group', { name: 'Check the address' });
    assert.match(await check.innerText(), /on bitcoin it starts with bc1qw5 and ends with v8f3t4/);
    await checkPage(page, problems, 'address confirmation');
    await page.getByRole('button', { name: 'Both match: register' }).click();
    await page.getByText('Registered. It becomes usable after the cooldown').waitFor();
    await page.getByLabel('Network bitcoin').waitFor();
    await page.getByText(ADDRESS, { exact: true }).waitFor();

    const list = await page.evaluate(
      async () => (await (await fetch('/api/v1/withdrawals/destinations')).json()).data as Array<{ id: string; kind: string }>,
    );
    assert.deepEqual(
      list.map((d) => d.kind),
      ['crypto'],
    );
    await op(svc, 'POST', `/destinations/${list[0]!.id}/register-in-market`);
    await page.reload();
    await page.getByText('Usable', { exact: true }).waitFor();

    await page.getByLabel('Amount in BTC').fill('0.01');
    await page.getByRole('button', { name: 'Request withdrawal' }).click();
    await page.getByText(/Withdraw 0\.01000000 BTC to Cold storage/).waitFor();
    await page.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await page.getByText('Withdrawal requested: waiting for the operator; the amount is held.').waitFor();
    const pending = (await op(svc, 'GET', '/withdrawals?state=pending_approval')) as Array<{ id: string }>;
    const approved = await op(svc, 'POST', `/withdrawals/${pending[0]!.id}/approve`);
    assert.equal(approved.state, 'completed');
    await page.reload();
    const link = page.getByRole('link', { name: approved.txid });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), `https://mempool.example/tx/${approved.txid}`);
    await checkPage(page, problems, 'withdrawal with its txid');
    await ctx.close();
  });
});
