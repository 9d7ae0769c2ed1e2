import type { Transport } from '../http.ts';
import { paginate, type ListParams, type Page } from '../paginate.ts';

/** One page of a list endpoint (`page`, `limit` as the spec's list parameters). */
export async function listPage<T>(t: Transport, path: string, params: ListParams = {}, extra: Record<string, string | undefined> = {}): Promise<Page<T>> {
  const r = await t.get<T[]>(path, { page: params.page, limit: params.limit, ...extra });
  const items = r.data ?? [];
  return { items, pagination: r.pagination ?? { page: params.page ?? 1, limit: params.limit ?? items.length, total: items.length, totalPages: 1 } };
}

/** Every item of a list endpoint, page after page. */
export function iterateList<T>(t: Transport, path: string, opts: { limit?: number } = {}, extra: Record<string, string | undefined> = {}): AsyncGenerator<T, void, undefined> {
  return paginate<T>((p) => listPage<T>(t, path, p, extra), opts);
}
