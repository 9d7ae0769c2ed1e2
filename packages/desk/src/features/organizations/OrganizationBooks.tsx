import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Amount, MoneyText, StateBadge } from '@cambio/web-kit';
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
        <table>
          <caption className="visually-hidden">Balances per asset</caption>
          <thead><tr><th scope="col">Asset</th><th scope="col" className="num">Available</th><th scope="col" className="num">Held</th><th scope="col" className="num">Total</th></tr></thead>
          <tbody>
            {b.data.map((r) => (
              <tr key={r.assetSymbol}>
                <th scope="row">{r.assetSymbol}</th>
                <td className="num"><Amount minor={r.amountMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /></td>
                <td className="num"><Amount minor={r.heldMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /></td>
                <td className="num"><Amount minor={r.totalMinor} decimals={r.assetDecimals} symbol={r.assetSymbol} /></td>
              </tr>
            ))}
          </tbody>
        </table>
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
        <table>
          <caption className="visually-hidden">Orders, newest first</caption>
          <thead><tr><th scope="col">Order</th><th scope="col">State</th><th scope="col" className="num">Delivers</th><th scope="col" className="num">Receives</th><th scope="col">Created</th><th scope="col">Reason</th></tr></thead>
          <tbody>
            {orders.data.items.map((o) => (
              <tr key={o.id}>
                <th scope="row"><Link to={`/audit?subjectId=${encodeURIComponent(o.id)}`}><code>{o.id}</code></Link></th>
                <td><StateBadge state={o.state} /></td>
                <td className="num"><MoneyText money={o.base} /></td><td className="num"><MoneyText money={o.quote} /></td>
                <td>{when(o.createdAt)}</td><td>{o.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Withdrawals</h3>
      {withdrawals.isPending ? <Loading what="withdrawals" /> : withdrawals.error ? <ErrorNote error={withdrawals.error} /> : withdrawals.data.items.length === 0 ? <Empty>No withdrawal.</Empty> : (
        <table>
          <caption className="visually-hidden">Withdrawals, newest first</caption>
          <thead><tr><th scope="col">Withdrawal</th><th scope="col">State</th><th scope="col" className="num">Amount</th><th scope="col">To</th><th scope="col">Created</th><th scope="col">Reason</th></tr></thead>
          <tbody>
            {withdrawals.data.items.map((w) => (
              <tr key={w.id}>
                <th scope="row"><Link to={`/audit?subjectId=${encodeURIComponent(w.id)}`}><code>{w.id}</code></Link></th>
                <td><StateBadge state={w.state} /></td>
                <td className="num"><MoneyText money={w.money} /></td><td>{w.destinationSummary}</td>
                <td>{when(w.createdAt)}</td><td>{w.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
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
          <table>
            <caption className="visually-hidden">Ledger postings, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Account</th><th scope="col" className="num">Amount</th><th scope="col">Reference</th><th scope="col">Memo</th></tr></thead>
            <tbody>
              {l.data.items.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.createdAt)}</td><td>{e.kind}</td><td>{e.account}</td>
                  <td className="num"><Amount minor={e.amountMinor} decimals={e.assetDecimals} symbol={e.assetSymbol} /></td>
                  <td>{e.referenceId ? <code>{e.referenceId}</code> : ''}</td><td>{e.memo ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
