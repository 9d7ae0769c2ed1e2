/**
 * The API reference at /docs in Chromium: it runs under its CSP without a refusal, and "Try it out"
 * is aimed at the service as it is reached (here a free port, never a fixed 8080).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { browserSkipReason, launchBrowser, startService, watch, type BrowserHandle, type Service } from './harness.ts';

const skip = browserSkipReason();

describe('/docs in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  before(async () => {
    svc = await startService();
    br = await launchBrowser();
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test('the reference loads with no CSP refusal, and its server is this origin', async () => {
    const page = await (await br.context()).newPage();
    const { problems } = watch(page, svc.baseUrl);
    const res = await page.goto(`${svc.baseUrl}/docs`);
    assert.equal(res?.status(), 200);
    assert.doesNotMatch(res!.headers()['content-security-policy']!, /unsafe-inline/);
    await page.getByLabel('Servers').or(page.locator('select#servers')).first().waitFor({ timeout: 90_000 });
    assert.deepEqual(await page.locator('select#servers option').allTextContents(), [`${svc.baseUrl} - this service`]);
    assert.notEqual(new URL(svc.baseUrl).port, '8080');
    await page.waitForLoadState('networkidle');
    assert.deepEqual(problems, []);
    const doc = (await (await fetch(`${svc.baseUrl}/api/v1/openapi.json`)).json()) as { servers: Array<{ url: string }> };
    assert.deepEqual(
      doc.servers.map((s) => s.url),
      [svc.baseUrl],
    );
  });
});
