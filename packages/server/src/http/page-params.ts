import type { PageQuery } from '@cambio/contract';
import type { CreatedWindow, PageParams } from '../store/paging.ts';

/** The list parameters, already validated by PageQuery (a page past 10,000,000 or a limit past 100 is a 400, never clamped). */
export const pageParams = (q: PageQuery): PageParams => ({ page: q.page ?? 1, limit: q.limit ?? 10, asOf: q.asOf });

/** `createdFrom` / `createdTo`, validated as RFC 3339 date-times by the list's query schema. */
export const createdWindow = (q: { createdFrom?: string | undefined; createdTo?: string | undefined }): CreatedWindow => ({
  createdFrom: q.createdFrom === undefined ? undefined : new Date(q.createdFrom),
  createdTo: q.createdTo === undefined ? undefined : new Date(q.createdTo),
});
