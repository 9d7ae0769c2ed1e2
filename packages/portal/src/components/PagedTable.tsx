import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@cambio/sdk';
import { useState } from 'react';
import { DataTable, ErrorBox, Loading, ReadAt, type Column } from '@cambio/web-kit';
import { usePortal } from '../lib/portal-context.ts';
import { Pager } from './ui.tsx';

/**
 * A list the server pages, newest first: its table, the pager and when it was read. It refreshes by
 * itself every 3 s while a row is `waiting`, or every `refreshMs` when given.
 */
export function PagedTable<T extends { id: string }>({
  caption,
  queryKey,
  filterKey = '',
  read,
  columns,
  limit = 10,
  waiting,
  refreshMs,
}: {
  caption: string;
  queryKey: string;
  /** The filters `read` applies, as text: another value is another list, from its first page. */
  filterKey?: string;
  read: (p: { page: number; limit: number }) => Promise<Page<T>>;
  columns: Array<Column<T>>;
  limit?: number;
  waiting?: (row: T) => boolean;
  refreshMs?: number | false;
}) {
  const { t } = usePortal();
  const [paged, setPage] = useState({ filterKey, page: 1 });
  const page = paged.filterKey === filterKey ? paged.page : 1;
  const q = useQuery({
    queryKey: [queryKey, filterKey, page],
    queryFn: () => read({ page, limit }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => refreshMs || (waiting && query.state.data?.items.some(waiting) ? 3000 : false),
  });
  return (
    <>
      <ErrorBox error={q.error} />
      {q.isPending ? (
        <Loading />
      ) : (
        q.data &&
        (q.data.items.length === 0 ? (
          <p>{t('common.none')}</p>
        ) : (
          <>
            <DataTable caption={caption} columns={columns} rows={q.data.items} rowKey={(row) => row.id} />
            <Pager page={page} totalPages={q.data.pagination.totalPages} onPage={(p) => setPage({ filterKey, page: p })} />
            <ReadAt at={q.dataUpdatedAt} />
          </>
        ))
      )}
    </>
  );
}
