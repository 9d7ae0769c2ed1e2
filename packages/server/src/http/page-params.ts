import type { PageQuery } from '@cambio/contract';
import type { PageParams } from '../store/paging.ts';

/** The list parameters, already validated by PageQuery (a page past 10,000,000 or a limit past 100 is a 400, never clamped). */
export const pageParams = (q: PageQuery): PageParams => ({ page: q.page ?? 1, limit: q.limit ?? 10, asOf: q.asOf });
