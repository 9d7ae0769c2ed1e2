import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorBox, Field, formatMoney, Loading, ReadAt } from '@cambio/web-kit';
import { LANG, t } from '../../lib/i18n.ts';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { navigate, useLocation } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { changeRows } from './change.ts';
import { Actor } from '../../components/Actor.tsx';
import { auditKindWord, auditSubject } from './words.ts';

const FILTERS = ['person', 'actor', 'organizationId', 'action', 'subjectId', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
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
  useEffect(() => {
    setDraft(Object.fromEntries(FILTERS.map((f) => [f, new URLSearchParams(key).get(f) ?? ''])) as Record<Filter, string>);
  }, [key]);
  const q = useQuery({
    queryKey: ['audit', applied, page],
    placeholderData: (prev) => prev,
    queryFn: () =>
      op.audit.list({
        // An actor id pasted as the person (`staff:stf_…`, `bootstrap`) is searched as that actor.
        ...(applied.person ? (ACTOR_ID.test(applied.person) ? { actor: applied.person } : { person: applied.person }) : {}),
        ...(applied.actor ? { actor: applied.actor } : {}),
        ...(applied.organizationId ? { organizationId: applied.organizationId } : {}),
        ...(applied.action ? { action: applied.action } : {}),
        ...(applied.subjectId ? { subjectId: applied.subjectId } : {}),
        ...(applied.from ? { from: new Date(`${applied.from}T00:00:00`).toISOString() } : {}),
        ...(applied.to ? { to: endOfDay(applied.to) } : {}),
        page,
        limit: 25,
      }),
  });
  const go = (f: Record<Filter, string>, p = 1) => {
    const s = new URLSearchParams();
    for (const k of FILTERS) if (f[k].trim()) s.set(k, f[k].trim());
    if (p > 1) s.set('page', String(p));
    navigate(`/audit${s.size ? `?${s}` : ''}`);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    go(draft);
  };
  const assets = useAssets();
  const decimals = (s: string) => decimalsOf(assets.data, s);
  return (
    <Page title={t('nav.audit')} intro={t('audit.intro')}>
      <form onSubmit={submit} className="grid-form" role="search" aria-label={t('audit.search')}>
        <Field
          label={t('audit.person')}
          value={draft.person}
          onChange={(v) => setDraft({ ...draft, person: v })}
          hint={t('audit.personHint')}
        />
        {draft.actor && (
          <Field
            label={t('audit.actor')}
            value={draft.actor}
            onChange={(v) => setDraft({ ...draft, actor: v })}
            hint={t('audit.actorHint')}
          />
        )}
        <Field label={t('audit.organizationId')} value={draft.organizationId} onChange={(v) => setDraft({ ...draft, organizationId: v })} />
        <Field
          label={t('audit.kind')}
          value={draft.action}
          onChange={(v) => setDraft({ ...draft, action: v })}
          hint={t('audit.kindHint')}
        />
        <Field label={t('audit.recordId')} value={draft.subjectId} onChange={(v) => setDraft({ ...draft, subjectId: v })} />
        <Field label={t('audit.from')} type="date" value={draft.from} onChange={(v) => setDraft({ ...draft, from: v })} />
        <Field label={t('audit.to')} type="date" value={draft.to} onChange={(v) => setDraft({ ...draft, to: v })} />
        <div className="actions">
          <button type="submit" className="primary">
            {t('audit.submit')}
          </button>
          <button
            type="button"
            onClick={() => {
              const empty = Object.fromEntries(FILTERS.map((f) => [f, ''])) as Record<Filter, string>;
              setDraft(empty);
              go(empty);
            }}
          >
            {t('audit.clear')}
          </button>
        </div>
      </form>
      <ReadAt at={q.dataUpdatedAt} fetching={q.isFetching} />
      {q.isPending ? (
        <Loading what={t('audit.theTrail')} />
      ) : q.error ? (
        <ErrorBox error={q.error} />
      ) : q.data.items.length === 0 ? (
        <Empty>{t('audit.none')}</Empty>
      ) : (
        <>
          <div className="scroll-x">
            <table className="audit">
              <caption className="visually-hidden">{t('audit.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('audit.when')}</th>
                  <th scope="col">{t('audit.person')}</th>
                  <th scope="col">{t('audit.kind')}</th>
                  <th scope="col">{t('audit.record')}</th>
                  <th scope="col">{t('audit.change')}</th>
                </tr>
              </thead>
              <tbody>
                {q.data.items.map((a) => (
                  <tr key={a.id}>
                    <td>{when(a.createdAt)}</td>
                    <td>
                      <Actor actor={a.actor} name={a.actorName ?? null} email={a.actorEmail ?? null} />
                    </td>
                    <td>
                      {auditKindWord(a.action)}
                      {/* The recorded kind too, small: it is what the Kind filter takes. */}
                      <br />
                      <code className="small">{a.action}</code>
                    </td>
                    <td>
                      <Subject type={a.subjectType} id={a.subjectId} />
                    </td>
                    <td>
                      <Change before={a.before} after={a.after} subjectType={a.subjectType} subjectId={a.subjectId} decimals={decimals} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav aria-label={t('audit.pages')} className="pager">
            <button type="button" disabled={page <= 1} onClick={() => go(applied, page - 1)}>
              {t('common.prev')}
            </button>
            <span>
              {t('common.page', { page: q.data.pagination.page, pages: Math.max(1, q.data.pagination.totalPages) })}
              {t('audit.entries', { n: q.data.pagination.total })}
            </span>
            <button type="button" disabled={page >= q.data.pagination.totalPages} onClick={() => go(applied, page + 1)}>
              {t('common.next')}
            </button>
          </nav>
        </>
      )}
    </Page>
  );
}

/** The record an entry is about, in words, with its identifier when it has one of its own. */
function Subject({ type, id }: { type: string; id: string }) {
  const s = auditSubject(type, id);
  return s.id ? (
    <>
      {s.word} <code>{s.id}</code>
    </>
  ) : (
    <>{s.word}</>
  );
}

/** A date box means the whole day in the person's time zone: up to the next midnight, exclusive. */
function endOfDay(date: string): string {
  const d = new Date(`${date}T00:00:00`);
  d.setDate(d.getDate() + 1);
  return d.toISOString();
}

/** The record before and after, field by field, amounts in their asset's decimals; changed fields first marked. */
function Change({
  before,
  after,
  subjectType,
  subjectId,
  decimals,
}: {
  before: unknown;
  after: unknown;
  subjectType: string;
  subjectId: string;
  decimals: (s: string) => number | null;
}) {
  const rows = changeRows(before, after, subjectType, subjectId, decimals, (m, d) => formatMoney(m, d, LANG));
  if (rows.length === 0) return null;
  return (
    <details>
      <summary>{t('audit.beforeAfter')}</summary>
      <table className="change">
        <caption className="visually-hidden">{t('audit.fieldsCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('audit.field')}</th>
            <th scope="col">{t('audit.before')}</th>
            <th scope="col">{t('audit.after')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.field} className={r.changed ? 'changed' : undefined}>
              <th scope="row">
                {r.field}
                {r.changed && <span className="visually-hidden">{t('audit.changed')}</span>}
              </th>
              <td>{r.before}</td>
              <td>{r.after}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
