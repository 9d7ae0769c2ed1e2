import { sql } from 'kysely';
import { SUM_BYTES, type SumNode } from '../domain/transparency/sum-tree.ts';
import type { Db } from './db.ts';
import type { Tx } from './unit-of-work.ts';
import type { Owed, SnapshotAsset, Snapshot, NewSnapshot, LiabilitiesRepository } from '../usecases/repositories.ts';

export type { Owed, SnapshotAsset, Snapshot, NewSnapshot };

export interface OwnLeaf {
  assetSymbol: string;
  part: number;
  amount: bigint;
  leafIndex: number;
  path: SumNode[];
}

/** Rows a leaf insert carries at once. */
const LEAF_CHUNK = 20_000;

/**
 * Liabilities snapshots (migrations 025 and 065). Hashes and sums travel as hex text and are encoded in SQL,
 * so the two drivers' differing bytea values never reach the domain.
 */
export class LiabilitiesStore implements LiabilitiesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Every listed asset, and per organization and asset the sum of its postings (available + held) in the
   * log's entries with index < `treeSize`, when not zero, read in one statement (one moment). It is
   * counted as the balances now less the postings of the entries after them: those logged at `treeSize`
   * or later, and those not logged yet (after the log head's last entry, migration 022), so its cost
   * follows the organizations and the recent entries, not the journal's length.
   */
  async owedAt(treeSize: number): Promise<{ assets: Array<{ symbol: string; decimals: number }>; owed: Owed[] }> {
    const rows = (
      await sql<{ owner_id: string | null; symbol: string; decimals: number; total: string | null }>`
      with head as (select last_txid, last_seq from log_head where id = 1),
      later as (
        select p.owner_id, p.asset_symbol, p.amount from log_leaves l join postings p on p.entry_id = l.entry_id
        where l.idx >= ${String(treeSize)}::bigint and p.owner_id <> 'platform' and p.account_kind in ('available', 'held')
        union all
        select p.owner_id, p.asset_symbol, p.amount from head h
        join journal_entries e on (e.txid, e.seq) > (h.last_txid, h.last_seq)
        join postings p on p.entry_id = e.id
        where p.owner_id <> 'platform' and p.account_kind in ('available', 'held')),
      now as (
        select a.owner_id, a.asset_symbol, a.balance as amount from accounts a where a.owner_id <> 'platform' and a.kind in ('available', 'held')
        union all
        select owner_id, asset_symbol, -amount from later),
      o as (select owner_id, asset_symbol, sum(amount) as total from now group by owner_id, asset_symbol having sum(amount) <> 0)
      select o.owner_id, m.symbol, m.decimals, o.total::text as total from market_assets m
      left join o on o.asset_symbol = m.symbol
      order by m.symbol, o.owner_id`.execute(this.db)
    ).rows;
    const assets = new Map<string, number>();
    const owed: Owed[] = [];
    for (const r of rows) {
      assets.set(r.symbol, Number(r.decimals));
      if (r.owner_id !== null && r.total !== null)
        owed.push({ organizationId: r.owner_id, assetSymbol: r.symbol, amount: BigInt(r.total) });
    }
    return { assets: [...assets].map(([symbol, decimals]) => ({ symbol, decimals })), owed };
  }

  async hasDaily(day: string): Promise<boolean> {
    const r = (await sql<{ id: string }>`select id from liability_snapshots where daily = ${day}::date`.execute(this.db)).rows[0];
    return r !== undefined;
  }

  /** Saves the snapshot in `tx`; false when it is a daily one and that day's was saved first (by another instance). */
  async save(tx: Tx, s: NewSnapshot): Promise<boolean> {
    const claimed = (
      await sql<{ id: string }>`insert into liability_snapshots (id, taken_at, tree_size, daily, note)
      values (${s.id}, ${s.takenAt.toISOString()}::timestamptz, ${String(s.treeSize)}::bigint, ${s.daily}::date, ${s.note}) on conflict do nothing returning id`.execute(
        tx,
      )
    ).rows;
    if (claimed.length === 0) return false;
    for (const a of s.assets) {
      await sql`insert into liability_assets (snapshot_id, asset_symbol, asset_decimals, root_hash, total, leaf_count)
        values (${s.id}, ${a.assetSymbol}, ${a.assetDecimals}, decode(${a.rootHash.toString('hex')}, 'hex'), ${a.total.toString()}::numeric, ${a.leafCount})`.execute(
        tx,
      );
    }
    for (const t of s.trees) {
      for (const [level, nodes] of t.levels.entries()) {
        const hashes = Buffer.concat(nodes.map((n) => n.hash)).toString('hex');
        const sums = nodes.map((n) => n.sum.toString(16).padStart(SUM_BYTES * 2, '0')).join('');
        await sql`insert into liability_levels (snapshot_id, asset_symbol, level, hashes, sums)
          values (${s.id}, ${t.assetSymbol}, ${level}, decode(${hashes}, 'hex'), decode(${sums}, 'hex'))`.execute(tx);
      }
      for (let i = 0; i < t.leaves.length; i += LEAF_CHUNK) {
        const part = t.leaves.slice(i, i + LEAF_CHUNK);
        await sql`insert into liability_leaves (snapshot_id, organization_id, asset_symbol, part, leaf_index, amount)
          select ${s.id}, o, ${t.assetSymbol}, n, i, a from unnest(${part.map((l) => l.organizationId)}::text[], ${part.map((l) => l.part)}::smallint[], ${part.map((l) => l.leafIndex)}::int[], ${part.map((l) => l.amount.toString())}::numeric[]) as t(o, n, i, a)`.execute(
          tx,
        );
      }
    }
    return true;
  }

  /** The latest snapshot, or null before any. */
  async latest(): Promise<Snapshot | null> {
    return (await this.list(1))[0] ?? null;
  }

  /** The latest snapshots, newest first. */
  async list(limit: number): Promise<Snapshot[]> {
    const snaps = (
      await sql<{ id: string; taken_at: Date; tree_size: string; daily: string | null; note: string }>`
      select s.id, s.taken_at, s.tree_size::text as tree_size, s.daily::text as daily, s.note from liability_snapshots s order by s.taken_at desc, s.id desc limit ${limit}`.execute(
        this.db,
      )
    ).rows;
    if (snaps.length === 0) return [];
    const assets = (
      await sql<{ snapshot_id: string; asset_symbol: string; asset_decimals: number; root: string; total: string; leaf_count: number }>`
      select a.snapshot_id, a.asset_symbol, a.asset_decimals, encode(a.root_hash, 'hex') as root, a.total::text as total, a.leaf_count
      from liability_assets a where a.snapshot_id = any(${snaps.map((s) => s.id)}::text[]) order by a.asset_symbol`.execute(this.db)
    ).rows;
    return snaps.map((s) => ({
      id: s.id,
      takenAt: new Date(s.taken_at),
      treeSize: Number(s.tree_size),
      daily: s.daily,
      note: s.note,
      assets: assets
        .filter((a) => a.snapshot_id === s.id)
        .map((a) => ({
          assetSymbol: a.asset_symbol,
          assetDecimals: Number(a.asset_decimals),
          rootHash: Buffer.from(a.root, 'hex'),
          total: BigInt(a.total),
          leafCount: Number(a.leaf_count),
        })),
    }));
  }

  /** The organization's leaves (every part) in the snapshot, each with its path leaf → root (one node per level, read by offset). */
  async own(snapshotId: string, organizationId: string): Promise<OwnLeaf[]> {
    const leaves = (
      await sql<{ asset_symbol: string; part: number; leaf_index: number; amount: string; depth: string }>`
      select l.asset_symbol, l.part, l.leaf_index, l.amount::text as amount,
        (select count(*) from liability_levels v where v.snapshot_id = l.snapshot_id and v.asset_symbol = l.asset_symbol)::text as depth
      from liability_leaves l where l.snapshot_id = ${snapshotId} and l.organization_id = ${organizationId} order by l.asset_symbol, l.part`.execute(
        this.db,
      )
    ).rows;
    const out: OwnLeaf[] = [];
    for (const l of leaves) {
      const levels: number[] = [];
      const offsets: number[] = [];
      let at = Number(l.leaf_index);
      for (let level = 0; level < Number(l.depth) - 1; level++) {
        levels.push(level);
        offsets.push((at % 2 === 0 ? at + 1 : at - 1) * SUM_BYTES + 1);
        at = (at - (at % 2)) / 2;
      }
      const nodes =
        levels.length === 0
          ? []
          : (
              await sql<{ level: number; hash: string; sum: string }>`
        select v.level, encode(substring(v.hashes from k.off for ${SUM_BYTES}), 'hex') as hash, encode(substring(v.sums from k.off for ${SUM_BYTES}), 'hex') as sum
        from liability_levels v join unnest(${levels}::smallint[], ${offsets}::int[]) as k(lv, off) on v.level = k.lv
        where v.snapshot_id = ${snapshotId} and v.asset_symbol = ${l.asset_symbol} order by v.level`.execute(this.db)
            ).rows;
      out.push({
        assetSymbol: l.asset_symbol,
        part: Number(l.part),
        amount: BigInt(l.amount),
        leafIndex: Number(l.leaf_index),
        path: nodes.map((n) => ({ hash: Buffer.from(n.hash, 'hex'), sum: BigInt(`0x${n.sum}`) })),
      });
    }
    return out;
  }
}
