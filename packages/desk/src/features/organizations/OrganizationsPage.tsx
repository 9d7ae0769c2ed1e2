import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, Loading, ReadAt, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link, navigate } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

/** Every client organization: search, status at a glance, and (admin) a new one. */
export function OrganizationsPage() {
  const { staff } = useDesk();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['organizations', 'list', search.trim(), status, page],
    queryFn: () =>
      op.organizations.list({ search: search.trim() || undefined, status: (status || undefined) as 'active' | undefined, page, limit: 25 }),
    placeholderData: (prev) => prev,
  });
  return (
    <Page title={t('nav.organizations')} intro={t('orgs.intro')}>
      <form className="inline-form" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field
          label={t('orgs.search')}
          type="search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          hint={t('orgs.searchHint')}
        />
        <SelectField
          label={t('org.status')}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
          options={[
            { value: '', label: t('orgs.any') },
            { value: 'active', label: t('org.active') },
            { value: 'draft', label: t('org.draft') },
            { value: 'suspended', label: t('org.suspended') },
          ]}
        />
      </form>
      <ReadAt at={list.dataUpdatedAt} fetching={list.isFetching} />
      {list.isPending ? (
        <Loading what={t('orgs.loading')} />
      ) : list.error ? (
        <ErrorBox error={list.error} />
      ) : list.data.items.length === 0 ? (
        <Empty>{t('orgs.none')}</Empty>
      ) : (
        <>
          <table>
            <caption className="visually-hidden">{t('nav.organizations')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('orgs.name')}</th>
                <th scope="col">{t('org.status')}</th>
                <th scope="col">{t('orgs.canOperate')}</th>
                <th scope="col">{t('common.created')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <Link to={`/organizations/${encodeURIComponent(o.id)}`}>{o.name}</Link> <code className="small">{o.id}</code>
                  </th>
                  <td>
                    <StateBadge state={o.status} />
                  </td>
                  <td>{o.canOperate ? t('orgs.yes') : o.limits === null ? t('orgs.noLimits') : t('orgs.notActive')}</td>
                  <td>{when(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label={t('orgs.pages')} className="pager">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('common.prev')}
            </button>
            <span>
              {t('common.page', { page: list.data.pagination.page, pages: Math.max(1, list.data.pagination.totalPages) })}
              {t('orgs.count', { n: list.data.pagination.total })}
            </span>
            <button type="button" disabled={page >= list.data.pagination.totalPages} onClick={() => setPage(page + 1)}>
              {t('common.next')}
            </button>
          </nav>
        </>
      )}
      {can(staff.role, 'manage') && staff.totpEnrolled && <CreateOrganization />}
    </Page>
  );
}

function CreateOrganization() {
  const [name, setName] = useState('');
  const [status, setStatus] = useState<'draft' | 'active'>('draft');
  const [confirming, setConfirming] = useState(false);
  const [tried, setTried] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (name.trim()) setConfirming(true);
  };
  return (
    <section aria-labelledby="create-title" className="panel">
      <h2 id="create-title">{t('orgs.new')}</h2>
      <form onSubmit={submit} noValidate className="inline-form">
        <Field label={t('orgs.newName')} value={name} onChange={setName} error={tried && !name.trim() ? t('orgs.enterName') : null} />
        <SelectField
          label={t('orgs.initial')}
          value={status}
          onChange={(v) => setStatus(v as 'draft' | 'active')}
          options={[
            { value: 'draft', label: t('orgs.draftCannot') },
            { value: 'active', label: t('org.active') },
          ]}
        />
        <button type="submit">{t('orgs.create')}</button>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('orgs.createTitle', { name: name.trim() })}
          confirmLabel={t('orgs.create')}
          onClose={() => setConfirming(false)}
          content={[name.trim(), status]}
          onConfirm={async (idempotencyKey) => {
            const o = await op.organizations.create({ name: name.trim(), status }, { idempotencyKey });
            navigate(`/organizations/${encodeURIComponent(o.id)}`);
          }}
        >
          <p>{status === 'draft' ? t('orgs.startsDraft') : t('orgs.startsActive')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
