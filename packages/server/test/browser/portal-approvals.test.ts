/**
 * The portal's Approvals page in Chromium against the real service (docs/controls.md): two members of
 * one organization; A's exchange above the rule waits for the organization; B sees what, how much, who
 * asked and how many more, and approves; it then waits for the operator. A cannot approve their own.
 * A writes the rules on the Approval rules page (add, reorder, save) and reads them in words; a later change
 * that the rules in force hold waits until B approves it. Once in Spanish at 375 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { browserSkipReason, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';
import { acceptInvitation, ALL_ROLE, checkBoth, go, market, member, organization } from './portal-world.ts';

const skip = browserSkipReason();
const CONTROLS = [...ALL_ROLE, 'portal:policy', 'portal:approve', 'portal:audit'];

/** A call of the signed-in member from the page itself (same origin, the session cookie). */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: r.status, data: ((await r.json()) as { data: Record<string, unknown> }).data };
    },
    { method, path, body },
  );
}

async function exchange(page: Page): Promise<string> {
  const q = await call(page, 'POST', '/api/v1/quotes', { baseSymbol: 'BTC', quoteSymbol: 'USD', amountBaseMinor: '2500000' });
  assert.equal(q.status, 201, JSON.stringify(q));
  const o = await call(page, 'POST', '/api/v1/orders', { quoteId: q.data.id });
  assert.equal(o.status, 201, JSON.stringify(o));
  return o.data.id as string;
}

describe('portal approvals in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;

  before(async () => {
    requireBuilt('portal');
    svc = await startService({});
    br = await launchBrowser();
    await market(svc);
    orgId = await organization(svc, 'Consensus Treasury SA');
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test("B approves A's exchange on the Approvals page; A cannot approve their own; Spanish at 375 px", async () => {
    const pa = await (await br.context()).newPage();
    const pb = await (await br.context()).newPage();
    const problems = watch(pb, svc.baseUrl).problems;
    const ana = await member(svc, orgId, 'Ana Asks', CONTROLS);
    const ben = await member(svc, orgId, 'Ben Approves', CONTROLS);
    await acceptInvitation(pa, svc, ana);
    await acceptInvitation(pb, svc, ben);
    // Ana writes the rules on the page: exchanges of 0.01 BTC or more, and changes of the rules, each need one more person.
    await go(pa, 'Approval rules');
    await pa.getByText('No rules: every request goes straight to the operator.').waitFor();
    await pa.getByRole('button', { name: 'Change the rules' }).click();
    const editor = pa.getByRole('form', { name: 'Change the rules' });
    await editor.getByRole('button', { name: 'Add a rule' }).click();
    const r1 = editor.getByRole('group', { name: 'Rule 1' });
    await r1.getByLabel('Applies to').selectOption('policy');
    await editor.getByRole('button', { name: 'Add a rule' }).click();
    const r2 = editor.getByRole('group', { name: 'Rule 2' });
    await r2.getByLabel('Applies to').selectOption('order');
    await r2.getByLabel('Asset').selectOption('BTC');
    await r2.getByLabel('From this amount').fill('0.01');
    await editor.getByRole('button', { name: 'Move rule 2 up' }).click();
    await checkBoth(pa, [], 'the rules editor');
    await editor.getByRole('button', { name: 'Save rules' }).click();
    await editor.waitFor({ state: 'detached' });
    const rule = pa.getByRole('list', { name: 'Rules, in order' }).getByRole('listitem');
    await rule.nth(1).waitFor();
    assert.deepEqual(await rule.allInnerTexts(), [
      'An exchange of 0.01000000 BTC or more needs 1 more person',
      'A change of these rules needs 1 more person',
    ]);
    const policy = await call(pa, 'GET', '/portal/v1/policy');
    assert.deepEqual(policy.data.rules, [
      { action: 'order', assetSymbol: 'BTC', fromAmountMinor: '1000000', approvals: 1 },
      { action: 'policy', assetSymbol: null, fromAmountMinor: null, approvals: 1 },
    ]);
    // A change now waits for another member: the page says so, and the rules in force stay.
    await pa.getByRole('button', { name: 'Change the rules' }).click();
    assert.equal(await editor.getByRole('group', { name: 'Rule 1' }).getByLabel('From this amount').inputValue(), '0.01000000');
    await editor.getByRole('button', { name: 'Remove rule 2' }).click();
    await editor.getByRole('button', { name: 'Save rules' }).click();
    await editor.getByRole('status').getByText('Your change waits for the approvals the current rules ask for').waitFor();
    assert.equal(((await call(pa, 'GET', '/portal/v1/policy')).data.rules as unknown[]).length, 2, 'the rules in force are unchanged');
    await editor.getByRole('button', { name: 'Cancel' }).click();
    // Ben approves the change on his Approvals page: it applies, and one rule is left.
    const pending = (await call(pb, 'GET', '/portal/v1/approvals?state=waiting')).data as unknown as Array<{ kind: string; id: string }>;
    const change = pending.find((w) => w.kind === 'policy');
    assert.ok(change, JSON.stringify(pending));
    await go(pb, 'Approvals');
    await pb.getByRole('button', { name: `Approve Change of the approval rules ${change.id}` }).click();
    await pb.getByText('Your approval was recorded.').waitFor();
    await pa.reload();
    await pa.getByRole('heading', { level: 1, name: 'Approval rules' }).waitFor();
    await rule.first().waitFor();
    assert.deepEqual(await rule.allInnerTexts(), ['An exchange of 0.01000000 BTC or more needs 1 more person']);
    const first = await exchange(pa);

    await go(pb, 'Approvals');
    const row = pb.getByRole('row').filter({ hasText: 'Ana Asks' });
    // Read again while the page is open: no reload.
    await row.waitFor();
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Exchange/);
    assert.match(text, /0\.025 BTC|0\.02500000 BTC/);
    assert.match(text, /BTC\/USD/);
    assert.match(text, /1 more person/);
    await checkBoth(pb, problems, 'approvals');

    await go(pa, 'Approvals');
    await pa.getByRole('row').filter({ hasText: 'Ana Asks' }).getByText('You asked for it: another member approves it.').waitFor();
    assert.equal(await pa.getByRole('button', { name: `Approve Exchange ${first}` }).count(), 0, 'no Approve button on one’s own request');

    await pb.getByRole('button', { name: `Approve Exchange ${first}` }).click();
    await pb.getByText('Your approval was recorded.').waitFor();
    await pb.getByText("Nothing waits for the organization's approval.").waitFor();
    const after = await call(pa, 'GET', `/api/v1/orders/${first}`);
    assert.deepEqual((after.data.approvals as { waitingFor: string }).waitingFor, 'operator');

    // In Spanish, at 375 px: a second request, rejected with a reason.
    const second = await exchange(pa);
    await pb.setViewportSize({ width: 375, height: 800 });
    await pb.getByRole('button', { name: 'Español' }).click();
    await pb.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Aprobaciones', exact: true }).click();
    await pb.getByRole('heading', { level: 1, name: 'Esperan aprobación' }).waitFor();
    const fila = pb.getByRole('row').filter({ hasText: 'Ana Asks' });
    await fila.waitFor();
    assert.match((await fila.innerText()).replace(/\s+/g, ' '), /1 persona más/);
    await pb.getByRole('button', { name: `Rechazar Cambio ${second}` }).click();
    await pb.getByLabel('Motivo (opcional)').fill('demasiado por hoy');
    await pb.getByRole('button', { name: 'Rechazarla' }).click();
    await pb.getByText('Rechazada: la solicitud terminó y se liberó lo que retenía.').waitFor();
    await pb.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Reglas de aprobación', exact: true }).click();
    const regla = pb.getByRole('list', { name: 'Reglas, en orden' }).getByRole('listitem');
    await regla.first().waitFor();
    assert.match(await regla.first().innerText(), /^Un cambio de 0,01\d* BTC o más necesita 1 persona más$/);
    await checkBoth(pb, problems, 'reglas');
    const rejected = await call(pa, 'GET', `/api/v1/orders/${second}`);
    assert.equal(rejected.data.state, 'rejected');
    assert.deepEqual(problems, []);
  });
});
