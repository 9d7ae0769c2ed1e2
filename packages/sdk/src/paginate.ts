import type { Pagination } from '@cambio/contract';

/** One page of a list endpoint: the items and the envelope's pagination. */
export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** `page` from 1, `limit` 1..100 (spec: Limits); the server answers 400 outside that, never clamps. */
export interface ListParams {
  page?: number;
  limit?: number;
}

export type PageFetcher<T> = (p: { page: number; limit: number }) => Promise<Page<T>>;

/**
 * Walks every page, newest first, as an async iterator. An item seen on an earlier page (a list
 * shifts when records are created during the walk) is not yielded twice.
 */
export async function* paginate<T>(fetchPage: PageFetcher<T>, opts: { limit?: number; page?: number } = {}): AsyncGenerator<T, void, undefined> {
  const limit = opts.limit ?? 100;
  const seen = new Set<string>();
  for (let page = opts.page ?? 1; ; page++) {
    const p = await fetchPage({ page, limit });
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
