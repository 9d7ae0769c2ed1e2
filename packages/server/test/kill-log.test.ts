import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { childService, until, type ChildService } from './child-service.ts';
import { backends, type Backend } from './harness.ts';
import { H_LEAF, mthOfHashes, openNote, parseCheckpoint } from './transparency-verifier.ts';

interface Entry {
  index: number;
  entryId: string;
  leaf: string;
  leafHash: string;
}
interface Cp {
  treeSize: number;
  rootHash: string;
  note: string;
}

async function get<T>(s: ChildService, i: number, path: string, operator = true): Promise<T> {
  const r = await fetch(`${s.url(i)}${path}`, { headers: operator ? { authorization: `Bearer ${s.operatorToken}` } : {} });
  assert.equal(r.status, 200, `${path}: ${r.status}`);
  return (operator ? ((await r.json()) as { data: T }).data : await r.text()) as T;
}
async function all<T>(s: ChildService, path: string, next: (last: T) => number): Promise<T[]> {
  const out: T[] = [];
  for (let from = 0; ;) {
    const page = await get<T[]>(s, 0, `${path}?from=${from}&limit=1000`);
    out.push(...page);
    if (page.length < 1000) return out;
    from = next(page[page.length - 1]!);
  }
}

/**
 * The journal log as an outsider checks it after crashes: every index once from 0 (no gap), every
 * entry once, each leaf hashing to its logged hash, and every signed checkpoint the root of the first
 * `treeSize` leaves (no fork: one history under every signature). Recomputed here from RFC 9162,
 * not by the service's code.
 */
async function checkLog(s: ChildService): Promise<{ entries: Entry[]; checkpoints: Cp[] }> {
  const key = (await get<string>(s, 0, '/transparency/key', false)).trim();
  const entries = await all<Entry>(s, '/operator/v1/transparency/entries', (e) => e.index + 1);
  const checkpoints = await all<Cp>(s, '/operator/v1/transparency/checkpoints', (c) => c.treeSize + 1);
  assert.deepEqual(
    entries.map((e) => e.index),
    entries.map((_, i) => i),
    'the log has no gap',
  );
  assert.equal(new Set(entries.map((e) => e.entryId)).size, entries.length, 'no entry is logged twice');
  const hashes = entries.map((e) => Buffer.from(e.leafHash, 'hex'));
  for (const e of entries) assert.equal(H_LEAF(Buffer.from(e.leaf, 'utf8')).toString('hex'), e.leafHash, `leaf ${e.index}`);
  assert.ok(checkpoints.length > 1);
  for (const c of checkpoints) {
    const cp = parseCheckpoint(openNote(c.note, key));
    assert.equal(cp.size, c.treeSize);
    assert.equal(
      cp.root.toString('hex'),
      mthOfHashes(hashes.slice(0, c.treeSize)).toString('hex'),
      `checkpoint ${c.treeSize} signs the root of the first ${c.treeSize} leaves`,
    );
  }
  return { entries, checkpoints };
}

/** Journal entries written without pause (adjustments of the demo organization) on the given instances. */
function load(s: ChildService, orgId: string, instances: number[]) {
  let stopped = false;
  let written = 0;
  const clients = instances.flatMap((i) =>
    [0, 1].map(async () => {
      while (!stopped) {
        try {
          const r = await fetch(`${s.url(i)}/operator/v1/organizations/${orgId}/adjustments`, {
            method: 'POST',
            headers: { authorization: `Bearer ${s.operatorToken}`, 'x-operator': 'kill@test', 'content-type': 'application/json' },
            body: JSON.stringify({ assetSymbol: 'USD', amountMinor: '1', reason: 'log under a kill' }),
          });
          if (r.status === 201) written++;
          else await r.text();
        } catch {
          await new Promise((r) => setTimeout(r, 20));
        } // the instance is down: try again
      }
    }),
  );
  return {
    written: () => written,
    stop: async () => {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

async function scenario(backend: Backend, instances: number) {
  const s = await childService(backend, {}, { instances });
  process.stderr.write(`${new Date().toISOString()} started\n`);
  try {
    const client = (await (await fetch(`${s.url(0)}/api/v1/client`, { headers: { 'x-api-key': s.apiKey } })).json()) as {
      data: { id: string };
    };
    // The demo's entries, logged by the first append (they were written before the service listened).
    const initial = await until(async () => {
      const n = (await all<Entry>(s, '/operator/v1/transparency/entries', (e) => e.index + 1)).length;
      return n > 0 ? n : undefined;
    });
    const w = load(
      s,
      client.data.id,
      Array.from({ length: instances }, (_, i) => i),
    );
    // Killed twice with entries being written and appended (the appender runs every second on each instance).
    for (let round = 0; round < 2; round++) {
      const before = w.written();
      await until(async () => (w.written() >= before + 30 ? true : undefined), 20);
      process.stderr.write(`${new Date().toISOString()} round ${round}: ${w.written()} written, killing\n`);
      await s.kill(0);
      if (instances > 1) await until(async () => (w.written() >= before + 45 ? true : undefined), 20); // the other instance goes on
      await s.start(0);
    }
    await w.stop();
    process.stderr.write(`${new Date().toISOString()} load stopped: ${w.written()} written\n`);
    // Every committed entry joins the log after the restart, and the log is one history.
    const size = await until(async () => {
      const cps = await get<Cp[]>(s, 0, '/operator/v1/transparency/checkpoints?from=0&limit=1000');
      const latest = cps.length ? cps[cps.length - 1]!.treeSize : 0;
      await new Promise((r) => setTimeout(r, 2_500));
      const again = await get<Cp[]>(s, 0, `/operator/v1/transparency/checkpoints?from=${latest}&limit=1000`);
      return again.length === 1 && latest > 0 ? latest : undefined;
    });
    process.stderr.write(`${new Date().toISOString()} log settled at ${size}\n`);
    const { entries } = await checkLog(s);
    assert.equal(entries.length, size);
    process.stderr.write(`${new Date().toISOString()} checked\n`);
    // Every acknowledged adjustment is logged, as two entries: the organization's against platform:clearing and
    // the platform's own (docs/transparency.md); beyond them, at most the calls in flight at each kill
    // (committed, unanswered).
    const inFlightAtKills = 2 * 2 * instances;
    const perAdjustment = 2;
    assert.ok(
      size >= initial + perAdjustment * w.written() && size <= initial + perAdjustment * (w.written() + inFlightAtKills),
      `${size} logged for ${initial} + ${w.written()} written`,
    );
  } finally {
    await s.cleanup();
  }
}

for (const backend of backends()) {
  describe(`the journal log survives a SIGKILL mid-append (${backend})`, () => {
    test('after restarts, no gap and no fork: every entry once, every checkpoint the root of its prefix', { timeout: 420_000 }, () =>
      scenario(backend, 1),
    );
    if (backend === 'postgres') {
      test('two instances append one log while one of them is killed and restarted', { timeout: 420_000 }, () => scenario(backend, 2));
    }
  });
}
