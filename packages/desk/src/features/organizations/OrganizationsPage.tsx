import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Field, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { Link, navigate } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';

/** Every client organization: search, status at a glance, and (admin) a new one. */
export function OrganizationsPage() {
  const { staff } = useDesk();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['organizations', 'list', search.trim(), status, page],
    queryFn: () => op.organizations.list({ search: search.trim() || undefined, status: (status || undefined) as 'active' | undefined, page, limit: 25 }),
    placeholderData: (prev) => prev,
  });
  return (
    <Page title="Organizations" intro="The client organizations, their status and whether they can operate (active, with limits loaded).">
      <form className="inline-form" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search" type="search" value={search} onChange={(v) => { setSearch(v); setPage(1); }} hint="Name or id." />
        <SelectField label="Status" value={status} onChange={(v) => { setStatus(v); setPage(1); }}
          options={[{ value: '', label: 'Any' }, { value: 'active', label: 'Active' }, { value: 'draft', label: 'Draft' }, { value: 'suspended', label: 'Suspended' }]} />
      </form>
      <ReadAt at={list.dataUpdatedAt} fetching={list.isFetching} />
      {list.isPending ? <Loading what="organizations" /> : list.error ? <ErrorNote error={list.error} /> : list.data.items.length === 0 ? <Empty>No organization matches.</Empty> : (
        <>
          <table>
            <caption className="visually-hidden">Organizations</caption>
            <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Can operate</th><th scope="col">Created</th></tr></thead>
            <tbody>
              {list.data.items.map((o) => (
                <tr key={o.id}>
                  <th scope="row"><Link to={`/organizations/${encodeURIComponent(o.id)}`}>{o.name}</Link> <code className="small">{o.id}</code></th>
                  <td><StateBadge state={o.status} /></td>
                  <td>{o.canOperate ? 'Yes' : o.limits === null ? 'No — no limits loaded' : 'No — not active'}</td>
                  <td>{when(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages of organizations" className="pager">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>Previous page</button>
            <span>Page {list.data.pagination.page} of {Math.max(1, list.data.pagination.totalPages)} ({list.data.pagination.total} organizations)</span>
            <button type="button" disabled={page >= list.data.pagination.totalPages} onClick={() => setPage(page + 1)}>Next page</button>
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
  const submit = (e: FormEvent) => { e.preventDefault(); setTried(true); if (name.trim()) setConfirming(true); };
  return (
    <section aria-labelledby="create-title" className="panel">
      <h2 id="create-title">New organization</h2>
      <form onSubmit={submit} noValidate className="inline-form">
        <Field label="Organization name" value={name} onChange={setName} error={tried && !name.trim() ? 'Enter a name.' : null} />
        <SelectField label="Initial status" value={status} onChange={(v) => setStatus(v as 'draft' | 'active')}
          options={[{ value: 'draft', label: 'Draft (cannot operate yet)' }, { value: 'active', label: 'Active' }]} />
        <button type="submit">Create organization</button>
      </form>
      {confirming && (
        <ConfirmDialog title={`Create ${name.trim()}?`} confirmLabel="Create organization" onClose={() => setConfirming(false)}
          content={[name.trim(), status]} onConfirm={async (idempotencyKey) => { const o = await op.organizations.create({ name: name.trim(), status }, { idempotencyKey }); navigate(`/organizations/${encodeURIComponent(o.id)}`); }}>
          <p>It starts {status} with no limits loaded: it cannot move money until limits are set on its page.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
