import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Amount, DataTable, MoneyText, StateBadge } from '@cambio/web-kit';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';

/** Available, held and total per asset, exactly as the organization sees them in the portal. */
export function BalancesPanel({ id }: { id: string }) {
  const b = useQuery({ queryKey: ['organization', id, 'balances'], queryFn: () => op.organizations.balances(id), refetchInterval: 10_000 });
  return (
    <section aria-labelledby="balances-title" className="panel">
      <h2 id="balances-title">Balances</h2>
      <ReadAt at={b.dataUpdatedAt} fetching={b.isFetching} />
      {b.isPending ? <Loading what="balances" /> : b.error ? <ErrorNote error={b.error} /> : b.data.length === 0 ? <Empty>No balance yet.</Empty> : (
        <DataTable caption="Balances per asset" rows={b.data} rowKey={(r) => r.assetSymbol} columns={[
          { label: 'Asset', rowHeader: true, cell: (r) => r.assetSymbol },
          { label: 'Available', num: true, cell: (r) => <Amount minor={r.amountMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /> },
          { label: 'Held', num: true, cell: (r) => <Amount minor={r.heldMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /> },
          { label: 'Total', num: true, cell: (r) => <Amount minor={r.totalMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /> },
        ]} />
      )}
    </section>
  );
}

/** The organization's orders and withdrawals, newest first, with the reason of each refusal. */
export function RequestsPanel({ id }: { id: string }) {
  const orders = useQuery({ queryKey: ['organization', id, 'orders'], queryFn: async () => mine(await op.orders.list({ organizationId: id, limit: 20 }), id) });
  const withdrawals = useQuery({ queryKey: ['organization', id, 'withdrawals'], queryFn: async () => mine(await op.withdrawals.list({ organizationId: id, limit: 20 }), id) });
  return (
    <section aria-labelledby="requests-title" className="panel">
      <h2 id="requests-title">Requests</h2>
      <h3>Orders</h3>
      {orders.isPending ? <Loading what="orders" /> : orders.error ? <ErrorNote error={orders.error} /> : orders.data.items.length === 0 ? <Empty>No order.</Empty> : (
        <DataTable caption="Orders, newest first" rows={orders.data.items} rowKey={(o) => o.id} columns={[
          { label: 'Order', rowHeader: true, cell: (o) => <Link to={`/audit?subjectId=${encodeURIComponent(o.id)}`}><code>{o.id}</code></Link> },
          { label: 'State', cell: (o) => <StateBadge state={o.state} /> },
          { label: 'Delivers', num: true, cell: (o) => <MoneyText money={o.base} /> },
          { label: 'Receives', num: true, cell: (o) => <MoneyText money={o.quote} /> },
          { label: 'Created', cell: (o) => when(o.createdAt) },
          { label: 'Reason', cell: (o) => o.reason ?? '' },
        ]} />
      )}
      <h3>Withdrawals</h3>
      {withdrawals.isPending ? <Loading what="withdrawals" /> : withdrawals.error ? <ErrorNote error={withdrawals.error} /> : withdrawals.data.items.length === 0 ? <Empty>No withdrawal.</Empty> : (
        <DataTable caption="Withdrawals, newest first" rows={withdrawals.data.items} rowKey={(w) => w.id} columns={[
          { label: 'Withdrawal', rowHeader: true, cell: (w) => <Link to={`/audit?subjectId=${encodeURIComponent(w.id)}`}><code>{w.id}</code></Link> },
          { label: 'State', cell: (w) => <StateBadge state={w.state} /> },
          { label: 'Amount', num: true, cell: (w) => <MoneyText money={w.money} /> },
          { label: 'To', cell: (w) => w.destinationSummary },
          { label: 'Created', cell: (w) => when(w.createdAt) },
          { label: 'Reason', cell: (w) => w.reason ?? '' },
        ]} />
      )}
    </section>
  );
}

/** Only this organization's records, even from a server that would not filter them. */
function mine<T extends { organizationId: string }>(p: { items: T[]; pagination: unknown }, id: string) {
  return { ...p, items: p.items.filter((x) => x.organizationId === id) };
}

/** Every posting of the organization's accounts, newest first, paged. */
export function LedgerPanel({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const [asOf, setAsOf] = useState<string | undefined>(undefined);
  const l = useQuery({
    queryKey: ['organization', id, 'ledger', page, asOf],
    queryFn: () => op.organizations.ledger(id, { page, limit: 20, ...(asOf ? { asOf } : {}) }),
    placeholderData: (prev) => prev,
  });
  const go = (p: number) => { if (!asOf && l.data?.pagination.asOf) setAsOf(l.data.pagination.asOf); setPage(p); };
  return (
    <section aria-labelledby="ledger-title" className="panel">
      <h2 id="ledger-title">Ledger</h2>
      {l.isPending ? <Loading what="the ledger" /> : l.error ? <ErrorNote error={l.error} /> : l.data.items.length === 0 ? <Empty>No movement yet.</Empty> : (
        <>
          <DataTable caption="Ledger postings, newest first" rows={l.data.items} rowKey={(e) => e.id} columns={[
            { label: 'When', cell: (e) => when(e.createdAt) },
            { label: 'Kind', cell: (e) => e.kind },
            { label: 'Account', cell: (e) => e.account },
            { label: 'Amount', num: true, cell: (e) => <Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} /> },
            { label: 'Reference', cell: (e) => (e.referenceId ? <code>{e.referenceId}</code> : '') },
            { label: 'Memo', cell: (e) => e.memo ?? '' },
          ]} />
          <nav aria-label="Pages of the ledger" className="pager">
            <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>Previous page</button>
            <span>Page {l.data.pagination.page} of {Math.max(1, l.data.pagination.totalPages)}</span>
            <button type="button" disabled={page >= l.data.pagination.totalPages} onClick={() => go(page + 1)}>Next page</button>
          </nav>
        </>
      )}
    </section>
  );
}
