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
        await appendUntil(h, 3);

        const first = await cambio(['verify', '--mine'], env);
        assert.equal(first.code, 0, first.stderr);
        assert.equal(
          first.stdout,
          'ok: 2 own entries in the log under checkpoint 3 signed by cambio/localhost; consistent with 0 checkpoints seen before; no liabilities snapshot yet\n',
        );
        const seenFile = join(home, '.config', 'cambio', 'seen-checkpoints.json');
        assert.ok(existsSync(seenFile), 'the checkpoint seen is kept in the config folder');
        assert.equal(statSync(seenFile).mode & 0o077, 0);
        const seen = JSON.parse(readFileSync(seenFile, 'utf8'))[base] as { checkpoints: Array<{ treeSize: number; rootHash: string }> };
        assert.deepEqual(
          seen.checkpoints.map((c) => c.treeSize),
          [3],
        );

        // More entries and a liabilities snapshot: still consistent, and the organization's leaves verify.
        assert.equal(
          (await h.op('POST', `/organizations/${a.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '-250', reason: 'fee' })).status,
          201,
        );
        await appendUntil(h, 4);
        assert.equal((await h.op('POST', '/liabilities/snapshots')).status, 201);
        const second = await cambio(['verify', '--mine', '--json'], env);
        assert.equal(second.code, 0, second.stderr);
        const out = JSON.parse(second.stdout) as {
          entries: number;
          checkpoint: { treeSize: number };
          checkpointsSeenBefore: number;
          liabilities: string;
        };
        assert.deepEqual([out.entries, out.checkpoint.treeSize, out.checkpointsSeenBefore], [3, 4, 1]);
        assert.match(out.liabilities, /^counted in liabilities snapshot liab_\S+ \(BTC, USD\)$/);

        // The operator rewrites history: a posting changed in SQL, the log rebuilt from scratch and signed again.
        const victim = (await h.store.transparency.entries(1, 1))[0]!.entryId;
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
        await appendUntil(h, 5);
        const caught = await cambio(['verify', '--mine'], env);
        assert.equal(caught.code, 8, caught.stdout + caught.stderr);
        assert.match(caught.stderr, /^FAILED: the latest checkpoint 5 is not consistent with checkpoint 3 \(root [0-9a-f]{64}, seen /);
        // A client with no memory of the old checkpoints would be none the wiser: that is why they are kept.
        const fresh = mkdtempSync(join(tmpdir(), 'cambio-mine-'));
        try {
          const naive = await cambio(['verify', '--mine'], { ...env, HOME: fresh });
          assert.equal(naive.code, 0, naive.stderr);
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }
        // Nothing seen is replaced by a history that failed.
        assert.deepEqual(
          (JSON.parse(readFileSync(seenFile, 'utf8'))[base] as typeof seen).checkpoints.map((c) => c.treeSize),
          [3, 4],
        );
      } finally {
        await h.close();
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
}
