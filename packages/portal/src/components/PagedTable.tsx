import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Page } from '@cambio/sdk';
import { useState, type ReactNode } from 'react';
import { usePortal } from '../app/context.tsx';
import { ErrorBox, Loading, Pager, ReadAt } from './ui.tsx';

export interface Column<T> {
  label: string;
  /** Right-aligned figures (money). */
  num?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * A list the server pages, newest first: its table (each cell labelled for the narrow layout), the
 * pager and when it was read. It refreshes by itself every 3 s while a row is `waiting`, or every
 * `refreshMs` when given.
 */
export function PagedTable<T extends { id: string }>({ caption, queryKey, read, columns, limit = 10, waiting, refreshMs }: {
  caption: string;
  queryKey: string;
  read: (p: { page: number; limit: number }) => Promise<Page<T>>;
  columns: Array<Column<T>>;
  limit?: number;
  waiting?: (row: T) => boolean;
  refreshMs?: number | false;
}) {
  const { t } = usePortal();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: [queryKey, page], queryFn: () => read({ page, limit }), placeholderData: keepPreviousData,
    refetchInterval: (query) => refreshMs || (waiting && query.state.data?.items.some(waiting) ? 3000 : false),
  });
  return (
    <>
      <ErrorBox error={q.error} />
      {q.isPending ? <Loading /> : q.data && (q.data.items.length === 0 ? <p>{t('common.none')}</p> : (
        <>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{caption}</caption>
              <thead><tr>{columns.map((c) => <th key={c.label} scope="col" className={c.num ? 'num' : undefined}>{c.label}</th>)}</tr></thead>
              <tbody>
                {q.data.items.map((row) => (
                  <tr key={row.id}>
                    {columns.map((c) => <td key={c.label} className={c.num ? 'num' : undefined} data-label={c.label}>{c.cell(row)}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={q.data.pagination.totalPages} onPage={setPage} />
          <ReadAt at={q.dataUpdatedAt} />
        </>
      ))}
    </>
  );
}
