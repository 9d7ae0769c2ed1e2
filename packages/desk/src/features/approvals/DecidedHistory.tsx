import { sandboxOutcome } from '@cambio/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DataTable, ErrorBox, Loading, MoneyText, ReadAt, SelectField, StateBadge } from '@cambio/web-kit';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useOrganizationNames } from '../../lib/organizations.ts';
import { Link } from '../../lib/router.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

type Kind = 'any' | 'order' | 'withdrawal';
const DECIDED = ['approved', 'completed', 'rejected', 'failed'] as const;

/**
 * Who approved: the staff persons recorded. An approved request without any was approved by no person,
 * named as the audit trail names it (docs/security.md): in sandbox a magic amount by the sandbox itself
 * (docs/sandbox.md), anything else by the bootstrap token.
 */
function approvedBy(
  r: { state: string; approvals?: ReadonlyArray<{ name: string }>; base?: { amountMinor: bigint }; money?: { amountMinor: bigint } },
  mode: string,
) {
  const people = (r.approvals ?? []).map((a) => a.name).join(', ');
  if (people) return people;
  if (r.state === 'rejected') return '—';
  const amount = r.base?.amountMinor ?? r.money?.amountMinor;
  if (mode === 'sandbox' && amount !== undefined && sandboxOutcome(amount) !== null) return <code>sandbox</code>;
  return <code title={t('history.bootstrapTitle')}>bootstrap</code>;
}

/**
 * Requests a person already decided, newest first: what was approved (and executed), rejected or
 * failed, by whom, with the reason; filtered by kind, state and organization, paged. Every kind by
 * default: a withdrawal just approved is there without choosing anything (a page holds a page of each).
 */
export function DecidedHistory() {
  const { mode } = useDesk();
  const [kind, setKind] = useState<Kind>('any');
  const [state, setState] = useState<string>('');
  const [org, setOrg] = useState('');
  const [page, setPage] = useState(1);
  const orgs = useQuery({ queryKey: ['organizations', 'all'], queryFn: () => op.organizations.list({ limit: 100 }), staleTime: 60_000 });
  const h = useQuery({
    queryKey: ['queue', 'history', kind, state, org, page],
    placeholderData: (prev) => prev,
    queryFn: async () => {
      const q = { page, limit: 25, ...(state ? { state } : {}), ...(org ? { organizationId: org } : {}) };
      const [orders, withdrawals] = await Promise.all([
        kind === 'withdrawal' ? null : op.orders.list(q),
        kind === 'order' ? null : op.withdrawals.list(q),
      ]);
      // Without a state chosen the list has every state: what still waits for a decision is the queue's, not the history's.
      const keep = (r: { state: string; organizationId: string }) => r.state !== 'pending_approval' && (!org || r.organizationId === org);
      const items = [
        ...(orders?.items ?? []).filter(keep).map((r) => ({ kind: 'order' as const, r })),
        ...(withdrawals?.items ?? []).filter(keep).map((r) => ({ kind: 'withdrawal' as const, r })),
      ].sort((a, b) => (a.r.updatedAt < b.r.updatedAt ? 1 : a.r.updatedAt > b.r.updatedAt ? -1 : 0));
      const totalPages = Math.max(orders?.pagination.totalPages ?? 0, withdrawals?.pagination.totalPages ?? 0);
      return { items, pagination: { page, totalPages } };
    },
  });
  const names = useOrganizationNames(h.data?.items.map((x) => x.r.organizationId) ?? []);
  const choose = (f: () => void) => {
    f();
    setPage(1);
  };
  return (
    <section aria-labelledby="history-title" className="panel">
      <h2 id="history-title">{t('history.title')}</h2>
      <form className="grid-form" role="search" aria-label={t('history.filter')} onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={t('history.kind')}
          value={kind}
          onChange={(v) => choose(() => setKind(v === 'withdrawal' || v === 'order' ? v : 'any'))}
          options={[
            { value: 'any', label: t('history.anyKind') },
            { value: 'order', label: t('common.orders') },
            { value: 'withdrawal', label: t('common.withdrawals') },
          ]}
        />
        <SelectField
          label={t('history.decision')}
          value={state}
          onChange={(v) => choose(() => setState(v))}
          options={[{ value: '', label: t('history.any') }, ...DECIDED.map((s) => ({ value: s, label: t(`history.${s}`) }))]}
        />
        <SelectField
          label={t('common.organization')}
          value={org}
          onChange={(v) => choose(() => setOrg(v))}
          options={[{ value: '', label: t('history.every') }, ...(orgs.data?.items ?? []).map((o) => ({ value: o.id, label: o.name }))]}
        />
      </form>
      <ReadAt at={h.dataUpdatedAt} fetching={h.isFetching} />
      {h.isPending ? (
        <Loading what={t('history.loading')} />
      ) : h.error ? (
        <ErrorBox error={h.error} />
      ) : h.data.items.length === 0 ? (
        <Empty>{t(kind === 'order' ? 'history.noneOrder' : kind === 'withdrawal' ? 'history.noneWithdrawal' : 'history.none')}</Empty>
      ) : (
        <>
          <DataTable
            caption={t('history.caption')}
            rows={h.data.items}
            rowKey={(x) => `${x.kind}:${x.r.id}`}
            columns={[
              {
                label: t('common.request'),
                rowHeader: true,
                cell: ({ kind: k, r }) => (
                  <>
                    <span className="kind">{k === 'order' ? t('common.order') : t('common.withdrawal')}</span> <code>{r.id}</code>
                  </>
                ),
              },
              {
                label: t('common.organization'),
                cell: ({ r }) => (
                  <Link to={`/organizations/${encodeURIComponent(r.organizationId)}`}>
                    {names.get(r.organizationId) ?? r.organizationId}
                  </Link>
                ),
              },
              { label: t('common.state'), cell: ({ r }) => <StateBadge state={r.state} /> },
              {
                label: t('common.amount'),
                num: true,
                cell: ({ r }) =>
                  'base' in r ? (
                    <>
                      <MoneyText money={r.base} />
                      <br />
                      <MoneyText money={r.quote} />
                    </>
                  ) : 'money' in r ? (
                    <MoneyText money={r.money} />
                  ) : null,
              },
              ...(kind !== 'order'
                ? [
                    {
                      label: t('history.venueTxid'),
                      cell: ({ r }: (typeof h.data.items)[number]) =>
                        'money' in r ? (
                          <>
                            {r.venue && (
                              <span className="small">
                                {t('history.atVenue', { state: r.venue.state, status: r.venue.status ?? '—' })}
                                <br />
                              </span>
                            )}
                            {r.txid && <code className="txid">{r.txid}</code>}
                          </>
                        ) : null,
                    },
                  ]
                : []),
              { label: t('history.approvedBy'), cell: ({ r }) => approvedBy(r, mode) },
              { label: t('common.reason'), cell: ({ r }) => r.reason ?? '' },
              { label: t('common.created'), cell: ({ r }) => when(r.createdAt) },
              {
                label: t('common.audit'),
                cell: ({ r }) => (
                  <Link to={`/audit?subjectId=${encodeURIComponent(r.id)}`}>
                    {t('common.audit')}
                    <span className="visually-hidden">{t('common.auditOf', { id: r.id })}</span>
                  </Link>
                ),
              },
            ]}
          />
          <nav aria-label={t('history.pages')} className="pager">
            <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              {t('common.prev')}
            </button>
            <span>{t('common.page', { page: h.data.pagination.page, pages: Math.max(1, h.data.pagination.totalPages) })}</span>
            <button type="button" disabled={page >= h.data.pagination.totalPages} onClick={() => setPage(page + 1)}>
              {t('common.next')}
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
