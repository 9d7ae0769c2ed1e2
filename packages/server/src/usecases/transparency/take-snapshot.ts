import { randomBytes, randomInt } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Clock, Ids } from '../../domain/ports.ts';
import { buildSumTree, leafSalt, liabilitiesText, saltKey, sumLeafHash, type PublishedAsset } from '../../domain/transparency/sum-tree.ts';
import { logIdentity } from './log-signer.ts';
import type { NewSnapshot, Repositories, Snapshot } from '../repositories.ts';

type Deps = { config: Pick<Config, 'logName' | 'logSigningKey'>; store: Repositories; secret: string; clock: Clock; ids: Ids };

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
 * Takes a liabilities snapshot (CONTRACT §12): every organization's available + held per listed asset,
 * read at one moment, a Merkle sum tree per asset, and the published roots and totals signed with the
 * log's key. `daily`: the UTC day (YYYY-MM-DD) this is the daily snapshot of; null when that day's was
 * taken first (by another instance).
 */
export async function takeLiabilitiesSnapshot(deps: Deps, daily: string | null = null): Promise<Snapshot | null> {
  const id = deps.ids.next('liab');
  const takenAt = deps.clock.now();
  const key = saltKey(deps.secret);
  const { assets, owed } = await deps.store.liabilities.owed();
  const published: PublishedAsset[] = [];
  const trees: NewSnapshot['trees'] = [];
  for (const asset of assets) {
    const mine = shuffled(owed.filter((o) => o.assetSymbol === asset.symbol));
    const levels = buildSumTree(
      mine.map((o) => ({ hash: sumLeafHash(leafSalt(key, id, o.organizationId, asset.symbol), o.amount), sum: o.amount })),
      () => randomBytes(32),
    );
    const root = levels[levels.length - 1]![0]!;
    published.push({
      assetSymbol: asset.symbol,
      assetDecimals: asset.decimals,
      rootHash: root.hash.toString('hex'),
      totalMinor: root.sum.toString(),
      leafCount: mine.length,
    });
    trees.push({
      assetSymbol: asset.symbol,
      levels,
      leaves: mine.map((o, i) => ({ organizationId: o.organizationId, leafIndex: i, amount: o.amount })),
    });
  }
  const note = (await logIdentity(deps)).signer.sign(liabilitiesText(id, takenAt, published));
  const snapshot: NewSnapshot = {
    id,
    takenAt,
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
