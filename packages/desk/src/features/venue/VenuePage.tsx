import type { VenueExecution, VenueView } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { Amount } from '@cambio/web-kit';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';

/** Seconds with a tenth, from whole milliseconds: integer arithmetic only. */
const seconds = (ms: number) => `${Math.trunc(ms / 1000)}.${Math.trunc((ms % 1000) / 100)} s`;

const HEALTH: Record<VenueView['health'], string> = {
  ok: 'Answering: its last request succeeded',
  failing: 'Failing: its last request failed',
  idle: 'Nothing asked of it yet',
};

const EXECUTION: Record<VenueExecution['state'], string> = {
  new: 'About to be sent',
  sending: 'Sent — outcome being looked up',
  unknown: 'Outcome unknown — being looked up',
  filled: 'Filled',
  refused: 'Refused by the venue',
  partial: 'Filled in part — waits for the desk',
};

/**
 * The market behind production as the desk watches it: whether the venue answers, how old the book
 * behind each pair's quotes is, and every order sent there with the venue's own figures. A partial
 * fill is completed by hand where approved requests wait (Approvals, Record fill).
 */
export function VenuePage() {
  const view = useQuery({ queryKey: ['venue'], queryFn: () => op.venue.get(), refetchInterval: 2_000 });
  const executions = useQuery({ queryKey: ['venue', 'executions'], queryFn: () => op.venue.executions({ limit: 50 }), refetchInterval: 5_000 });
  const v = view.data;
  return (
    <Page title="Venue" intro="The exchange production trades at: its health, the order books quotes are priced from, and the orders sent there.">
      <section aria-labelledby="health-title" className={`panel ${v?.health === 'failing' ? 'stop-panel' : ''}`}>
        <h2 id="health-title">Health</h2>
        <ReadAt at={view.dataUpdatedAt} fetching={view.isFetching} />
        {view.isPending ? <Loading what="the venue" /> : view.error ? <ErrorNote error={view.error} /> : !v ? null : v.kind !== 'ccxt' ? (
          <p>{v.kind === 'desk' ? 'No exchange: the desk records every fill by hand (Approvals).' : 'The sandbox trades at its simulated market.'}</p>
        ) : (
          <dl className="facts">
            <dt>Exchange</dt><dd>{v.exchange}</dd>
            <dt>State</dt><dd><span className={`badge badge-${v.health}`}>{HEALTH[v.health]}</span></dd>
            <dt>Last success</dt><dd>{v.lastSuccessAt ? when(v.lastSuccessAt) : 'none yet'}</dd>
            <dt>Last error</dt><dd>{v.lastError ? <>{when(v.lastError.at)}: <code>{v.lastError.kind}</code> {v.lastError.detail}</> : 'none'}</dd>
            <dt>Orders waiting for an outcome</dt><dd>{v.awaitingOutcome}</dd>
            <dt>Partial fills waiting for the desk</dt><dd>{v.partialFills}{v.partialFills > 0 && <> — <Link to="/approvals">record their fills in Approvals</Link></>}</dd>
          </dl>
        )}
      </section>

      <section aria-labelledby="books-title" className="panel">
        <h2 id="books-title">Order books</h2>
        {!v ? null : v.pairs.length === 0 ? <Empty>No pair is priced from the venue.</Empty> : (
          // Focusable: on a narrow screen the table scrolls sideways, and a keyboard must reach it.
          <table tabIndex={0}>
            <caption className="visually-hidden">Venue-priced pairs and their books</caption>
            <thead><tr><th scope="col">Pair</th><th scope="col">Venue market</th><th scope="col" className="num">Book age</th><th scope="col" className="num">Best bid</th><th scope="col" className="num">Best ask</th></tr></thead>
            <tbody>
              {v.pairs.map((p) => (
                <tr key={`${p.baseSymbol}/${p.quoteSymbol}`}>
                  <th scope="row">{p.baseSymbol}/{p.quoteSymbol}</th>
                  <td>{p.venueSymbol}</td>
                  <td className="num">{p.bookAgeMs === null ? 'no book held' : `${seconds(p.bookAgeMs)}${p.fresh ? '' : ` — older than ${seconds(p.maxBookAgeMs)}: quotes wait`}`}</td>
                  <td className="num">{p.bestBid === null ? '—' : `${p.bestBid} × ${p.bestBidQty}`}</td>
                  <td className="num">{p.bestAsk === null ? '—' : `${p.bestAsk} × ${p.bestAskQty}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="executions-title">
        <h2 id="executions-title">Executions</h2>
        <ReadAt at={executions.dataUpdatedAt} fetching={executions.isFetching} />
        {executions.isPending ? <Loading what="executions" /> : executions.error ? <ErrorNote error={executions.error} /> : executions.data.length === 0 ? <Empty>No order sent to the venue yet.</Empty> : (
          <table tabIndex={0}>
            <caption className="visually-hidden">Orders sent to the venue, newest first</caption>
            <thead><tr><th scope="col">Order</th><th scope="col">State at the venue</th><th scope="col">Venue order id</th><th scope="col">Sent</th><th scope="col" className="num">Executed (base)</th><th scope="col" className="num">Executed (quote)</th><th scope="col" className="num">Proceeds</th><th scope="col" className="num">Owed to the client</th></tr></thead>
            <tbody>
              {executions.data.map((x) => (
                <tr key={x.orderId}>
                  <th scope="row"><code>{x.orderId}</code><br /><span className="small">{x.side === 'sell' ? 'sell' : 'buy'} {x.venueSymbol}, {x.amountSent} sent</span></th>
                  <td>
                    <span className={`badge badge-${x.state}`}>{EXECUTION[x.state]}</span>
                    {x.reason && <><br /><span className="small">{x.reason}</span></>}
                    {x.state === 'partial' && x.orderState === 'approved' && <><br /><Link to="/approvals">Record fill<span className="visually-hidden"> of {x.orderId}</span></Link></>}
                  </td>
                  <td>{x.venueOrderId ?? '—'}</td>
                  <td>{x.sentAt ? when(x.sentAt) : '—'}{x.attempts > 1 && <span className="small"> ({x.attempts} attempts)</span>}</td>
                  <td className="num">{x.executedQty ?? '—'}</td>
                  <td className="num">{x.quoteQty ?? '—'}</td>
                  <td className="num">{x.proceedsQuoteMinor === null ? '—' : <Amount minor={x.proceedsQuoteMinor} decimals={x.quoteDecimals} symbol={x.quoteSymbol} />}</td>
                  <td className="num"><Amount minor={x.owedQuoteMinor} decimals={x.quoteDecimals} symbol={x.quoteSymbol} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}
