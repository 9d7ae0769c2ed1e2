import { sql } from 'kysely';
import { canonicalLeaf, type LeafPosting } from '../domain/transparency/leaf.ts';
import { completeSubtreeHash, HASH_BYTES, nodeKey, type NodeKey, type NodeReader } from '../domain/transparency/merkle.ts';
import type { Clock } from '../domain/ports.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { SignCheckpoint, LogHead, FinishedEntry, TransparencyRepository } from '../usecases/repositories.ts';

export type { SignCheckpoint, LogHead, FinishedEntry };

export interface Checkpoint {
  size: number;
  root: Buffer;
  note: string;
  createdAt: Date;
}
export interface LoggedEntry {
  index: number;
  entryId: string;
  leaf: string;
  leafHash: Buffer;
}

/**
 * Complete subtrees lower than this are not stored: each is folded from its 16 or fewer leaf hashes
 * (migration 035), so appending writes a node for every 16 leaves rather than about two per leaf.
 */
export const STORED_FROM_LEVEL = 4;

const hexes = (b: Buffer): Buffer[] =>
  Array.from({ length: b.length / HASH_BYTES }, (_, i) => b.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES));

/**
 * The journal log's store (migration 022). Every `order by` names its table: a bare name would be the
 * select list's text column of that name, and sort 10 before 9. Hashes travel as hex text and are encoded in SQL, so the two
 * drivers' differing bytea values never reach the domain.
 */
export class TransparencyStore implements NodeReader, TransparencyRepository {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The log's head (its size, its frontier and the last entry it took), its row locked until `tx` ends: a second appender waits. */
  async lockHead(tx: Tx): Promise<LogHead> {
    const head = (
      await sql<{ size: string; frontier: string; last_txid: string; last_seq: string }>`
      select size::text, encode(frontier, 'hex') as frontier, last_txid::text, last_seq::text from log_head where id = 1 for update`.execute(
        tx,
      )
    ).rows[0];
    if (!head) throw new Error('the log has no head row (migration 022)');
    return {
      size: Number(head.size),
      frontier: hexes(Buffer.from(head.frontier, 'hex')),
      last: { txid: head.last_txid, seq: head.last_seq },
    };
  }

  /**
   * The next journal entries after `after` whose transactions are all over, in (txid, seq) order, at most
   * `limit`, each with its postings: a transaction older than every running one is over, so its entries
   * are final and none it wrote can still appear behind this cursor (migration 022).
   */
  async finishedEntriesAfter(tx: Tx, after: LogHead['last'], limit: number): Promise<FinishedEntry[]> {
    const entries = (
      await sql<{ id: string; seq: string; txid: string; kind: string; created_at: Date }>`
      select e.id, e.seq::text, e.txid::text, e.kind, e.created_at from journal_entries e
      where e.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
        and (e.txid, e.seq) > (${after.txid}::bigint, ${after.seq}::bigint)
      order by e.txid, e.seq limit ${limit}`.execute(tx)
    ).rows;
    if (entries.length === 0) return [];
    const postings = await postingsOf(
      tx,
      entries.map((e) => e.id),
    );
    return entries.map((e) => ({
      id: e.id,
      txid: e.txid,
      seq: e.seq,
      kind: e.kind,
      createdAt: e.created_at,
      postings: postings.get(e.id) ?? [],
    }));
  }

  /**
   * The log grows by `leafHashes` (of `entryIds`, from index `from`): their leaves, the new complete
   * subtrees of height STORED_FROM_LEVEL and more, the head (size, frontier, last entry) and the
   * signed checkpoint of the new size.
   */
  async grow(
    tx: Tx,
    g: {
      from: number;
      entryIds: string[];
      leafHashes: Buffer[];
      nodes: Array<{ level: number; index: number; hash: Buffer }>;
      frontier: Buffer[];
      last: LogHead['last'];
      root: Buffer;
      note: string;
      at: Date;
    },
  ): Promise<void> {
    const size = g.from + g.entryIds.length;
    await sql`insert into log_leaves (idx, entry_id, leaf_hash)
      select i, e, decode(h, 'hex') from unnest(${g.entryIds.map((_, i) => String(g.from + i))}::bigint[], ${g.entryIds}::text[], ${g.leafHashes.map((h) => h.toString('hex'))}::text[]) as t(i, e, h)`.execute(
      tx,
    );
    const stored = g.nodes.filter((n) => n.level >= STORED_FROM_LEVEL);
    if (stored.length > 0) {
      await sql`insert into log_nodes (level, idx, hash)
        select l, i, decode(h, 'hex') from unnest(${stored.map((n) => n.level)}::smallint[], ${stored.map((n) => String(n.index))}::bigint[], ${stored.map((n) => n.hash.toString('hex'))}::text[]) as t(l, i, h)`.execute(
        tx,
      );
    }
    await sql`update log_head set size = ${String(size)}::bigint, frontier = decode(${Buffer.concat(g.frontier).toString('hex')}, 'hex'),
      last_txid = ${g.last.txid}::bigint, last_seq = ${g.last.seq}::bigint where id = 1`.execute(tx);
    await sql`insert into log_checkpoints (size, root, note, created_at)
      values (${String(size)}::bigint, decode(${g.root.toString('hex')}, 'hex'), ${g.note}, ${g.at.toISOString()}::timestamptz)`.execute(
      tx,
    );
  }

  /**
   * Nodes of height STORED_FROM_LEVEL and more are one primary-key lookup each (a plain join with the keys
   * lets the planner hash the whole table once the log is large); a lower one is folded from the leaf
   * hashes under it, read as one range each.
   */
  async nodes(keys: readonly NodeKey[]): Promise<Map<string, Buffer>> {
    const high = keys.filter((k) => k.level >= STORED_FROM_LEVEL);
    const low = keys.filter((k) => k.level < STORED_FROM_LEVEL);
    const span = (k: NodeKey) => [k.index * 2 ** k.level, (k.index + 1) * 2 ** k.level] as const;
    // One statement, so a proof is one round trip: the stored nodes, then the leaves under the lower ones.
    const rows = (
      await sql<{ stored: boolean; level: number; idx: string; hash: string }>`
      select true as stored, n.level, n.idx::text as idx, encode(n.hash, 'hex') as hash
      from unnest(${high.map((k) => k.level)}::smallint[], ${high.map((k) => String(k.index))}::bigint[]) as k(l, i)
      cross join lateral (select level, idx, hash from log_nodes where level = k.l and idx = k.i) n
      union all
      select false, 0, l.idx::text, encode(l.leaf_hash, 'hex')
      from unnest(${low.map((k) => String(span(k)[0]))}::bigint[], ${low.map((k) => String(span(k)[1]))}::bigint[]) as r(lo, hi)
      cross join lateral (select idx, leaf_hash from log_leaves where idx >= r.lo and idx < r.hi) l`.execute(this.db)
    ).rows;
    const out = new Map<string, Buffer>();
    const leaves = new Map<number, Buffer>();
    for (const r of rows) {
      if (r.stored) out.set(nodeKey({ level: Number(r.level), index: Number(r.idx) }), Buffer.from(r.hash, 'hex'));
      else leaves.set(Number(r.idx), Buffer.from(r.hash, 'hex'));
    }
    for (const k of low) {
      const [lo, hi] = span(k);
      const under: Buffer[] = [];
      for (let i = lo; i < hi; i++) {
        const h = leaves.get(i);
        if (h) under.push(h);
      }
      // A range not wholly logged is left out: rangeHashes names the missing node.
      if (under.length === hi - lo) out.set(nodeKey(k), completeSubtreeHash(under));
    }
    return out;
  }

  /** The cosignature lines kept for the checkpoint of `size`, by witness name. */
  async cosignatures(size: number): Promise<Map<string, string>> {
    const rows = (
      await sql<{
        witness: string;
        line: string;
      }>`select c.witness, c.line from log_cosignatures c where c.size = ${String(size)}::bigint order by c.witness`.execute(this.db)
    ).rows;
    return new Map(rows.map((r) => [r.witness, r.line]));
  }

  async addCosignature(size: number, witness: string, line: string, at: Date): Promise<void> {
    await sql`insert into log_cosignatures (size, witness, line, created_at)
      values (${String(size)}::bigint, ${witness}, ${line}, ${at.toISOString()}::timestamptz) on conflict do nothing`.execute(this.db);
  }

  async unloggedEntryIds(): Promise<string[]> {
    const rows = (
      await sql<{
        id: string;
      }>`select e.id from log_head h join journal_entries e on (e.txid, e.seq) > (h.last_txid, h.last_seq) where h.id = 1`.execute(this.db)
    ).rows;
    return rows.map((r) => r.id);
  }

  async loggedCount(entryIds: readonly string[]): Promise<number> {
    if (entryIds.length === 0) return 0;
    const r = (
      await sql<{ n: string }>`select count(*)::text as n from log_leaves l where l.entry_id = any(${[...entryIds]}::text[])`.execute(
        this.db,
      )
    ).rows[0];
    return Number(r?.n ?? 0);
  }

  async latestCheckpoint(): Promise<Checkpoint | null> {
    const r = (
      await sql<CheckpointRow>`select size::text, encode(root, 'hex') as root, note, created_at from log_checkpoints c order by c.size desc limit 1`.execute(
        this.db,
      )
    ).rows[0];
    return r ? toCheckpoint(r) : null;
  }

  async checkpoint(size: number): Promise<Checkpoint | null> {
    const r = (
      await sql<CheckpointRow>`select size::text, encode(root, 'hex') as root, note, created_at from log_checkpoints where size = ${String(size)}::bigint`.execute(
        this.db,
      )
    ).rows[0];
    return r ? toCheckpoint(r) : null;
  }

  /** Checkpoints from the size `fromSize` on, oldest first. */
  async checkpoints(fromSize: number, limit: number): Promise<Checkpoint[]> {
    const rows = (
      await sql<CheckpointRow>`select size::text, encode(root, 'hex') as root, note, created_at from log_checkpoints c
      where c.size >= ${String(fromSize)}::bigint order by c.size limit ${limit}`.execute(this.db)
    ).rows;
    return rows.map(toCheckpoint);
  }

  /** The entry's leaf index, or null while it is not in the log; `owned`: one of its postings is the organization's. */
  async leafOf(entryId: string, organizationId: string): Promise<{ exists: boolean; owned: boolean; index: number | null }> {
    const r = (
      await sql<{ owned: boolean; idx: string | null }>`
      select exists (select 1 from postings p where p.entry_id = e.id and p.owner_id = ${organizationId}) as owned,
        (select l.idx::text from log_leaves l where l.entry_id = e.id) as idx
      from journal_entries e where e.id = ${entryId}`.execute(this.db)
    ).rows[0];
    if (!r) return { exists: false, owned: false, index: null };
    return { exists: true, owned: r.owned, index: r.idx === null ? null : Number(r.idx) };
  }

  /** Logged entries from leaf index `from`, each leaf rebuilt from the postings as stored now, and its hash as logged. */
  async entries(from: number, limit: number): Promise<LoggedEntry[]> {
    const rows = (
      await sql<{ idx: string; entry_id: string; leaf_hash: string; kind: string; created_at: Date }>`
      select l.idx::text, l.entry_id, encode(l.leaf_hash, 'hex') as leaf_hash, e.kind, e.created_at
      from log_leaves l join journal_entries e on e.id = l.entry_id
      where l.idx >= ${String(from)}::bigint order by l.idx limit ${limit}`.execute(this.db)
    ).rows;
    const postings = await postingsOf(
      this.db,
      rows.map((r) => r.entry_id),
    );
    return rows.map((r) => ({
      index: Number(r.idx),
      entryId: r.entry_id,
      leafHash: Buffer.from(r.leaf_hash, 'hex'),
      leaf: canonicalLeaf({
        index: Number(r.idx),
        entryId: r.entry_id,
        createdAt: r.created_at,
        kind: r.kind,
        postings: postings.get(r.entry_id) ?? [],
      }),
    }));
  }

  /** How many entries are logged (the head's size: it may be ahead of the latest checkpoint by nothing, both move in one transaction). */
  async size(): Promise<number> {
    const r = (await sql<{ size: string }>`select size::text from log_head where id = 1`.execute(this.db)).rows[0];
    return Number(r?.size ?? 0);
  }
}

type CheckpointRow = { size: string; root: string; note: string; created_at: Date };
const toCheckpoint = (r: CheckpointRow): Checkpoint => ({
  size: Number(r.size),
  root: Buffer.from(r.root, 'hex'),
  note: r.note,
  createdAt: r.created_at,
});

/** Each entry's postings in their stored order. */
async function postingsOf(db: Db | Tx, entryIds: string[]): Promise<Map<string, LeafPosting[]>> {
  const out = new Map<string, LeafPosting[]>();
  if (entryIds.length === 0) return out;
  const rows = (
    await sql<{ entry_id: string; owner_id: string; account_kind: string; asset_symbol: string; amount: string }>`
    select entry_id, owner_id, account_kind, asset_symbol, amount::text from postings where entry_id = any(${entryIds}::text[]) order by postings.id`.execute(
      db,
    )
  ).rows;
  for (const r of rows) {
    let list = out.get(r.entry_id);
    if (!list) out.set(r.entry_id, (list = []));
    list.push({ ownerId: r.owner_id, accountKind: r.account_kind, assetSymbol: r.asset_symbol, amount: BigInt(r.amount) });
  }
  return out;
}
