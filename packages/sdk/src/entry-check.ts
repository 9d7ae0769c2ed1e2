/**
 * Whether a logged leaf moves the organization's accounts as its ledger rows say (docs/transparency.md,
 * "What each check proves"): an inclusion proof alone says the leaf is in the log, not that the leaf is the
 * row shown. The rows are compared with the leaf's postings on exactly `org:<organizationId>:<account>`
 * (entry, kind, time, account, asset and amount), each row with a posting of its own.
 */

/** What a ledger row shows of its movement (the SDK's `LedgerEntry` is one). */
export interface LedgerRowMovement {
  entryId: string;
  kind: string;
  account: string;
  assetSymbol: string;
  amountMinor: bigint | string;
  createdAt?: string;
}

interface LeafPosting {
  account: string;
  assetSymbol: string;
  amountMinor: string;
}

/**
 * Why the leaf does not hold the rows' movements, or null when it does. `rows`: ledger rows of one entry;
 * with `complete` (every row of the entry that the organization has), an own posting no row shows is a
 * problem too.
 */
export function leafMovementProblem(
  leaf: string,
  rows: readonly LedgerRowMovement[],
  organizationId: string,
  complete = false,
): string | null {
  let v: { entryId?: unknown; kind?: unknown; createdAt?: unknown; postings?: unknown };
  try {
    v = JSON.parse(leaf) as typeof v;
  } catch {
    return 'the logged leaf is not JSON';
  }
  const first = rows[0];
  if (!first) return 'no ledger row to compare';
  if (rows.some((r) => r.entryId !== first.entryId)) return 'the rows are of several entries';
  if (v.entryId !== first.entryId) return `the logged leaf is entry ${String(v.entryId)}, not ${first.entryId}`;
  if (v.kind !== first.kind) return `the logged leaf is a ${String(v.kind)}, but the row shows a ${first.kind}`;
  if (first.createdAt !== undefined && v.createdAt !== first.createdAt)
    return `the logged leaf was written at ${String(v.createdAt)}, but the row shows ${first.createdAt}`;
  if (!Array.isArray(v.postings)) return "the logged leaf's postings are malformed";
  const prefix = `org:${organizationId}:`;
  const own = (v.postings as LeafPosting[]).filter((p) => typeof p?.account === 'string' && p.account.startsWith(prefix));
  const left = [...own];
  for (const r of rows) {
    const account = `${prefix}${r.account}`;
    const amount = String(r.amountMinor);
    const at = left.findIndex((p) => p.account === account && p.assetSymbol === r.assetSymbol && p.amountMinor === amount);
    if (at >= 0) {
      left.splice(at, 1);
      continue;
    }
    const near = left.filter((p) => p.account === account && p.assetSymbol === r.assetSymbol).map((p) => p.amountMinor);
    return near.length > 0
      ? `the row shows ${r.account} ${amount} ${r.assetSymbol}, but the logged leaf moves ${near.join(' and ')} ${r.assetSymbol} there`
      : `the row shows ${r.account} ${amount} ${r.assetSymbol}, but the logged leaf does not move ${r.account} ${r.assetSymbol}`;
  }
  if (complete && left.length > 0) {
    const p = left[0]!;
    return `the logged leaf moves ${p.account.slice(prefix.length)} ${p.amountMinor} ${p.assetSymbol}, which no ledger row shows`;
  }
  return null;
}
