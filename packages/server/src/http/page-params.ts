import type { PageQuery } from '@cambio/contract';
import type { PageParams } from '../store/paging.ts';

export const pageParams = (q: PageQuery): PageParams => ({ page: q.page ?? 1, limit: q.limit ?? 10 });
