import { fromHex, openSignedNote, sha256, toHex, utf8, type Bytes } from './transparency.ts';

/**
 * The proof of liabilities checked on the client (docs/transparency.md), with nothing but Web Crypto: the
 * published note's signature, every part's leaf rebuilt from the client's own organization id and its
 * path to the published root of a Merkle sum tree (every node commits both children's sums), the parts
 * adding up to the amount, and the amount equal to what the client computes itself from its own ledger
 * rows under the snapshot's log size. An asset the client holds with no leaf fails, as does any other amount.
 */

type Sum = bigint | string;
/** The published liabilities (`GET /transparency/liabilities/latest`, the note's JSON). */
export interface PublishedLiabilities {
  snapshotId: string;
  takenAt: string;
  treeSize: number;
  assets: ReadonlyArray<{ assetSymbol: string; assetDecimals: number; rootHash: string; totalMinor: Sum; leafCount: number }>;
}
/** One part of an amount: its own leaf, with its salt and its path leaf → root. */
export interface OwnLiabilityPart {
  part: number;
  amountMinor: Sum;
  salt: string;
  leafIndex: number;
  path: ReadonlyArray<{ hash: string; sumMinor: Sum }>;
}
/** The organization's own leaves (`GET /api/v1/liabilities/latest`). */
export interface OwnLiabilities {
  snapshotId: string;
  treeSize: number;
  assets: ReadonlyArray<{ assetSymbol: string; amountMinor: Sum; parts: ReadonlyArray<OwnLiabilityPart> }>;
}
/** What the organization should be owed at a log size: its own postings in the entries with index < treeSize, per asset. */
export interface ExpectedLiabilities {
  organizationId: string;
  treeSize: number;
  /** Per asset symbol; a zero amount is the same as none. */
  amounts: Readonly<Record<string, bigint>>;
}
export interface LiabilitiesCheck {
  ok: boolean;
  assets: Array<{ assetSymbol: string; amountMinor: bigint; expectedMinor: bigint; ok: boolean; problem: string | null }>;
  /** Set when the documents are not of the same snapshot or log size. */
  problem: string | null;
}

const LIMIT = 1n << 256n;
/** A sum as 32 big-endian bytes; null when it is not an unsigned integer below 2^256 (a negative or overflowing sum). */
function u256(v: Sum): { value: bigint; bytes: Bytes } | null {
  let value: bigint;
  if (typeof v === 'bigint') value = v;
  else if (typeof v === 'string' && /^[0-9]{1,78}$/.test(v)) value = BigInt(v);
  else return null;
  if (value < 0n || value >= LIMIT) return null;
  return { value, bytes: fromHex(value.toString(16).padStart(64, '0')) };
}

const Z = new Uint8Array([0x00]);
/** H(0x00 ‖ "cambio/liability/v2" ‖ 0x00 ‖ snapshotId ‖ 0x00 ‖ organizationId ‖ 0x00 ‖ assetSymbol ‖ 0x00 ‖ part ‖ 0x00 ‖ salt ‖ be256(amount)). */
export const liabilityLeafHash = (
  who: { snapshotId: string; organizationId: string; assetSymbol: string; part: number },
  salt: Uint8Array,
  amount: Uint8Array,
): Promise<Bytes> =>
  sha256(
    Z,
    utf8('cambio/liability/v2'),
    Z,
    utf8(who.snapshotId),
    Z,
    utf8(who.organizationId),
    Z,
    utf8(who.assetSymbol),
    Z,
    utf8(String(who.part)),
    Z,
    salt,
    amount,
  );

async function checkPart(
  who: { snapshotId: string; organizationId: string; assetSymbol: string },
  p: OwnLiabilityPart,
  rootHash: string,
  total: Sum,
): Promise<string | null> {
  const amount = u256(p.amountMinor);
  if (!amount) return `part ${p.part}: amount ${String(p.amountMinor)} is not an unsigned 256-bit integer`;
  if (!/^[0-9a-f]{64}$/.test(p.salt)) return `part ${p.part}: the salt is not 32 bytes of hex`;
  if (!Number.isSafeInteger(p.leafIndex) || p.leafIndex < 0) return `part ${p.part}: the leaf index is not a position`;
  if (!Number.isSafeInteger(p.part) || p.part < 0) return `part ${String(p.part)} is not a part's number`;
  let hash = await liabilityLeafHash({ ...who, part: p.part }, fromHex(p.salt), amount.bytes);
  let sum = amount;
  let index = p.leafIndex;
  for (const [level, node] of p.path.entries()) {
    const s = u256(node.sumMinor);
    if (!s) return `part ${p.part}: the sum at level ${level} is not an unsigned 256-bit integer`;
    if (!/^[0-9a-f]{64}$/.test(node.hash)) return `part ${p.part}: the hash at level ${level} is not 32 bytes of hex`;
    const sib = fromHex(node.hash);
    hash =
      index % 2 === 0
        ? await sha256(new Uint8Array([0x01]), hash, sum.bytes, sib, s.bytes)
        : await sha256(new Uint8Array([0x01]), sib, s.bytes, hash, sum.bytes);
    const next = u256(sum.value + s.value);
    if (!next) return `part ${p.part}: the sums overflow 256 bits at level ${level}`;
    sum = next;
    index = (index - (index % 2)) / 2;
  }
  if (index !== 0) return `part ${p.part}: the leaf index is beyond the tree`;
  if (toHex(hash) !== rootHash) return `part ${p.part}: the path does not lead to the published root`;
  const published = u256(total);
  if (!published || published.value !== sum.value) return `part ${p.part}: the path's sum is not the published total`;
  return null;
}

/**
 * Whether what the organization is owed is counted in the published liabilities, and is what it should
 * be: for every asset of `own` and of `expected`, every part's leaf (rebuilt with `expected.organizationId`)
 * reaches the published root with the path's sums adding up to the published total, the parts add up to
 * the amount, and the amount equals `expected` (computed by the client: `expectedLiabilities`). A failed
 * asset's problem names the asset and both amounts. Check the published note's signature first
 * (`openLiabilities`).
 */
export async function verifyLiabilities(
  published: PublishedLiabilities,
  own: OwnLiabilities,
  expected: ExpectedLiabilities,
): Promise<LiabilitiesCheck> {
  if (published.snapshotId !== own.snapshotId)
    return { ok: false, problem: `the published snapshot is ${published.snapshotId}, yours is ${own.snapshotId}`, assets: [] };
  if (published.treeSize !== own.treeSize || own.treeSize !== expected.treeSize)
    return {
      ok: false,
      problem: `the log sizes differ: published ${published.treeSize}, yours ${own.treeSize}, expected at ${expected.treeSize}`,
      assets: [],
    };
  const symbols = new Set([
    ...own.assets.map((a) => a.assetSymbol),
    ...Object.keys(expected.amounts).filter((s) => expected.amounts[s] !== 0n),
  ]);
  const assets: LiabilitiesCheck['assets'] = [];
  for (const assetSymbol of [...symbols].sort()) {
    const a = own.assets.find((x) => x.assetSymbol === assetSymbol);
    const want = expected.amounts[assetSymbol] ?? 0n;
    const got = a ? (u256(a.amountMinor)?.value ?? null) : 0n;
    let problem: string | null = null;
    if (!a) problem = `${assetSymbol}: no leaf, but ${want} is owed at log size ${expected.treeSize}`;
    else if (got === null) problem = `${assetSymbol}: amount ${String(a.amountMinor)} is not an unsigned 256-bit integer`;
    else if (got !== want) problem = `${assetSymbol}: the snapshot counts ${got}, but ${want} is owed at log size ${expected.treeSize}`;
    else {
      const root = published.assets.find((p) => p.assetSymbol === assetSymbol);
      if (!root) problem = `${assetSymbol}: no published root`;
      else if (a.parts.length === 0) problem = `${assetSymbol}: no part`;
      else {
        let sum = 0n;
        for (const p of a.parts) {
          const why = await checkPart(
            { snapshotId: own.snapshotId, organizationId: expected.organizationId, assetSymbol },
            p,
            root.rootHash,
            root.totalMinor,
          );
          if (why) {
            problem = `${assetSymbol}: ${why}`;
            break;
          }
          sum += u256(p.amountMinor)!.value;
        }
        if (!problem && sum !== got) problem = `${assetSymbol}: the parts add up to ${sum}, not ${got}`;
      }
    }
    assets.push({ assetSymbol, amountMinor: got ?? 0n, expectedMinor: want, ok: problem === null, problem });
  }
  return { ok: assets.every((x) => x.ok), problem: null, assets };
}

/** The published liabilities note's JSON, its signature checked against the verifier key. */
export async function openLiabilities(note: string, verifierKey: string): Promise<PublishedLiabilities> {
  return JSON.parse(await openSignedNote(note, verifierKey)) as PublishedLiabilities;
}

/** What `expectedLiabilities` reads: the client's own organization id and its ledger rows. */
export interface LedgerReader {
  client: { get(): Promise<{ id: string }> };
  ledger: {
    iterate(opts?: { limit?: number }): AsyncIterable<{ assetSymbol: string; amountMinor: bigint | string; logIndex?: number | null }>;
  };
}

/**
 * What the organization should be owed at log size `treeSize`, computed from its own ledger rows (`GET
 * /api/v1/ledger`): the sum of the rows whose `logIndex` < treeSize, per asset (available and held alike).
 */
export async function expectedLiabilities(client: LedgerReader, treeSize: number): Promise<ExpectedLiabilities> {
  const { id } = await client.client.get();
  const amounts: Record<string, bigint> = {};
  for await (const row of client.ledger.iterate({ limit: 100 })) {
    if (row.logIndex === null || row.logIndex === undefined || row.logIndex >= treeSize) continue;
    amounts[row.assetSymbol] = (amounts[row.assetSymbol] ?? 0n) + BigInt(row.amountMinor);
  }
  for (const k of Object.keys(amounts)) if (amounts[k] === 0n) delete amounts[k];
  return { organizationId: id, treeSize, amounts };
}
