import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Field, formatMoney } from '@cambio/web-kit';
import { LANG } from '../../lib/i18n.ts';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { navigate, useLocation } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { changeRows } from './change.ts';
import { Actor } from '../../components/Actor.tsx';

const FILTERS = ['person', 'actor', 'organizationId', 'action', 'subjectId', 'from', 'to'] as const;
type Filter = typeof FILTERS[number];
const ACTOR_ID = /^(staff|member|key):\S+$|^bootstrap(:.*)?$/;

/**
 * Who did what, when, with the record before and after. Filters live in the address (?actor=…), so a
 * decision's "Audit" link opens its entries and any search can be shared.
 */
export function AuditPage() {
  const { search } = useLocation();
  const applied = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''])) as Record<Filter, string>;
  const page = Number(search.get('page') ?? '1') || 1;
  const [draft, setDraft] = useState(applied);
  const key = search.toString();
  // A link to other filters (a decision's "Audit") while this page is open: the boxes follow the address.
  useEffect(() => { setDraft(Object.fromEntries(FILTERS.map((f) => [f, new URLSearchParams(key).get(f) ?? ''])) as Record<Filter, string>); }, [key]);
  const q = useQuery({
    queryKey: ['audit', applied, page],
    placeholderData: (prev) => prev,
    queryFn: () => op.audit.list({
      // An actor id pasted as the person (`staff:stf_…`, `bootstrap`) is searched as that actor.
      ...(applied.person ? (ACTOR_ID.test(applied.person) ? { actor: applied.person } : { person: applied.person }) : {}),
      ...(applied.actor ? { actor: applied.actor } : {}), ...(applied.organizationId ? { organizationId: applied.organizationId } : {}),
      ...(applied.action ? { action: applied.action } : {}), ...(applied.subjectId ? { subjectId: applied.subjectId } : {}),
      ...(applied.from ? { from: new Date(`${applied.from}T00:00:00`).toISOString() } : {}), ...(applied.to ? { to: endOfDay(applied.to) } : {}),
      page, limit: 25,
    }),
  });
  const go = (f: Record<Filter, string>, p = 1) => {
    const s = new URLSearchParams();
    for (const k of FILTERS) if (f[k].trim()) s.set(k, f[k].trim());
    if (p > 1) s.set('page', String(p));
    navigate(`/audit${s.size ? `?${s}` : ''}`);
  };
  const submit = (e: FormEvent) => { e.preventDefault(); go(draft); };
  const assets = useAssets();
  const decimals = (s: string) => decimalsOf(assets.data, s);
  return (
    <Page title="Audit" intro="Every decision and change at the operator: who, what, when, before and after. Newest first.">
      <form onSubmit={submit} className="grid-form" role="search" aria-label="Search the audit trail">
        <Field label="Person" value={draft.person} onChange={(v) => setDraft({ ...draft, person: v })} hint="Part of a name or an email: staff or a client's member." />
        {draft.actor && <Field label="Actor id" value={draft.actor} onChange={(v) => setDraft({ ...draft, actor: v })} hint="staff:<id>, bootstrap, member:<id> or key:<id>" />}
        <Field label="Organization id" value={draft.organizationId} onChange={(v) => setDraft({ ...draft, organizationId: v })} />
        <Field label="Kind" value={draft.action} onChange={(v) => setDraft({ ...draft, action: v })} hint="e.g. order.approve, deposit.attribute" />
        <Field label="Record id" value={draft.subjectId} onChange={(v) => setDraft({ ...draft, subjectId: v })} />
        <Field label="From date" type="date" value={draft.from} onChange={(v) => setDraft({ ...draft, from: v })} />
        <Field label="To date" type="date" value={draft.to} onChange={(v) => setDraft({ ...draft, to: v })} />
        <div className="actions">
          <button type="submit" className="primary">Search</button>
          <button type="button" onClick={() => { const empty = Object.fromEntries(FILTERS.map((f) => [f, ''])) as Record<Filter, string>; setDraft(empty); go(empty); }}>Clear</button>
        </div>
      </form>
      <ReadAt at={q.dataUpdatedAt} fetching={q.isFetching} />
      {q.isPending ? <Loading what="the audit trail" /> : q.error ? <ErrorNote error={q.error} /> : q.data.items.length === 0 ? <Empty>No entry matches.</Empty> : (
        <>
          <div className="scroll-x">
          <table className="audit">
            <caption className="visually-hidden">Audit entries, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Person</th><th scope="col">Kind</th><th scope="col">Record</th><th scope="col">Change</th></tr></thead>
            <tbody>
              {q.data.items.map((a) => (
                <tr key={a.id}>
                  <td>{when(a.createdAt)}</td>
                  <td><Actor actor={a.actor} name={a.actorName ?? null} email={a.actorEmail ?? null} /></td>
                  <td>{a.action}</td>
                  <td>{a.subjectType} <code>{a.subjectId}</code></td>
                  <td><Change before={a.before} after={a.after} subjectType={a.subjectType} subjectId={a.subjectId} decimals={decimals} /></td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
          <nav aria-label="Pages of the audit trail" className="pager">
            <button type="button" disabled={page <= 1} onClick={() => go(applied, page - 1)}>Previous page</button>
            <span>Page {q.data.pagination.page} of {Math.max(1, q.data.pagination.totalPages)} ({q.data.pagination.total} entries)</span>
            <button type="button" disabled={page >= q.data.pagination.totalPages} onClick={() => go(applied, page + 1)}>Next page</button>
          </nav>
        </>
      )}
    </Page>
  );
}

/** A date box means the whole day in the person's time zone: up to the next midnight, exclusive. */
function endOfDay(date: string): string {
  const d = new Date(`${date}T00:00:00`);
  d.setDate(d.getDate() + 1);
  return d.toISOString();
}

/** The record before and after, field by field, amounts in their asset's decimals; changed fields first marked. */
function Change({ before, after, subjectType, subjectId, decimals }: {
  before: unknown; after: unknown; subjectType: string; subjectId: string; decimals: (s: string) => number | null;
}) {
  const rows = changeRows(before, after, subjectType, subjectId, decimals, (m, d) => formatMoney(m, d, LANG));
  if (rows.length === 0) return null;
  return (
    <details>
      <summary>Before and after</summary>
      <table className="change">
        <caption className="visually-hidden">Fields before and after</caption>
        <thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.field} className={r.changed ? 'changed' : undefined}>
              <th scope="row">{r.field}{r.changed && <span className="visually-hidden"> (changed)</span>}</th>
              <td>{r.before}</td><td>{r.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
