import type { Pagination } from '@cambio/contract';

/** One page of a list endpoint: the items and the envelope's pagination. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * `page` from 1, `limit` 1..100 (spec: Limits); the server answers 400 outside that, never clamps.
 * `asOf`: the `pagination.asOf` of a walk's first page, to read later pages as the list was then.
 */
export interface ListParams {
  page?: number;
  limit?: number;
  asOf?: string;
}

export type PageFetcher<T> = (p: { page: number; limit: number; asOf?: string }) => Promise<Page<T>>;

/**
 * Walks every page, newest first, as an async iterator. The first page's `pagination.asOf`, when the
 * server gives one, is sent back with every later page, so records created during the walk neither
 * repeat nor push a row off a page; without it, an item seen on an earlier page is not yielded twice.
 */
export async function* paginate<T>(
  fetchPage: PageFetcher<T>,
  opts: { limit?: number; page?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const limit = opts.limit ?? 100;
  const seen = new Set<string>();
  let asOf: string | undefined;
  for (let page = opts.page ?? 1; ; page++) {
    const p = await fetchPage({ page, limit, ...(asOf !== undefined ? { asOf } : {}) });
    asOf ??= p.pagination.asOf;
    for (const item of p.items) {
      const id = (item as { id?: unknown }).id;
      if (typeof id === 'string') {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield item;
    }
    if (p.items.length === 0 || page >= p.pagination.totalPages) return;
  }
}

/** "Collect all" is a thin wrapper over the iterator. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}
