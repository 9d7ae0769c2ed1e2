import type { PortalAuditEntry } from '@cambio/sdk';
import { DataTable, ErrorBox, Loading } from '@cambio/web-kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DateTime, Pager } from '../../components/ui.tsx';
import { usePortal } from '../../lib/portal-context.ts';

const shown = (v: unknown) => (v === null || v === undefined ? '—' : <code className="small">{JSON.stringify(v)}</code>);

/** The organization's own audit trail (`portal:audit`, docs/controls.md): who, what, when, before and after. */
export function Audit() {
  const { sdk, t } = usePortal();
  const [page, setPage] = useState(1);
  const q = useQuery({ queryKey: ['audit', page], queryFn: () => sdk.audit.list({ page, limit: 25 }) });
  const who = (e: PortalAuditEntry) => {
    if (e.actor.type === 'operator') return t('audit.operator');
    if (e.actor.type === 'system') return t('audit.system');
    const name = e.actor.name ?? e.actor.id ?? '';
    return e.actor.type === 'key' ? t('audit.key', { name }) : name;
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <ErrorBox error={q.error} />
      {!q.data ? (
        <Loading />
      ) : q.data.items.length === 0 ? (
        <p>{t('audit.none')}</p>
      ) : (
        <>
          <DataTable
            caption={t('audit.title')}
            rows={q.data.items}
            rowKey={(e) => e.id}
            columns={[
              { label: t('audit.col.when'), rowHeader: true, cell: (e) => <DateTime iso={e.createdAt} /> },
              { label: t('audit.col.who'), cell: who },
              { label: t('audit.col.what'), cell: (e) => e.action },
              { label: t('audit.col.record'), cell: (e) => e.subjectId },
              { label: t('audit.col.before'), cell: (e) => shown(e.before) },
              { label: t('audit.col.after'), cell: (e) => shown(e.after) },
            ]}
          />
          <Pager page={page} totalPages={q.data.pagination.totalPages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
