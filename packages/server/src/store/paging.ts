import type { Pagination } from '@cambio/contract';
import { sql, type SelectQueryBuilder } from 'kysely';

/** `asOf`: the walk's anchor, the position of the newest record when its first page was read. */
export interface PageParams {
  page: number;
  limit: number;
  asOf?: string | undefined;
}
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

export const offsetOf = (p: PageParams) => (p.page - 1) * p.limit;

/**
 * The page size written into the statement, not sent as a parameter (it is a validated integer, 1 to 100),
 * and no OFFSET on the first page: a prepared statement whose LIMIT is known gets a plan PostgreSQL keeps
 * (a generic one), where a parameter LIMIT is planned again on every call (on PGlite, planning
 * opened every index of the tables again). Later pages keep their offset as a parameter.
 */
const pageLimit = (limit: number) => (Number.isSafeInteger(limit) && limit > 0 && limit <= 1000 ? sql.lit(limit) : limit);

export function pageOf<T>(items: T[], total: number | string | bigint, p: PageParams, asOf: string): Page<T> {
  const t = BigInt(total);
  const pages = (t + BigInt(p.limit) - 1n) / BigInt(p.limit);
  return { items, pagination: { page: p.page, limit: p.limit, total: Number(t), totalPages: Number(pages), asOf } };
}

type Counted = { page_total: string | number | bigint; page_top: string | number | bigint | null };

/**
 * An unfiltered list of one owner whose rows `list_counts` counts (migration 013): its total is read
 * there, not counted over every row, so a page costs the same however many rows the owner has.
 */
export interface Counter {
  list: 'orders' | 'withdrawals' | 'postings';
  owner: string;
}

/**
 * The total and the anchor from the count: rows are never deleted, so the total as of the anchor is the
 * count now less the rows written after it (few: those of the walk's own time), and the newest
 * position is one step down the index. Both are read in the page's own statement, in its snapshot.
 */
function countedBy(base: Query, seq: string, p: PageParams, c: Counter) {
  const now = sql<string>`(select coalesce(sum(n), 0) from list_counts where list = ${c.list} and owner_id = ${c.owner})`;
  if (p.asOf === undefined) {
    return [now.as('page_total'), sql<string>`(${base.select(sql<string>`max(${sql.ref(seq)})`.as('top'))})`.as('page_top')];
  }
  const newer = base.where(sql.ref(seq), '>', sql<string>`${p.asOf}::bigint`).select(sql<string>`count(*)`.as('newer'));
  return [sql<string>`${now} - (${newer})`.as('page_total'), sql<string>`${p.asOf}::bigint`.as('page_top')];
}
// Kysely cannot type a query builder over any table; each store keeps its own types through `select`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Query<O = any> = SelectQueryBuilder<any, any, O>;

/**
 * One page of a list, newest first by `seq` (a column that grows with every insert), read in one
 * statement: the rows, the total and the walk's anchor (docs/design/money-and-states.md: lists are stable under
 * concurrent inserts within a page walk). Page 1 without `asOf` anchors the walk at the newest
 * record; a later page that sends that `asOf` back sees the list as it was, so a record created
 * meanwhile neither repeats a row nor pushes one off a page. Only a page past the end needs a second
 * read, for the total.
 */
export async function readPage<Q extends Query, O>(
  base: Q,
  seq: string,
  p: PageParams,
  select: (q: Q) => Query<O>,
  counter?: Counter,
): Promise<Page<O>> {
  const q = p.asOf === undefined ? base : (base.where(sql.ref(seq), '<=', sql<string>`${p.asOf}::bigint`) as Q);
  const offset = offsetOf(p);
  let page = select(q)
    .select(
      counter
        ? countedBy(base, seq, p, counter)
        : [sql<string>`count(*) over ()`.as('page_total'), sql<string>`max(${sql.ref(seq)}) over ()`.as('page_top')],
    )
    .orderBy(sql.ref(seq), 'desc')
    .limit(pageLimit(p.limit));
  if (offset > 0) page = page.offset(offset);
  const rows = (await page.execute()) as (O & Counted)[];
  let counted: Counted | undefined = rows[0] && { page_total: rows[0].page_total, page_top: rows[0].page_top };
  // An empty first page is an empty list (as of the anchor): nothing to count. Past the end, the total is read.
  if (!counted && offset > 0) {
    counted = (await q
      .select([sql<string>`count(*)`.as('page_total'), sql<string>`max(${sql.ref(seq)})`.as('page_top')])
      .executeTakeFirst()) as Counted | undefined;
  }
  for (const r of rows) {
    delete (r as Partial<Counted>).page_total;
    delete (r as Partial<Counted>).page_top;
  }
  return pageOf(rows as O[], counted?.page_total ?? 0, p, p.asOf ?? String(counted?.page_top ?? '0'));
}

export const mapPage = <T, U>(page: Page<T>, f: (t: T) => U): Page<U> => ({ items: page.items.map(f), pagination: page.pagination });

/** A creation window on a list: `from` inclusive, `to` exclusive. */
export interface CreatedWindow {
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
}

export function createdWithin<Q extends Query>(q: Q, column: string, w: CreatedWindow): Q {
  let r = q;
  if (w.createdFrom) r = r.where(sql.ref(column), '>=', w.createdFrom) as Q;
  if (w.createdTo) r = r.where(sql.ref(column), '<', w.createdTo) as Q;
  return r;
}
