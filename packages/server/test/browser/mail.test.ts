// Mail in Chromium, as a person receives it: a real SMTP server on loopback gets the service's mail,
// the test reads the link out of it and opens it in the browser. An invitation's link signs the person
// in; a forgotten password is reset from the mail, in the portal and in the desk (where the second
// factor is still asked at the next sign-in).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { resetRequestsSettled } from '../../src/people/password-reset.ts';
import { deliverDueMail } from '../../src/usecases/mail/outbox.ts';
import { startMailReceiver, type MailReceiver, type ReceivedMail } from '../mail-receiver.ts';
import { freshCode, invite, join } from './desk-world.ts';
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
import { member, organization, market } from './portal-world.ts';

const skip = browserSkipReason();

async function assertAccessible(page: Page): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], describeViolations(v));
}

describe('mail in Chromium: invitations and forgotten passwords', { skip: skip ?? false }, () => {
  let br: BrowserHandle;
  let svc: Service;
  let rx: MailReceiver;

  before(async () => {
    requireBuilt('portal');
    requireBuilt('desk');
    rx = await startMailReceiver();
    br = await launchBrowser();
    svc = await startService({}, { mail: rx.sender });
    await market(svc);
  });
  after(async () => {
    await br?.close();
    await svc?.close();
    await rx?.close();
  });

  /** The mail to `to` whose subject is `subject`, once the outbox has sent it (what the background task does). */
  async function mailTo(to: string, subject: string): Promise<ReceivedMail> {
    for (let i = 0; i < 50; i++) {
      await resetRequestsSettled();
      await deliverDueMail(svc.h.deps);
      const m = rx.to(to).find((x) => x.subject === subject);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail "${subject}" to ${to}; received: ${rx.mails.map((m) => `${m.to}: ${m.subject}`).join('; ')}`);
  }
  /** The link of a mail, opened on this service (the mail names the configured public origin). */
  const here = (link: string) => {
    const u = new URL(link);
    return `${svc.baseUrl}${u.pathname}${u.hash}`;
  };

  test('portal: an invitation arrives by mail and its link signs the person in; a forgotten password is reset from the mail', async () => {
    const orgId = await organization(svc, 'Mail Treasury');
    const ana = await member(svc, orgId, 'Ana Mail', ['portal:read', 'portal:team']);
    const invitation = await mailTo(ana.email, 'Your invitation to Mail Treasury on Cambio');
    const link = rx.link(invitation, `${svc.baseUrl}/portal/invitation#`);

    const ctx = await br.context();
    const page = await ctx.newPage();
    const w = watch(page, svc.baseUrl);
    await page.goto(here(link));
    await page.getByLabel('Choose a password').fill(ana.password);
    await page.getByLabel('Repeat the password').fill(ana.password);
    await page.getByRole('button', { name: 'Accept and sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.ok((await page.locator('header').innerText()).includes('Ana Mail'), 'signed in as Ana');
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Forgot password? on the sign-in page
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await assertAccessible(page);
    await page.getByLabel('Email').fill(ana.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
    const reset = await mailTo(ana.email, 'Reset your Cambio password');
    const resetLink = rx.link(reset, `${svc.baseUrl}/portal/reset-password#`);

    await page.goto(here(resetLink));
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await assertAccessible(page);
    const fresh = 'Ana chose a new long passphrase 7';
    await page.getByLabel('New password').fill(fresh);
    await page.getByLabel('Repeat the password').fill(fresh);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is set' }).waitFor();
    assert.equal(new URL(page.url()).hash, '', 'the spent token left the address bar');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(ana.email);
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    // the same link again: refused with the catalogue's words
    await page.goto(here(resetLink));
    await page.getByLabel('New password').fill(`${fresh}!`);
    await page.getByLabel('Repeat the password').fill(`${fresh}!`);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This password-reset link is not valid (unknown or already used)' }).waitFor();
    assert.deepEqual(w.problems, []);
    await ctx.close();
  });

  test('desk at 375 px: the invitation from the mail, then a forgotten password reset from the mail; the code is still asked', async () => {
    const sam = await invite(svc, 'Sam Mail', 'approver');
    const invitation = await mailTo(sam.email, 'Your invitation to the operator on Cambio');
    const link = rx.link(invitation, `${svc.baseUrl}/desk/invitation#`);
    assert.equal(link, sam.invitationUrl);
    sam.invitationUrl = link;
    await join(br, svc, sam);
    await sam.ctx!.close();

    const ctx = await br.context({ width: 375, height: 800 });
    const page = await ctx.newPage();
    const w = watch(page, svc.baseUrl);
    await page.goto(`${svc.baseUrl}/desk/`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(sam.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'If an account uses this address' }).waitFor();
    const reset = await mailTo(sam.email, 'Reset your Cambio password');
    await page.goto(here(rx.link(reset, `${svc.baseUrl}/desk/reset-password#`)));
    const fresh = 'Sam chose a new long passphrase 8';
    await page.getByLabel('New password').fill(fresh);
    await page.getByLabel('Repeat the password').fill(fresh);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password is set' }).waitFor();
    await assertAccessible(page);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 375), 'no sideways scroll at 375 px');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(sam.email);
    await page.getByLabel('Password').fill(fresh);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Code', { exact: true }).fill(freshCode(sam));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Desk' }).waitFor();
    assert.deepEqual(w.problems, []);
    await ctx.close();
  });
});
