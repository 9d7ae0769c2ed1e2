import { sql } from 'kysely';
import { DomainError } from '../domain/errors.ts';
import { adjustmentEntries } from '../domain/ledger/entries.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';
import { postEntry } from './ledger-store.ts';
import { createdWithin, mapPage, readPage, type CreatedWindow, type Page, type PageParams } from './paging.ts';
import type { Tx } from './unit-of-work.ts';
import type { AccountsRepository } from '../usecases/repositories.ts';

export interface BalanceRow {
  assetSymbol: string;
  assetDecimals: number;
  available: bigint;
  held: bigint;
}
export interface PostingRow {
  id: string;
  entryId: string;
  kind: string;
  account: 'available' | 'held';
  assetSymbol: string;
  assetDecimals: number;
  amount: bigint;
  referenceId: string | null;
  memo: string | null;
  createdAt: Date;
  /** Its entry's leaf index in the journal log, null until logged (read for the ledger's pages only). */
  logIndex?: number | null;
}

type PostingSelect = {
  id: string | number | bigint;
  entry_id: string;
  kind: string;
  account_kind: string;
  asset_symbol: string;
  decimals: number | null;
  amount: string;
  reference_id: string | null;
  memo: string | null;
  created_at: Date;
};
/**
 * What a ledger line shows, from the posting alone (it carries its entry's kind, reference and memo,
 * migration 017) and its asset's decimals (`m`).
 */
const POSTING_COLUMNS = [
  'p.id',
  'p.entry_id',
  'p.entry_kind as kind',
  'p.account_kind',
  'p.asset_symbol',
  'm.decimals',
  'p.amount',
  'p.reference_id',
  'p.memo',
  'p.created_at',
] as const;
const toPostingRow = (r: PostingSelect): PostingRow => ({
  id: String(r.id),
  entryId: r.entry_id,
  kind: r.kind,
  account: r.account_kind as 'available' | 'held',
  assetSymbol: r.asset_symbol,
  assetDecimals: r.decimals ?? 0,
  amount: BigInt(r.amount),
  referenceId: r.reference_id,
  memo: r.memo,
  createdAt: r.created_at,
});

function balancesQuery(db: Db) {
  return db
    .selectFrom('accounts as a')
    .innerJoin('market_assets as m', 'm.symbol', 'a.asset_symbol')
    .select(['a.owner_id', 'a.asset_symbol', 'm.decimals', 'a.kind', 'a.balance'])
    .where('a.owner_id', '=', sql<string>`any(${sql.val<string[]>([])}::text[])`)
    .orderBy('a.owner_id')
    .orderBy('a.asset_symbol')
    .compile();
}
type BalancesQuery = ReturnType<typeof balancesQuery>;

/** Balances and the organization's view of the ledger; manual adjustments. */
export class AccountsStore implements AccountsRepository {
  // Compiled once: GET /balances is the hottest read, and building a query in Kysely costs more CPU than running it.
  readonly #balances: BalancesQuery;
  // Requests reading balances at the same moment share one read (each still sees the committed balances of its moment).
  readonly #batch = new Batcher<string, BalanceRow[]>((orgs) => this.#read(orgs), { maxBatch: 64, maxInFlight: 4 });

  constructor(private readonly db: Db) {
    this.#balances = balancesQuery(db);
    if (this.#balances.parameters.length !== 1) throw new Error('the balances query must take the organizations as its only parameter');
  }

  /** One row per asset the organization has an account in, by asset symbol. */
  balances(organizationId: string): Promise<BalanceRow[]> {
    return this.#batch.load(organizationId);
  }

  async #read(organizationIds: string[]): Promise<BalanceRow[][]> {
    const query: BalancesQuery = { ...this.#balances, parameters: [[...new Set(organizationIds)]] };
    const { rows } = await this.db.executeQuery(query);
    const byOrg = new Map<string, Map<string, BalanceRow>>();
    for (const r of rows) {
      let by = byOrg.get(r.owner_id);
      if (!by) byOrg.set(r.owner_id, (by = new Map()));
      const b = by.get(r.asset_symbol) ?? { assetSymbol: r.asset_symbol, assetDecimals: r.decimals, available: 0n, held: 0n };
      if (r.kind === 'available') b.available = BigInt(r.balance);
      else if (r.kind === 'held') b.held = BigInt(r.balance);
      by.set(r.asset_symbol, b);
    }
    // Each caller gets its own rows: a batch may hold one organization twice.
    return organizationIds.map((id) => [...(byOrg.get(id)?.values() ?? [])].map((b) => ({ ...b })));
  }

  /** The organization's postings that the filters keep (the ledger's page and its export). */
  #postingsOf(organizationId: string, f: { assetSymbol?: string | undefined } & CreatedWindow) {
    const q = createdWithin(this.db.selectFrom('postings as p').where('p.owner_id', '=', organizationId), 'p.created_at', f);
    return f.assetSymbol ? q.where('p.asset_symbol', '=', f.assetSymbol) : q;
  }

  async postings(
    organizationId: string,
    p: PageParams,
    f: { assetSymbol?: string | undefined } & CreatedWindow = {},
  ): Promise<Page<PostingRow>> {
    // The page is one range of the owner's index, with no lookup of an entry per posting, whatever the
    // journal's size.
    const page = await readPage(
      this.#postingsOf(organizationId, f),
      'p.id',
      p,
      (q) => q.leftJoin('market_assets as m', 'm.symbol', 'p.asset_symbol').select(POSTING_COLUMNS),
      !f.assetSymbol && !f.createdFrom && !f.createdTo ? { list: 'postings', owner: organizationId } : undefined,
    );
    const rows = mapPage(page, toPostingRow);
    const entryIds = [...new Set(rows.items.map((r) => r.entryId))];
    const logged =
      entryIds.length === 0
        ? []
        : (
            await sql<{
              entry_id: string;
              idx: string;
            }>`select l.entry_id, l.idx::text as idx from log_leaves l where l.entry_id = any(${entryIds}::text[])`.execute(this.db)
          ).rows;
    const at = new Map(logged.map((l) => [l.entry_id, Number(l.idx)]));
    return { ...rows, items: rows.items.map((r) => ({ ...r, logIndex: at.get(r.entryId) ?? null })) };
  }

  /**
   * Every posting of the organization that the filters keep, oldest first, read `batch` rows at a
   * time (keyset on the posting id, by the postings_owner index), so an export of any size holds one
   * batch in memory. The walk is anchored at the newest posting when it starts: a posting written
   * during the export is not in it, and none repeats.
   */
  async *allPostings(
    organizationId: string,
    f: { assetSymbol?: string | undefined } & CreatedWindow = {},
    batch = 500,
  ): AsyncGenerator<PostingRow[], void, undefined> {
    const filtered = () => this.#postingsOf(organizationId, f);
    const top = await filtered()
      .select(sql<string | null>`max(p.id)`.as('top'))
      .executeTakeFirst();
    if (top?.top === null || top?.top === undefined) return;
    let after = '0';
    for (;;) {
      const rows = await filtered()
        .where('p.id', '>', sql<string>`${after}::bigint`)
        .where('p.id', '<=', sql<string>`${top.top}::bigint`)
        .leftJoin('market_assets as m', 'm.symbol', 'p.asset_symbol')
        .select(POSTING_COLUMNS)
        .orderBy('p.id', 'asc')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows.map(toPostingRow);
      if (rows.length < batch) return;
      after = String(rows[rows.length - 1]!.id);
    }
  }

  /** A signed manual adjustment in the caller's transaction; never drives available below zero. Answers the available balance before and after. */
  async adjust(
    tx: Tx,
    entryIds: readonly [string, string],
    at: Date,
    r: { organizationId: string; assetSymbol: string; amount: bigint; reason: string },
  ): Promise<{ before: bigint; after: bigint }> {
    const org = await tx.selectFrom('organizations').select('id').where('id', '=', r.organizationId).executeTakeFirst();
    if (!org) throw new DomainError('organizations.not_found');
    const asset = await tx.selectFrom('market_assets').select('decimals').where('symbol', '=', r.assetSymbol).executeTakeFirst();
    if (!asset) throw new DomainError('market.asset_not_listed', { asset: r.assetSymbol });
    const before = await tx
      .selectFrom('accounts')
      .select('balance')
      .where('owner_id', '=', r.organizationId)
      .where('asset_symbol', '=', r.assetSymbol)
      .where('kind', '=', 'available')
      .executeTakeFirst();
    const entries = adjustmentEntries({ organizationId: r.organizationId, assetSymbol: r.assetSymbol, amount: r.amount, memo: r.reason });
    for (const [i, e] of entries.entries()) await postEntry(tx, entryIds[i]!, e, at);
    const b = BigInt(before?.balance ?? '0');
    return { before: b, after: b + r.amount };
  }
}
