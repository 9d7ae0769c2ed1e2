/**
 * The public books in Chromium: the portal's "verified in the log" marks on Ledger rows and the
 * liabilities check on Balances (each verified in the browser by the SDK, with Web Crypto), and the
 * desk's Liabilities page, where an admin takes a snapshot and reads its roots and totals.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { appendJournalLog } from '../../src/usecases/transparency/append-log.ts';
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
import { go as deskGo, invite, join, market as deskMarket } from './desk-world.ts';
import { acceptInvitation, ALL_ROLE, go, member, organization } from './portal-world.ts';

const skip = browserSkipReason();

async function clean(page: Page, problems: string[], what: string): Promise<void> {
  const v = await axeSerious(page);
  assert.deepEqual(v, [], `${what}: ${describeViolations(v)}`);
  assert.deepEqual(problems, [], what);
}

describe('the public books in Chromium', { skip: skip ?? false }, () => {
  let svc: Service;
  let br: BrowserHandle;
  let orgId: string;
  before(async () => {
    requireBuilt('portal');
    requireBuilt('desk');
    svc = await startService();
    br = await launchBrowser();
    await deskMarket(svc);
    orgId = await organization(svc, 'Acme Treasury SA');
  });
  after(async () => {
    await br?.close();
    await svc?.close();
  });

  test("desk: an admin takes a snapshot and sees each asset's total and root; portal: Ledger rows are verified in the log, Balances in the published liabilities", async () => {
    const ada = await invite(svc, 'Ada Admin', 'admin');
    const desk = await join(br, svc, ada);
    const deskProblems = watch(desk, svc.baseUrl).problems;
    await deskGo(desk, 'Liabilities');
    await desk.getByText('No snapshot yet').waitFor();
    await desk.getByRole('button', { name: 'Take a snapshot' }).click();
    await desk
      .getByRole('status')
      .filter({ hasText: /taken and published/ })
      .waitFor();
    const table = desk.getByRole('table', { name: /Roots and totals of snapshot/ }).first();
    const usd = (
      await table
        .getByRole('row')
        .filter({ has: desk.getByRole('rowheader', { name: 'USD', exact: true }) })
        .innerText()
    ).replace(/\s+/g, ' ');
    assert.match(usd, /^USD 10,000\.00 USD [2-4] [0-9a-f]{64}$/, '2 to 4 parts a holder');
    const btc = (
      await table
        .getByRole('row')
        .filter({ has: desk.getByRole('rowheader', { name: 'BTC', exact: true }) })
        .innerText()
    ).replace(/\s+/g, ' ');
    assert.match(btc, /^BTC 2\.00000000 BTC [2-4] [0-9a-f]{64}$/);
    await clean(desk, deskProblems, 'desk liabilities');

    // The entries join the log (the appender's run, as the background task does it).
    await appendJournalLog(svc.h.deps);
    const ctx = await br.context();
    const page = await ctx.newPage();
    const problems = watch(page, svc.baseUrl).problems;
    await acceptInvitation(page, svc, await member(svc, orgId, 'Ana Owner', ALL_ROLE));
    await go(page, 'Balances');
    await page.getByRole('status').filter({ hasText: 'Your balances are in the published liabilities ✓' }).waitFor();
    await clean(page, problems, 'portal balances');

    await go(page, 'Ledger');
    const marks = page.getByRole('img', { name: 'Verified in the log' });
    await marks.nth(1).waitFor();
    assert.equal(await marks.count(), 2, 'both funding rows are verified in the log');

    // A new movement shows "not in the log yet" until the appender takes it, then verified.
    await svc.h.op('POST', `/organizations/${orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-100', reason: 'fee' });
    await page.reload();
    await page.getByRole('img', { name: 'Not in the log yet' }).waitFor();
    await appendJournalLog(svc.h.deps);
    await page.getByRole('img', { name: 'Verified in the log' }).nth(2).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByRole('img', { name: 'Not in the log yet' }).count(), 0);
    await clean(page, problems, 'portal ledger');

    // The server lies about one row by one unit (the log holds the truth): that row's mark is not verified, the others are.
    const postings = svc.h.store.accounts.postings.bind(svc.h.store.accounts);
    svc.h.store.accounts.postings = async (...args) => {
      const r = await postings(...args);
      return { ...r, items: r.items.map((p) => (p.amount === -100n ? { ...p, amount: -99n } : p)) };
    };
    try {
      await page.reload();
      const lied = page.getByRole('row').filter({ hasText: '0.99' });
      await lied.getByRole('img', { name: 'Not verified' }).waitFor();
      await page.getByRole('img', { name: 'Verified in the log' }).nth(1).waitFor();
      assert.equal(await page.getByRole('img', { name: 'Verified in the log' }).count(), 2, 'the honest rows stay verified');
      assert.equal(await page.getByRole('alert').filter({ hasText: 'The books cannot be trusted' }).count(), 0, 'the log did not fork');
    } finally {
      svc.h.store.accounts.postings = postings;
    }

    // The server forks the log: a posting rewritten in SQL and the log rebuilt and signed again, to the size
    // this browser remembered, with another root. The marks turn into a warning.
    const size = await svc.h.store.transparency.size();
    const victim = (await svc.h.store.transparency.entries(0, 1))[0]!.entryId;
    await sql`update postings set amount = amount + 1 where entry_id = ${victim} and owner_id <> 'platform'`.execute(svc.h.store.db);
    await sql`update postings set amount = amount - 1 where entry_id = ${victim} and owner_id = 'platform'`.execute(svc.h.store.db);
    await sql`delete from log_checkpoints`.execute(svc.h.store.db);
    await sql`delete from log_nodes`.execute(svc.h.store.db);
    await sql`delete from log_leaves`.execute(svc.h.store.db);
    await sql`update log_head set size = 0, frontier = ''::bytea, last_txid = -1, last_seq = 0`.execute(svc.h.store.db);
    while ((await svc.h.store.transparency.size()) < size) await appendJournalLog(svc.h.deps);
    await page.reload();
    await page.getByRole('alert').filter({ hasText: 'The books cannot be trusted' }).waitFor();
    await page.getByRole('img', { name: 'Not verified' }).first().waitFor();
    assert.equal(await page.getByRole('img', { name: 'Verified in the log' }).count(), 0);
    await ctx.close();
  });
});
