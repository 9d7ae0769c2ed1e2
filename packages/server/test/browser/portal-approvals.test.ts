/**
 * The portal's Approvals page in Chromium against the real service (docs/controls.md): two members of
 * one organization; A's exchange above the rule waits for the organization; B sees what, how much, who
 * asked and how many more, and approves; it then waits for the operator. A cannot approve their own.
 * The Approval rules page reads the rule in words. Once in Spanish at 375 px.
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
    const set = await call(pa, 'PUT', '/portal/v1/policy', {
      rules: [{ action: 'order', assetSymbol: 'BTC', fromAmountMinor: '1000000', approvals: 1 }],
    });
    assert.equal(set.status, 200, JSON.stringify(set));
    await go(pa, 'Approval rules');
    const rule = pa.getByRole('list', { name: 'Rules, in order' }).getByRole('listitem');
    await rule.first().waitFor();
    assert.match(await rule.first().innerText(), /^An exchange of 0\.01\d* BTC or more needs 1 more person$/);
    const first = await exchange(pa);

    await go(pb, 'Approvals');
    const row = pb.getByRole('row').filter({ hasText: 'Ana Asks' });
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
