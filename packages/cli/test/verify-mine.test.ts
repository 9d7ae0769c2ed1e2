import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { backends, listAssets, makeHarness, seedOrg } from '../../server/test/harness.ts';
import { appendUntil } from '../../server/test/log-append.ts';

const BIN = fileURLToPath(new URL('../bin/cambio.js', import.meta.url));

function cambio(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const backend of backends()) {
  describe(`cambio verify --mine (${backend})`, () => {
    test('a client checks its own entries and liabilities; a history rewritten after it saw a checkpoint exits 8 naming that checkpoint', async () => {
      const h = await makeHarness({ backend });
      const home = mkdtempSync(join(tmpdir(), 'cambio-mine-'));
      try {
        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        await listAssets(h, { USD: 2, BTC: 8 });
        const a = await seedOrg(h, { balances: { USD: 1000n, BTC: 5n } });
        await seedOrg(h, { balances: { USD: 70n } });
        const env = { HOME: home, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: a.key };
        // Each funding is two entries: the organization's and the platform's own.
        await appendUntil(h, 6);

        const first = await cambio(['verify', '--mine'], env);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(
          first.stdout,
          'ok: 2 own entries in the log under checkpoint 6 signed by cambio/localhost; consistent with 0 checkpoints seen before; no liabilities snapshot yet\n',
        );
        const seenFile = join(home, '.config', 'cambio', 'seen-checkpoints.json');
        assert.ok(existsSync(seenFile), 'the checkpoint seen is kept in the config folder');
        assert.equal(statSync(seenFile).mode & 0o077, 0);
        const seen = JSON.parse(readFileSync(seenFile, 'utf8'))[base] as { checkpoints: Array<{ treeSize: number; rootHash: string }> };
        assert.deepEqual(
          seen.checkpoints.map((c) => c.treeSize),
          [6],
        );

        // More entries and a liabilities snapshot: still consistent, and the organization's leaves verify.
        assert.equal(
          (await h.op('POST', `/organizations/${a.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-250', reason: 'fee' })).status,
          201,
        );
        await appendUntil(h, 8);
        assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
        const second = await cambio(['verify', '--mine', '--json'], env);
        assert.equal(second.code, 0, second.stderr);
        const out = JSON.parse(second.stdout) as {
          entries: number;
          checkpoint: { treeSize: number };
          checkpointsSeenBefore: number;
          liabilities: string;
        };
        assert.deepEqual([out.entries, out.checkpoint.treeSize, out.checkpointsSeenBefore], [3, 8, 1]);
        assert.match(out.liabilities, /^counted in liabilities snapshot liab_\S+ at log size 8 \(BTC 5, USD 750\)$/);

        // The operator rewrites history: a posting changed in SQL, the log rebuilt from scratch and signed again.
        const victim = (await h.store.transparency.entries(0, 1))[0]!.entryId;
        await sql`update postings set amount = amount + 100 where entry_id = ${victim} and owner_id = ${a.orgId}`.execute(h.store.db);
        await sql`update postings set amount = amount - 100 where entry_id = ${victim} and owner_id = 'platform'`.execute(h.store.db);
        await sql`delete from log_checkpoints`.execute(h.store.db);
        await sql`delete from log_nodes`.execute(h.store.db);
        await sql`delete from log_leaves`.execute(h.store.db);
        await sql`update log_head set size = 0, frontier = ''::bytea, last_txid = -1, last_seq = 0`.execute(h.store.db);
        assert.equal(
          (await h.op('POST', `/organizations/${a.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'cover' })).status,
          201,
        );
        await appendUntil(h, 10);
        const caught = await cambio(['verify', '--mine'], env);
        assert.equal(caught.code, 8, caught.stdout + caught.stderr);
        assert.match(caught.stderr, /^FAILED: the latest checkpoint 10 is not consistent with checkpoint 6 \(root [0-9a-f]{64}, seen /);
        // A client with no memory of the old checkpoints finds every entry in the new log; the snapshot, taken
        // before the rewrite, no longer matches its own ledger under the snapshot's log size.
        const fresh = mkdtempSync(join(tmpdir(), 'cambio-mine-'));
        try {
          const naive = await cambio(['verify', '--mine'], { ...env, HOME: fresh });
          assert.equal(naive.code, 8, naive.stdout + naive.stderr);
          assert.match(naive.stderr, /USD: the snapshot counts 750, but 850 is owed at log size 8/);
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }
        // Nothing seen is replaced by a history that failed.
        assert.deepEqual(
          (JSON.parse(readFileSync(seenFile, 'utf8'))[base] as typeof seen).checkpoints.map((c) => c.treeSize),
          [6, 8],
        );
      } finally {
        await h.close();
        rmSync(home, { recursive: true, force: true });
      }
    });

    test('a ledger row one unit off what the log holds exits 8 naming the entry and both amounts', async () => {
      const h = await makeHarness({ backend });
      const home = mkdtempSync(join(tmpdir(), 'cambio-mine-'));
      try {
        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        await listAssets(h, { USD: 2 });
        const a = await seedOrg(h, { balances: { USD: 1000n } });
        const env = { HOME: home, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: a.key };
        await appendUntil(h, 2);
        // The server shows the client 1001 where its log says 1000.
        const postings = h.store.accounts.postings.bind(h.store.accounts);
        h.store.accounts.postings = async (...args) => {
          const r = await postings(...args);
          return { ...r, items: r.items.map((p) => ({ ...p, amount: p.amount + 1n })) };
        };
        const lie = await cambio(['verify', '--mine'], env);
        assert.equal(lie.code, 8, lie.stdout + lie.stderr);
        assert.match(
          lie.stderr,
          /^FAILED: entry (je_\S+) under the signed checkpoint 2: the row shows available 1001 USD, but the logged leaf moves 1000 USD there\nfirst bad entry: \1\n$/,
        );
        h.store.accounts.postings = postings;
        const honest = await cambio(['verify', '--mine'], env);
        assert.equal(honest.code, 0, honest.stderr);
      } finally {
        await h.close();
        rmSync(home, { recursive: true, force: true });
      }
    });

    test('a snapshot one unit short, or without an asset the client holds, exits 8 naming the asset and both amounts', async () => {
      const h = await makeHarness({ backend });
      const home = mkdtempSync(join(tmpdir(), 'cambio-mine-'));
      try {
        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        await listAssets(h, { USD: 2, BTC: 8 });
        const a = await seedOrg(h, { balances: { USD: 1000n, BTC: 5n } });
        const env = { HOME: home, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: a.key };
        // A server that cheats on a's amounts: the snapshot is consistent in itself (roots, totals, paths).
        const owedAt = h.store.liabilities.owedAt.bind(h.store.liabilities);
        const cheat = (f: (o: { organizationId: string; assetSymbol: string; amount: bigint }) => bigint | null) => {
          h.store.liabilities.owedAt = async (n) => {
            const r = await owedAt(n);
            return {
              ...r,
              owed: r.owed.flatMap((o) => {
                const amount = o.organizationId === a.orgId ? f(o) : o.amount;
                return amount === null ? [] : [{ ...o, amount }];
              }),
            };
          };
        };
        cheat((o) => (o.assetSymbol === 'USD' ? o.amount - 1n : o.amount));
        assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
        const short = await cambio(['verify', '--mine'], env);
        assert.equal(short.code, 8, short.stdout + short.stderr);
        assert.match(short.stderr, /^FAILED: liabilities snapshot liab_\S+: USD: the snapshot counts 999, but 1000 is owed at log size 4/);

        cheat((o) => (o.assetSymbol === 'BTC' ? null : o.amount));
        assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
        const missing = await cambio(['verify', '--mine'], env);
        assert.equal(missing.code, 8, missing.stdout + missing.stderr);
        assert.match(missing.stderr, /^FAILED: liabilities snapshot liab_\S+: BTC: no leaf, but 5 is owed at log size 4/);

        h.store.liabilities.owedAt = owedAt;
        assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
        const honest = await cambio(['verify', '--mine'], env);
        assert.equal(honest.code, 0, honest.stderr);
        assert.match(honest.stdout, /counted in liabilities snapshot liab_\S+ at log size 4 \(BTC 5, USD 1000\)/);
      } finally {
        await h.close();
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
}
