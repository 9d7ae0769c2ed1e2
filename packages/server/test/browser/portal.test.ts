import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axeSerious, browserSkipReason, describeViolations, launchBrowser, requireBuilt, startService, watch, type BrowserHandle, type Service } from './harness.ts';

const skip = browserSkipReason();

describe('portal in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  before(async () => {
    requireBuilt('portal');
    svc = await startService();
    br = await launchBrowser();
  });
  after(async () => { await br?.close(); await svc?.close(); });

  test('the portal loads from the service itself, under its CSP, with no violation', async () => {
    const ctx = await br.context();
    const page = await ctx.newPage();
    const w = watch(page, svc.baseUrl);
    const res = await page.goto(`${svc.baseUrl}/portal/`);
    assert.equal(res?.status(), 200);
    assert.match(res!.headers()['content-security-policy']!, /script-src 'self'/);
    await page.getByText('Cambio portal').waitFor();
    assert.deepEqual(await axeSerious(page), [], describeViolations(await axeSerious(page)));
    assert.deepEqual(w.problems, []);
    await ctx.close();
  });
});
