import type { Pagination } from '@cambio/contract';

export interface PageParams { page: number; limit: number }
export interface Page<T> { items: T[]; pagination: Pagination }

export const offsetOf = (p: PageParams) => (p.page - 1) * p.limit;

export function pageOf<T>(items: T[], total: number | string | bigint, p: PageParams): Page<T> {
  const t = BigInt(total);
  const pages = (t + BigInt(p.limit) - 1n) / BigInt(p.limit);
  return { items, pagination: { page: p.page, limit: p.limit, total: Number(t), totalPages: Number(pages) } };
}
