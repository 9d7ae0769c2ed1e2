import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  CambioError,
  CosignatureError,
  requireCosignatures,
  verifyCheckpoint,
  verifyConsistency,
  type Checkpoint,
  type LedgerEntry,
} from '@cambio/sdk';
import { configPath } from '../config.ts';
import type { Ctx } from '../context.ts';
import { BooksMismatch } from '../output.ts';

/** A checkpoint this client saw and checked, kept so a later rewrite of the history is caught here. */
interface Seen {
  treeSize: number;
  rootHash: string;
  seenAt: string;
}
interface SeenFile {
  verifierKey: string;
  checkpoints: Seen[];
}
/** How many checkpoints seen are kept per service: each is checked against the latest at every run. */
const KEEP = 50;

/** `<config folder>/seen-checkpoints.json`, per service root. */
export const seenPath = (env: NodeJS.ProcessEnv): string => join(dirname(configPath(env)), 'seen-checkpoints.json');

function readSeen(path: string): Record<string, SeenFile> {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, SeenFile>) : {};
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`the checkpoints seen before, in ${path}, cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function writeSeen(path: string, all: Record<string, SeenFile>): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * `cambio verify --mine` (a client key): the latest checkpoint's signature, its consistency with every
 * checkpoint this machine saw before (a history rewritten after the client saw it fails here, naming the
 * checkpoint), the inclusion of every one of the organization's ledger entries under it (its postings on
 * `org:<own id>:available|held` equal to the row), and, when a snapshot exists, the organization's leaves in
 * the published liabilities, their amounts equal to its own ledger rows under the snapshot's log size.
 * Exits 8 on any mismatch.
 */
export async function verifyMine(
  ctx: Ctx,
  w: { witnesses: readonly string[]; quorum: number } = { witnesses: [], quorum: 0 },
): Promise<void> {
  const s = ctx.settings();
  const cambio = ctx.sdk();
  const path = seenPath(ctx.io.env);
  const all = readSeen(path);
  const mine = all[s.baseUrl];
  const key = await cambio.transparency.key();
  if (mine && mine.verifierKey !== key) {
    throw new BooksMismatch(
      `the log's key changed: ${key} is not ${mine.verifierKey}, the key of the checkpoints seen before (${path})`,
      null,
    );
  }
  const note = await cambio.transparency.checkpointNote();
  const cp: Checkpoint = await verifyCheckpoint(note, key);
  // Witnesses: a checkpoint without the cosignatures of enough of them may be a view only this client is shown.
  let cosigners: string[] = [];
  try {
    cosigners = await requireCosignatures(note, w.witnesses, w.quorum);
  } catch (e) {
    if (e instanceof CosignatureError) throw new BooksMismatch(`checkpoint ${cp.treeSize}: ${e.message}`, null);
    throw e;
  }
  for (const old of mine?.checkpoints ?? []) {
    const name = `checkpoint ${old.treeSize} (root ${old.rootHash}, seen ${old.seenAt})`;
    if (old.treeSize > cp.treeSize)
      throw new BooksMismatch(`the log shrank: the latest checkpoint has ${cp.treeSize} entries, ${name} had more`, null);
    if (old.treeSize === 0) continue;
    let proof: string[] = [];
    if (old.treeSize < cp.treeSize) {
      proof = (await cambio.transparency.consistency(old.treeSize, cp.treeSize)).proof;
    }
    if (!(await verifyConsistency(old, cp, proof))) {
      throw new BooksMismatch(
        `the latest checkpoint ${cp.treeSize} is not consistent with ${name}: the history was rewritten after this machine saw it`,
        null,
      );
    }
  }

  // Own postings are matched by the exact accounts org:<own organization id>:available|held (the SDK's entry
  // check): every row of an entry against the leaf's own postings, and no own posting without its row.
  const orgId = (await cambio.client.get()).id;
  const byEntry = new Map<string, LedgerEntry[]>();
  for await (const row of cambio.ledger.iterate({ limit: 100 })) {
    const rows = byEntry.get(row.entryId);
    if (rows) {
      if (!rows.some((r) => r.id === row.id)) rows.push(row);
    } else byEntry.set(row.entryId, [row]);
  }
  let checked = 0;
  let pending = 0;
  for (const [entryId, rows] of byEntry) {
    let check;
    try {
      check = await cambio.transparency.verifyEntry(rows, { organizationId: orgId, checkpoint: cp, complete: true });
    } catch (e) {
      // Written after the checkpoint, or not yet logged: the next run checks it.
      if (e instanceof CambioError && (e.code === 'transparency.not_yet_logged' || e.code === 'transparency.bad_tree_size')) {
        pending += 1;
        continue;
      }
      throw e;
    }
    if (!check.ok) throw new BooksMismatch(`entry ${entryId} under the signed checkpoint ${cp.treeSize}: ${check.problem}`, entryId);
    checked += 1;
  }

  let liabilities = 'no liabilities snapshot yet';
  try {
    // The amounts are compared with what this client computes from its own ledger rows under the snapshot's log size.
    const l = await cambio.transparency.verifyMyLiabilities(cambio);
    if (!l.ok) {
      const bad = l.assets.find((a) => !a.ok);
      throw new BooksMismatch(`liabilities snapshot ${l.published.snapshotId}: ${l.problem ?? bad?.problem}`, null);
    }
    liabilities = `counted in liabilities snapshot ${l.published.snapshotId} at log size ${l.published.treeSize} (${
      l.assets.map((a) => `${a.assetSymbol} ${a.amountMinor}`).join(', ') || 'nothing owed'
    })`;
  } catch (e) {
    if (!(e instanceof CambioError && e.code === 'liabilities.no_snapshot')) throw e;
  }

  const seen: Seen[] = [
    ...(mine?.checkpoints ?? []).filter((c) => c.treeSize !== cp.treeSize),
    { treeSize: cp.treeSize, rootHash: cp.rootHash, seenAt: new Date().toISOString() },
  ];
  all[s.baseUrl] = { verifierKey: key, checkpoints: seen.slice(-KEEP) };
  writeSeen(path, all);
  ctx.print(
    { ok: true, checkpoint: cp, entries: checked, pending, checkpointsSeenBefore: mine?.checkpoints.length ?? 0, liabilities },
    () =>
      `ok: ${checked} own entries in the log under checkpoint ${cp.treeSize} signed by ${cp.origin}${pending ? ` (${pending} not logged yet)` : ''}; consistent with ${mine?.checkpoints.length ?? 0} checkpoints seen before; ${liabilities}${w.witnesses.length ? `; cosigned by ${cosigners.join(', ')}` : ''}`,
  );
}
