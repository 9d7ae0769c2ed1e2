// The operator's policy in the desk, in Chromium against the real service: one admin edits the rules into
// a draft, shown beside the rules in force; the author has no Publish button; another admin publishes it,
// and both pages and the server then hold the new rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { seedOrg } from '../harness.ts';
import { assertLaidOut, balance, go, invite, join, market, op, type Staff } from './desk-world.ts';
import { browserSkipReason, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';

const skip = browserSkipReason();
const WORDS = 'Withdrawal · USD · any organization · from 1000000 minimum units: 3 approvals (admin)';

describe("desk in Chromium: the operator's rules", { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let ada: Staff;
  let ben: Staff;
  let adaPage: Page;
  let benPage: Page;
  let problems: string[];

  before(async () => {
    requireBuilt('desk');
    br = await launchBrowser();
    svc = await startService();
    await market(svc);
    const a = await invite(svc, 'Ada Rules', 'admin');
    const b = await invite(svc, 'Ben Rules', 'admin');
    adaPage = await join(br, svc, a);
    benPage = await join(br, svc, b);
    problems = watch(adaPage, svc.baseUrl).problems;
    ada = a;
    ben = b;
  });
  after(async () => {
    await ada?.ctx?.close();
    await ben?.ctx?.close();
    await br?.close();
    await svc?.close();
  });

  const rules = (page: Page, column: 'In force' | 'Draft') =>
    page.getByRole('region', { name: "The operator's rules" }).getByRole('region', { name: column, exact: true });

  test('an admin saves a draft beside the rules in force; another admin publishes it', async () => {
    await go(adaPage, 'Approvals');
    await rules(adaPage, 'In force').getByText('No rules.').waitFor();
    await rules(adaPage, 'Draft').getByText('No draft waits.').waitFor();
    await adaPage.getByRole('button', { name: 'Edit rules' }).click();
    await adaPage.getByRole('button', { name: 'Add a rule' }).click();
    const rule = adaPage.getByRole('group', { name: 'Rule 1', exact: true });
    await rule.getByLabel('Action').selectOption('withdrawal');
    await rule.getByLabel('Asset (empty: any)').fill('usd');
    await rule.getByLabel('From amount, in minimum units (empty: any)').fill('1000000');
    await rule.getByLabel('Approvals').selectOption('3');
    await rule.getByRole('checkbox', { name: 'approver' }).uncheck();
    await adaPage.getByRole('button', { name: 'Save draft' }).click();

    const draft = rules(adaPage, 'Draft');
    await draft.getByRole('listitem').filter({ hasText: WORDS }).waitFor();
    await draft.getByText('Written by Ada Rules.').waitFor();
    await draft.getByText('Waits for another admin to publish it.').waitFor();
    assert.equal(await draft.getByRole('button', { name: 'Publish' }).count(), 0, 'the author has no Publish button');
    await rules(adaPage, 'In force').getByText('No rules.').waitFor();
    assert.deepEqual((await op(svc, 'GET', '/policies/rules')).rules, [], 'nothing is in force before another admin publishes');
    await assertLaidOut(adaPage, 'Approvals with a draft of the rules');

    await go(benPage, 'Approvals');
    await rules(benPage, 'Draft').getByRole('listitem').filter({ hasText: WORDS }).waitFor();
    await rules(benPage, 'Draft').getByRole('button', { name: 'Publish' }).click();
    const dialog = benPage.getByRole('dialog', { name: 'Publish these rules?' });
    await dialog.getByText('The draft by Ada Rules replaces the rules in force at once:').waitFor();
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await rules(benPage, 'In force').getByRole('listitem').filter({ hasText: WORDS }).waitFor();
    await rules(benPage, 'In force').getByText('Published by Ben Rules.').waitFor();
    await rules(benPage, 'Draft').getByText('No draft waits.').waitFor();

    const server = await op(svc, 'GET', '/policies/rules');
    assert.deepEqual(server.rules, [
      { action: 'withdrawal', assetSymbol: 'USD', organizationId: null, fromAmountMinor: '1000000', approvals: 3, roles: ['admin'] },
    ]);
    assert.equal(server.publishedBy.name, 'Ben Rules');
    await adaPage.reload();
    await rules(adaPage, 'In force').getByRole('listitem').filter({ hasText: WORDS }).waitFor();
    assert.deepEqual(problems, []);
  });

  test('an adjustment a rule of two holds waits in the queue: one admin approves it (1 of 2), the other applies it', async () => {
    const org = await seedOrg(svc.h, { balances: { USD: 1000n } });
    const d = await op(svc, 'PUT', '/policies/rules', { rules: [{ action: 'adjustment', approvals: 2, roles: ['admin'] }] });
    // Drafted with the bootstrap token; an admin publishes it in the desk.
    await benPage.reload();
    await rules(benPage, 'Draft').getByText('Written by bootstrap.').waitFor();
    await rules(benPage, 'Draft').getByRole('button', { name: 'Publish' }).click();
    await benPage.getByRole('dialog', { name: 'Publish these rules?' }).getByRole('button', { name: 'Publish' }).click();
    await rules(benPage, 'Draft').getByText('No draft waits.').waitFor();
    assert.equal((await op(svc, 'GET', '/policies/rules')).draftId, d.id);
    const asked = await svc.h.op('POST', `/organizations/${org.orgId}/adjustments`, {
      assetSymbol: 'USD',
      amountMinor: '2500',
      reason: 'refund',
    });
    assert.equal(asked.status, 202, asked.raw);
    const id = asked.body.data.id as string;

    await adaPage.reload();
    const item = adaPage.locator(`li[data-request="${id}"]`);
    await item.getByText('Asked by bootstrap; 0 of 2 approvals (—).').waitFor();
    await item.getByText('25.00').waitFor();
    await item.getByRole('button', { name: `Approve ${id}` }).click();
    await adaPage.getByRole('dialog', { name: 'Approve this request?' }).getByRole('button', { name: 'Approve' }).click();
    await item.getByText('Asked by bootstrap; 1 of 2 approvals (Ada Rules).').waitFor();
    const usd = async () => (await balance(svc, org.key, 'USD')).available;
    assert.equal(await usd(), 1000n, 'one approval of two applies nothing');

    await benPage.reload();
    const benItem = benPage.locator(`li[data-request="${id}"]`);
    await benItem.getByRole('button', { name: `Approve ${id}` }).click();
    await benPage.getByRole('dialog', { name: 'Approve this request?' }).getByRole('button', { name: 'Approve' }).click();
    await benItem.waitFor({ state: 'detached' });
    assert.equal(await usd(), 3500n);
    await assertLaidOut(benPage, 'Approvals with the staff requests');
    assert.deepEqual(problems, []);
  });
});
