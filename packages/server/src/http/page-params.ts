import type { PageQuery } from '@cambio/contract';
import { DomainError } from '../domain/errors.ts';
import type { PageParams } from '../store/paging.ts';

/** Past this a page is a 400, not a 500: (page − 1) × limit must stay an exact offset the database accepts. */
export const MAX_PAGE = 10_000_000;

export const pageParams = (q: PageQuery): PageParams => {
  const page = q.page ?? 1;
  if (page > MAX_PAGE) throw new DomainError('request.invalid_query', { detail: `page must be at most ${MAX_PAGE}` });
  return { page, limit: q.limit ?? 10, asOf: q.asOf };
};
