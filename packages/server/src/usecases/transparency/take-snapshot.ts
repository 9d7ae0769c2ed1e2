import { randomBytes, randomInt } from 'node:crypto';
import type { Config } from '../../config.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Clock, Ids } from '../../domain/ports.ts';
import {
  buildSumTree,
  leafSalt,
  liabilitiesText,
  MAX_PARTS,
  MAX_SUM,
  MIN_PARTS,
  saltKey,
  splitAmount,
  sumLeafHash,
  type PublishedAsset,
} from '../../domain/transparency/sum-tree.ts';
import { appendJournalLog } from './append-log.ts';
import { logIdentity } from './log-signer.ts';
import type { NewSnapshot, Repositories, Snapshot } from '../repositories.ts';

type Deps = { config: Pick<Config, 'logName' | 'logSigningKey'>; store: Repositories; secret: string; clock: Clock; ids: Ids };

/** How long a snapshot waits for the log to take the entries committed before it began. */
export const LOG_WAIT_MS = 60_000;

/** A uniformly shuffled copy: a leaf's position says nothing of whose it is. */
function shuffled<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The log's size once it holds every entry committed before this call: the entries not logged now are
 * appended (by this instance or another), and the size is that of the checkpoint signed then.
 */
async function logSizeHoldingAllCommitted(deps: Deps): Promise<number> {
  const waiting = await deps.store.transparency.unloggedEntryIds();
  const until = Date.now() + LOG_WAIT_MS;
  for (;;) {
    await appendJournalLog(deps);
    if ((await deps.store.transparency.loggedCount(waiting)) === waiting.length) break;
    // An older transaction still open holds the log back (migration 022): wait for it, a while.
    if (Date.now() > until)
      throw new Error(`the journal log did not take the entries committed before the snapshot within ${LOG_WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const cp = await deps.store.transparency.latestCheckpoint();
  return cp?.size ?? 0;
}

/**
 * Takes a liabilities snapshot (docs/transparency.md) at a log size: `treeSize` is that of the checkpoint
 * signed once the log holds every entry committed before the snapshot began, and each organization's
 * amount per listed asset is exactly the sum of its postings (available + held) in the log's entries with
 * index < treeSize. Each amount is split into 2 to 4 random parts, each a leaf at a random position of the
 * asset's Merkle sum tree; the published roots and totals are signed with the log's key. A total past
 * 2^256 − 1 has no encoding: refused (`liabilities.total_too_large`) before anything is written.
 * `daily`: the UTC day (YYYY-MM-DD) this is the daily snapshot of; null when that day's was taken first
 * (by another instance).
 */
export async function takeLiabilitiesSnapshot(deps: Deps, daily: string | null = null): Promise<Snapshot | null> {
  const id = deps.ids.next('liab');
  const takenAt = deps.clock.now();
  const treeSize = await logSizeHoldingAllCommitted(deps);
  const key = saltKey(deps.secret);
  const { assets, owed } = await deps.store.liabilities.owedAt(treeSize);
  const published: PublishedAsset[] = [];
  const trees: NewSnapshot['trees'] = [];
  for (const asset of assets) {
    const mine = owed.filter((o) => o.assetSymbol === asset.symbol);
    let total = 0n;
    for (const o of mine) total += o.amount;
    const below = mine.find((o) => o.amount < 0n);
    if (below) throw new Error(`${below.organizationId} is owed ${below.amount} ${asset.symbol} at log size ${treeSize}: below zero`);
    if (total > MAX_SUM) throw new DomainError('liabilities.total_too_large', { asset: asset.symbol, total: total.toString() });
    const parts = shuffled(
      mine.flatMap((o) =>
        splitAmount(o.amount, MIN_PARTS + randomInt(MAX_PARTS - MIN_PARTS + 1)).map((amount, part) => ({
          organizationId: o.organizationId,
          part,
          amount,
        })),
      ),
    );
    const levels = buildSumTree(
      parts.map((p) => {
        const name = { snapshotId: id, organizationId: p.organizationId, assetSymbol: asset.symbol, part: p.part };
        return { hash: sumLeafHash(name, leafSalt(key, name), p.amount), sum: p.amount };
      }),
      () => randomBytes(32),
    );
    const root = levels[levels.length - 1]![0]!;
    published.push({
      assetSymbol: asset.symbol,
      assetDecimals: asset.decimals,
      rootHash: root.hash.toString('hex'),
      totalMinor: root.sum.toString(),
      leafCount: parts.length,
    });
    trees.push({ assetSymbol: asset.symbol, levels, leaves: parts.map((p, i) => ({ ...p, leafIndex: i })) });
  }
  const note = (await logIdentity(deps)).signer.sign(liabilitiesText(id, takenAt, treeSize, published));
  const snapshot: NewSnapshot = {
    id,
    takenAt,
    treeSize,
    daily,
    note,
    trees,
    assets: published.map((a) => ({
      assetSymbol: a.assetSymbol,
      assetDecimals: a.assetDecimals,
      rootHash: Buffer.from(a.rootHash, 'hex'),
      total: BigInt(a.totalMinor),
      leafCount: a.leafCount,
    })),
  };
  if (!(await deps.store.uow.run((tx) => deps.store.liabilities.save(tx, snapshot)))) return null;
  const { trees: _trees, ...saved } = snapshot;
  return saved;
}

/** The UTC day of `at`, YYYY-MM-DD. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * The daily snapshot: once per UTC day, at the first run from 00:00 UTC on (or the first after a start,
 * if the service was down at midnight). Instances race for it safely: the day is unique in the store.
 */
export async function takeDailySnapshot(deps: Deps): Promise<Snapshot | null> {
  const day = utcDay(deps.clock.now());
  if (await deps.store.liabilities.hasDaily(day)) return null;
  return takeLiabilitiesSnapshot(deps, day);
}
