import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { openSignedNote, requireCosignatures } from '@cambio/sdk';
import { backends, listAssets, makeHarness, OPERATOR_TOKEN, seedOrg } from '../../server/test/harness.ts';
import { appendUntil } from '../../server/test/log-append.ts';
import { sendToWitnesses } from '../../server/src/usecases/transparency/send-to-witnesses.ts';

const BIN = fileURLToPath(new URL('../bin/cambio.js', import.meta.url));

function cambio(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `cambio witness serve`, running until killed; resolves with its base url once it says it listens. */
function serve(args: string[], env: Record<string, string>): Promise<{ p: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, 'witness', 'serve', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^witness listening on (http:\/\/\S+:\d+)\n/m.exec(out);
      if (m) resolve({ p, url: m[1]! });
    });
    p.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => reject(new Error(`the witness exited (${code}): ${out}`)));
  });
}

describe('C2SP examples', () => {
  test("the signed-note example verifies with its vkey; the tlog-cosignature example's timestamp is read as the document's", async () => {
    const note =
      'This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';
    assert.equal(
      await openSignedNote(note, 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k'),
      'This is an example message.\n',
    );
    // tlog-cosignature.md: "— witness.example.com/w1 jWbPPw…" cosigned at "time 1679315147": key ID ‖ u64 timestamp ‖ signature.
    const blob = Buffer.from(
      'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==',
      'base64',
    );
    assert.equal(blob.length, 76);
    assert.equal(blob.readBigUInt64BE(4), 1679315147n);
  });
});

for (const backend of backends()) {
  describe(`cambio witness (${backend})`, () => {
    test('a witness cosigns each consistent checkpoint, refuses a forked one (422), answers 409 with its size on a stale old size, and a client requiring it catches the fork', async () => {
      const h = await makeHarness({ backend });
      const dir = mkdtempSync(join(tmpdir(), 'cambio-witness-'));
      const keyFile = join(dir, 'witness.key');
      const env = { HOME: dir };
      let w: ChildProcess | undefined;
      try {
        const key = await cambio(['witness', 'key', '--key-file', keyFile, '--name', 'witness.test/w1'], env);
        assert.equal(key.code, 0, key.stderr);
        assert.match(key.stdout, /^witness\.test\/w1\+[0-9a-f]{8}\+[A-Za-z0-9+/]{44}\n$/);
        const vkey = key.stdout.trim();
        assert.equal((await cambio(['witness', 'key', '--key-file', keyFile], env)).stdout.trim(), vkey, 'the key file is generated once');

        const base = await h.app.listen({ port: 0, host: '127.0.0.1' });
        const logKey = (await h.app.inject({ method: 'GET', url: '/transparency/key' })).body.trim();
        const served = await serve(['--key-file', keyFile, '--log-key', logKey, '--port', '0'], env);
        w = served.p;
        const witnesses = {
          config: { witnesses: [{ verifierKey: vkey, name: 'witness.test/w1', url: served.url }] },
          store: h.store,
          clock: h.deps.clock,
        };
        const checkpoint = async () => (await h.app.inject({ method: 'GET', url: '/transparency/checkpoint' })).body;

        await listAssets(h, { USD: 2 });
        const o = await seedOrg(h, { balances: { USD: 500n } });
        await appendUntil(h, 2);
        await sendToWitnesses(witnesses);
        let note = await checkpoint();
        assert.deepEqual(await requireCosignatures(note, [vkey]), ['witness.test/w1'], note);
        assert.equal(note.split('\n').filter((l) => l.startsWith('\u2014 ')).length, 2, "the log's signature, then the witness's");
        const clientEnv = { HOME: dir, CAMBIO_BASE_URL: base, CAMBIO_API_KEY: o.key };
        const ok = await cambio(['verify', '--mine', '--witness', vkey], clientEnv);
        assert.equal(ok.code, 0, ok.stderr);
        assert.match(ok.stdout, /; cosigned by witness\.test\/w1\n$/);

        // The log grows: the witness takes it with the consistency proof from the size it cosigned.
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '7', reason: 'more' });
        await appendUntil(h, 4);
        await sendToWitnesses(witnesses);
        note = await checkpoint();
        assert.deepEqual(await requireCosignatures(note, [vkey]), ['witness.test/w1']);
        assert.deepEqual(
          JSON.parse(readFileSync(`${keyFile}.state.json`, 'utf8'))['cambio/localhost'].size,
          4,
          'the state is kept beside the key',
        );

        // The operator's `cambio verify` requires it too: the checkpoint served to clients is cosigned and is the log's.
        const opEnv = { HOME: dir, CAMBIO_BASE_URL: base, OPERATOR_TOKEN };
        const opOk = await cambio(['verify', '--witness', vkey], opEnv);
        assert.equal(opOk.code, 0, opOk.stderr);
        assert.match(opOk.stdout, /; checkpoint 4 cosigned by witness\.test\/w1\n$/);
        const opJson = await cambio(['verify', '--json', '--witness', vkey], opEnv);
        assert.deepEqual(JSON.parse(opJson.stdout).cosigned, { treeSize: 4, by: ['witness.test/w1'] });
        const badQuorum = await cambio(['verify', '--witness', vkey, '--witness-quorum', '2'], opEnv);
        assert.equal(badQuorum.code, 1, badQuorum.stderr);
        assert.match(badQuorum.stderr, /--witness-quorum must be a whole number from 0 to the number of --witness keys \(1\)/);
        // The log grows and the witness has not seen the new checkpoint yet: not cosigned, exit 8 naming it.
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '3', reason: 'unseen' });
        await appendUntil(h, 6);
        const opUnseen = await cambio(['verify', '--witness', vkey], opEnv);
        assert.equal(opUnseen.code, 8, opUnseen.stdout + opUnseen.stderr);
        assert.match(
          opUnseen.stderr,
          /^FAILED: checkpoint 6: the checkpoint carries 0 valid cosignatures of the 1 witnesses trusted; 1 required\n/,
        );
        assert.equal((await cambio(['verify', '--witness', vkey, '--witness-quorum', '0'], opEnv)).code, 0, 'a quorum of 0 asks nothing');
        await sendToWitnesses(witnesses);
        note = await checkpoint();
        assert.equal((await cambio(['verify', '--witness', vkey], opEnv)).code, 0, 'cosigned once the witness saw it');

        // A stale old size: 409 with the size it knows.
        const stale = await fetch(`${served.url}/add-checkpoint`, { method: 'POST', body: `old 2\n\n${note}` });
        assert.equal(stale.status, 409);
        assert.equal(stale.headers.get('content-type'), 'text/x.tlog.size');
        assert.equal(await stale.text(), '6\n');

        // The operator forks the log: the same entries rewritten and signed again, then a larger tree.
        const victim = (await h.store.transparency.entries(0, 1))[0]!.entryId;
        await sql`update postings set amount = amount + 1 where entry_id = ${victim} and owner_id = ${o.orgId}`.execute(h.store.db);
        await sql`update postings set amount = amount - 1 where entry_id = ${victim} and owner_id = 'platform'`.execute(h.store.db);
        await sql`delete from log_cosignatures`.execute(h.store.db);
        await sql`delete from log_checkpoints`.execute(h.store.db);
        await sql`delete from log_nodes`.execute(h.store.db);
        await sql`delete from log_leaves`.execute(h.store.db);
        await sql`update log_head set size = 0, frontier = ''::bytea, last_txid = -1, last_seq = 0`.execute(h.store.db);
        await appendUntil(h, 6);
        // The same size with another root: never cosigned.
        const same = await fetch(`${served.url}/add-checkpoint`, { method: 'POST', body: `old 6\n\n${await checkpoint()}` });
        assert.equal(same.status, 422);
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'cover' });
        await appendUntil(h, 8);
        await sendToWitnesses(witnesses);
        note = await checkpoint();
        await assert.rejects(requireCosignatures(note, [vkey]), /0 valid cosignatures/);
        // A client that never saw the log before, but requires the witness: exit 8.
        const fresh = mkdtempSync(join(tmpdir(), 'cambio-witness-client-'));
        try {
          const caught = await cambio(['verify', '--mine', '--witness', vkey, '--witness-quorum', '1'], { ...clientEnv, HOME: fresh });
          assert.equal(caught.code, 8, caught.stdout + caught.stderr);
          assert.match(caught.stderr, /checkpoint 8: the checkpoint carries 0 valid cosignatures of the 1 witnesses trusted; 1 required/);
        } finally {
          rmSync(fresh, { recursive: true, force: true });
        }

        const opForked = await cambio(['verify', '--witness', vkey], opEnv);
        assert.equal(opForked.code, 8, opForked.stdout + opForked.stderr);
        assert.match(opForked.stderr, /^FAILED: checkpoint 8: the checkpoint carries 0 valid cosignatures/);

        // A witness that is down does not stop the log.
        w.kill('SIGTERM');
        w = undefined;
        await h.op('POST', `/organizations/${o.orgId}/adjustments`, { assetSymbol: 'USD', amountMinor: '1', reason: 'later' });
        await sendToWitnesses(witnesses);
        await appendUntil(h, 10);
      } finally {
        w?.kill('SIGTERM');
        await h.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
