import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { backends, listAssets, makeHarness, OPERATOR_TOKEN, seedOrg } from '../../server/test/harness.ts';
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
  describe(`cambio verify (${backend})`, () => {
    test('passes on honest books; a posting changed in SQL exits 8 naming its entry; a balance changed in SQL exits 8', async () => {
      const h = await makeHarness({ backend });
      const home = mkdtempSync(join(tmpdir(), 'cambio-verify-'));
      try {
        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        const env = { HOME: home, CAMBIO_BASE_URL: base, OPERATOR_TOKEN };
        await listAssets(h, { USD: 2, BTC: 8 });
        const a = await seedOrg(h, { balances: { USD: 1000n, BTC: 5n } });
        const b = await seedOrg(h, { balances: { USD: 70n } });
        for (const amount of [-300n, 45n]) {
          const r = await h.op('POST', `/organizations/${a.orgId}/adjustments`, {
            assetSymbol: 'USD',
            amountMinor: amount.toString(),
            reason: 'verify test',
          });
          assert.equal(r.status, 201, r.raw);
        }
        // Each funding or adjustment is two entries: the organization's and the platform's own.
        await appendUntil(h, 10);

        const good = await cambio(['verify'], env);
        assert.equal(good.code, 0, good.stderr);
        assert.match(good.stdout, /^ok: 10 entries, \d+ checkpoints signed by cambio\/localhost/);
        const json = await cambio(['verify', '--json'], env);
        assert.equal(json.code, 0, json.stderr);
        assert.equal((JSON.parse(json.stdout) as { entries: number }).entries, 10);

        // Someone with the database rewrites a posting (and its balance, so the balances still agree).
        const entries = await h.store.transparency.entries(0, 10);
        const victim = entries[6]!.entryId;
        await sql`update postings set amount = amount + 100 where entry_id = ${victim} and owner_id = ${a.orgId}`.execute(h.store.db);
        await sql`update postings set amount = amount - 100 where entry_id = ${victim} and owner_id = 'platform'`.execute(h.store.db);
        await sql`update accounts set balance = balance + 100 where owner_id = ${a.orgId} and asset_symbol = 'USD' and kind = 'available'`.execute(
          h.store.db,
        );
        const bad = await cambio(['verify'], env);
        assert.equal(bad.code, 8, bad.stdout + bad.stderr);
        assert.match(bad.stderr, new RegExp(`first bad entry: ${victim}`));
        assert.match(bad.stderr, /no longer matches its logged leaf/);
        const badJson = await cambio(['verify', '--json'], env);
        assert.equal(badJson.code, 8);
        assert.equal((JSON.parse(badJson.stderr) as { error: { entryId: string } }).error.entryId, victim);

        // Put back; then a balance changed alone no longer equals the postings.
        await sql`update postings set amount = amount - 100 where entry_id = ${victim} and owner_id = ${a.orgId}`.execute(h.store.db);
        await sql`update postings set amount = amount + 100 where entry_id = ${victim} and owner_id = 'platform'`.execute(h.store.db);
        await sql`update accounts set balance = balance - 100 where owner_id = ${a.orgId} and asset_symbol = 'USD' and kind = 'available'`.execute(
          h.store.db,
        );
        assert.equal((await cambio(['verify'], env)).code, 0);
        await sql`update accounts set balance = balance + 1 where owner_id = ${b.orgId} and asset_symbol = 'USD' and kind = 'available'`.execute(
          h.store.db,
        );
        const off = await cambio(['verify'], env);
        assert.equal(off.code, 8);
        assert.match(off.stderr, new RegExp(`${b.orgId} USD: balance 71, postings 70`));

        // Without the operator token it is a usage error, not a verdict.
        assert.equal((await cambio(['verify'], { HOME: home, CAMBIO_BASE_URL: base })).code, 1);
      } finally {
        await h.close();
        rmSync(home, { recursive: true, force: true });
      }
    });
  });
}
