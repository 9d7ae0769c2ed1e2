import type { Transport } from '../http.ts';
import { paginate, type ListParams, type Page } from '../paginate.ts';

/**
 * The client lists' filters: `createdFrom` inclusive, `createdTo` exclusive, as a Date or an
 * RFC 3339 date-time with a zone; each list adds its own (`state`, the ledger's `assetSymbol`).
 */
export interface CreatedFilters {
  createdFrom?: Date | string;
  createdTo?: Date | string;
}

const instant = (v: Date | string | undefined) => (v instanceof Date ? v.toISOString() : v);

/** The filters as query parameters; an unset one is left out. */
export function filterQuery(f: CreatedFilters & { state?: string; assetSymbol?: string }): Record<string, string | undefined> {
  return { state: f.state, assetSymbol: f.assetSymbol, createdFrom: instant(f.createdFrom), createdTo: instant(f.createdTo) };
}

/** `encodeURIComponent` of a record id in a path. */
export const idPath = (base: string, id: string, tail = '') => `${base}/${encodeURIComponent(id)}${tail}`;

/** One page of a list endpoint (`page`, `limit` as the spec's list parameters). */
export async function listPage<T>(
  t: Transport,
  path: string,
  params: ListParams = {},
  extra: Record<string, string | undefined> = {},
): Promise<Page<T>> {
  const r = await t.get<T[]>(path, { page: params.page, limit: params.limit, asOf: params.asOf, ...extra });
  const items = r.data ?? [];
  return {
    items,
    pagination: r.pagination ?? { page: params.page ?? 1, limit: params.limit ?? items.length, total: items.length, totalPages: 1 },
  };
}

/** Every item of a list endpoint, page after page. */
export function iterateList<T>(
  t: Transport,
  path: string,
  opts: { limit?: number } = {},
  extra: Record<string, string | undefined> = {},
): AsyncGenerator<T, void, undefined> {
  return paginate<T>((p) => listPage<T>(t, path, p, extra), opts);
}

/**
 * The first item of a newest-first list that `match`es among those created since a call started at
 * `startedLocal` (this machine's clock), less `skewMs`. The bound is put on the server's clock only
 * once the list's first answer has arrived, with the offset that answer's timestamp gave: a server
 * clock minutes behind this machine's (or a new client that never heard the server) does not hide
 * what a lost call created.
 */
export async function findCreatedSince<T extends { createdAt: string }>(
  t: Transport,
  items: AsyncIterable<T>,
  startedLocal: number,
  skewMs: number,
  match: (x: T) => boolean,
): Promise<T | undefined> {
  let since: number | undefined;
  for await (const x of items) {
    since ??= t.toServerTime(startedLocal) - skewMs;
    if (Date.parse(x.createdAt) < since) return undefined; // newest first: nothing older can be ours
    if (match(x)) return x;
  }
  return undefined;
}
