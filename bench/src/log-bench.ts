import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { systemClock } from '../../packages/server/src/domain/ports.ts';
import { randomIds } from '../../packages/server/src/domain/ids.ts';
import { appendLeaves, inclusionProof, subtrees } from '../../packages/server/src/domain/transparency/merkle.ts';
import { migrate, openDatabase } from '../../packages/server/src/store/db.ts';
import { Store } from '../../packages/server/src/store/index.ts';
import { STORED_FROM_LEVEL } from '../../packages/server/src/store/transparency-store.ts';
import { appendJournalLog } from '../../packages/server/src/usecases/transparency/append-log.ts';
import { takeLiabilitiesSnapshot } from '../../packages/server/src/usecases/transparency/take-snapshot.ts';
import type { StoreKind } from './report.ts';
import { createDatabase } from './databases.ts';

const SECRET = 'bench-secret-0123456789abcdef0123456789';
const CONFIG = { logName: 'bench', logSigningKey: undefined };
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

export interface LogBenchRecord {
  store: StoreKind;
  append: { entries: number; seconds: number; entriesPerSec: number };
  proof: { logSize: number; proofs: number; p50Ms: number; p99Ms: number; buildSeconds: number };
  snapshot: { organizations: number; assets: number; leaves: number; seconds: number };
}

/** Journal entries of two postings each, written straight into the store (one statement per 5,000). */
async function writeEntries(store: Store, n: number): Promise<void> {
  for (let at = 0; at < n; at += 5000) {
    const k = Math.min(5000, n - at);
    const ids = Array.from({ length: k }, () => randomIds.next('je'));
    await sql`insert into journal_entries (id, kind, created_at) select i, 'adjustment', now() from unnest(${ids}::text[]) as t(i)`.execute(
      store.db,
    );
    await sql`insert into postings (entry_id, owner_id, account_kind, asset_symbol, amount, entry_kind, created_at)
      select i, o, 'available', 'USD', a, 'adjustment', now() from unnest(${[...ids, ...ids]}::text[], ${[...ids.map(() => 'org_bench'), ...ids.map(() => 'platform')]}::text[], ${[...ids.map(() => '1'), ...ids.map(() => '-1')]}::numeric[]) as t(i, o, a)`.execute(
      store.db,
    );
  }
}

/** A log of `size` leaves written straight into its tables (random leaf hashes, entries that do not exist), as the appender would leave it. */
async function bulkLog(store: Store, size: number): Promise<void> {
  let frontier: Buffer[] = [];
  for (let at = 0; at < size; at += 50_000) {
    const k = Math.min(50_000, size - at);
    const leafHashes = Array.from({ length: k }, () => randomBytes(32));
    const grown = appendLeaves(at, frontier, leafHashes);
    frontier = grown.frontier;
    await sql`insert into log_leaves (idx, entry_id, leaf_hash) select i, 'je_bulk' || i, decode(h, 'hex')
      from unnest(${leafHashes.map((_, i) => String(at + i))}::bigint[], ${leafHashes.map((h) => h.toString('hex'))}::text[]) as t(i, h)`.execute(
      store.db,
    );
    const stored = grown.nodes.filter((n) => n.level >= STORED_FROM_LEVEL);
    for (let i = 0; i < stored.length; i += 50_000) {
      const part = stored.slice(i, i + 50_000);
      await sql`insert into log_nodes (level, idx, hash) select l, i, decode(h, 'hex') from unnest(${part.map((n) => n.level)}::smallint[], ${part.map((n) => String(n.index))}::bigint[], ${part.map((n) => n.hash.toString('hex'))}::text[]) as t(l, i, h)`.execute(
        store.db,
      );
    }
  }
  if (subtrees([0, size]).length !== frontier.length) throw new Error('the bulk log is not whole');
}

/** `orgs` organizations owed something in each of two assets, written straight into the accounts. */
async function bulkAccounts(store: Store, orgs: number): Promise<void> {
  await sql`insert into market_assets (symbol, decimals, updated_at) values ('USD', 2, now()), ('BTC', 8, now()) on conflict do nothing`.execute(
    store.db,
  );
  for (let at = 0; at < orgs; at += 20_000) {
    const k = Math.min(20_000, orgs - at);
    const owners = Array.from({ length: k }, (_, i) => `org_bench${at + i}`);
    for (const asset of ['USD', 'BTC']) {
      await sql`insert into accounts (owner_id, asset_symbol, kind, balance) select o, ${asset}, 'available', b from unnest(${owners}::text[], ${owners.map(() => String(1 + randomInt(1_000_000_000)))}::numeric[]) as t(o, b)`.execute(
        store.db,
      );
    }
  }
}

async function withStore<T>(kind: StoreKind, adminUrl: string, f: (s: Store) => Promise<T>): Promise<T> {
  const pg = kind === 'postgres' ? await createDatabase(adminUrl, 'cambio_logbench') : null;
  const dir = pg ? null : mkdtempSync(join(tmpdir(), 'cambio-logbench-'));
  const opened = await openDatabase({ databaseUrl: pg?.url, dataDir: dir ?? '' });
  const store = new Store(opened, randomIds, systemClock);
  try {
    await migrate(opened.db);
    return await f(store);
  } finally {
    await store.close();
    await pg?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The journal log's costs: how fast the appender logs committed entries (what bounds the lag behind a
 * write rate), an inclusion proof's latency in a large log, and a liabilities snapshot over many
 * organizations × 2 assets. Each on a fresh store.
 */
export async function logBench(
  kind: StoreKind,
  adminUrl: string,
  o: { entries: number; logSize: number; orgs: number },
): Promise<LogBenchRecord> {
  const deps = (store: Store) => ({ config: CONFIG, store, secret: SECRET, clock: systemClock, ids: randomIds });
  const append = await withStore(kind, adminUrl, async (store) => {
    await writeEntries(store, o.entries);
    const t0 = process.hrtime.bigint();
    let logged = 0;
    while (logged < o.entries) logged += await appendJournalLog(deps(store));
    const seconds = ms(t0) / 1000;
    return { entries: logged, seconds, entriesPerSec: Math.round(logged / seconds) };
  });
  const proof = await withStore(kind, adminUrl, async (store) => {
    const t0 = process.hrtime.bigint();
    await bulkLog(store, o.logSize);
    const buildSeconds = ms(t0) / 1000;
    const times: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const t = process.hrtime.bigint();
      await inclusionProof(randomInt(o.logSize), o.logSize, store.transparency);
      times.push(ms(t));
    }
    return { logSize: o.logSize, proofs: times.length, p50Ms: pct(times, 50), p99Ms: pct(times, 99), buildSeconds };
  });
  const snapshot = await withStore(kind, adminUrl, async (store) => {
    await bulkAccounts(store, o.orgs);
    const t0 = process.hrtime.bigint();
    const s = await takeLiabilitiesSnapshot(deps(store));
    // Each organization's amount is 2 to 4 parts, each a leaf.
    if (!s || s.assets.some((a) => a.leafCount < 2 * o.orgs || a.leafCount > 4 * o.orgs))
      throw new Error('the snapshot does not hold every organization');
    return {
      organizations: o.orgs,
      assets: s.assets.length,
      leaves: s.assets.reduce((n, a) => n + a.leafCount, 0),
      seconds: ms(t0) / 1000,
    };
  });
  return { store: kind, append, proof, snapshot };
}
