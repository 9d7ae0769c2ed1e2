import type { VenueExecution, VenueView } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { Amount, ErrorBox, Loading, ReadAt } from '@cambio/web-kit';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { Link } from '../../lib/router.ts';
import { when } from '../../lib/time.ts';
import { t } from '../../lib/i18n.ts';

/** Seconds with a tenth, from whole milliseconds: integer arithmetic only. */
const seconds = (ms: number) => `${Math.trunc(ms / 1000)}.${Math.trunc((ms % 1000) / 100)} s`;

const HEALTH = (h: VenueView['health']): string => t(`venue.health.${h}`);

const EXECUTION = (s: VenueExecution['state']): string => t(`venue.exec.${s}`);

/**
 * The market behind production as the desk watches it: whether the venue answers, how old the book
 * behind each pair's quotes is, and every order sent there with the venue's own figures. A partial
 * fill is completed by hand where approved requests wait (Approvals, Record fill).
 */
export function VenuePage() {
  const view = useQuery({ queryKey: ['venue'], queryFn: () => op.venue.get(), refetchInterval: 2_000 });
  const executions = useQuery({
    queryKey: ['venue', 'executions'],
    queryFn: () => op.venue.executions({ limit: 50 }),
    refetchInterval: 5_000,
  });
  const v = view.data;
  return (
    <Page title={t('nav.venue')} intro={t('venue.intro')}>
      <section aria-labelledby="health-title" className={`panel ${v?.health === 'failing' ? 'stop-panel' : ''}`}>
        <h2 id="health-title">{t('venue.health')}</h2>
        <ReadAt at={view.dataUpdatedAt} fetching={view.isFetching} />
        {view.isPending ? (
          <Loading what={t('venue.loading')} />
        ) : view.error ? (
          <ErrorBox error={view.error} />
        ) : !v ? null : v.kind !== 'ccxt' ? (
          <p>{v.kind === 'desk' ? t('venue.deskKind') : t('venue.sandboxKind')}</p>
        ) : (
          <dl className="facts">
            <dt>{t('venue.exchange')}</dt>
            <dd>{v.exchange}</dd>
            <dt>{t('common.state')}</dt>
            <dd>
              <span className={`badge badge-${v.health}`}>{HEALTH(v.health)}</span>
            </dd>
            <dt>{t('venue.lastSuccess')}</dt>
            <dd>{v.lastSuccessAt ? when(v.lastSuccessAt) : t('venue.noneYet')}</dd>
            <dt>{t('venue.lastError')}</dt>
            <dd>
              {v.lastError ? (
                <>
                  {when(v.lastError.at)}: <code>{v.lastError.kind}</code> {v.lastError.detail}
                </>
              ) : (
                t('venue.none')
              )}
            </dd>
            <dt>{t('venue.awaiting')}</dt>
            <dd>{v.awaitingOutcome}</dd>
            <dt>{t('venue.partials')}</dt>
            <dd>
              {v.partialFills}
              {v.partialFills > 0 && (
                <>
                  {' '}
                  — <Link to="/approvals">{t('venue.recordThem')}</Link>
                </>
              )}
            </dd>
          </dl>
        )}
      </section>

      {v?.venues && v.venues.length > 1 && (
        <section aria-labelledby="venues-title" className="panel">
          <h2 id="venues-title">{t('venue.venues')}</h2>
          <table tabIndex={0}>
            <caption className="visually-hidden">{t('venue.venuesCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('venue.name')}</th>
                <th scope="col">{t('venue.exchange')}</th>
                <th scope="col">{t('common.state')}</th>
                <th scope="col">{t('venue.lastError')}</th>
                <th scope="col">{t('venue.bookAge')}</th>
              </tr>
            </thead>
            <tbody>
              {v.venues.map((m) => (
                <tr key={m.name}>
                  <th scope="row">{m.name}</th>
                  <td>{m.exchange}</td>
                  <td>
                    <span className={`badge badge-${m.health}`}>{HEALTH(m.health)}</span>
                  </td>
                  <td>{m.lastError ? `${when(m.lastError.at)}: ${m.lastError.kind}` : t('venue.none')}</td>
                  <td>
                    {m.pairs.map((p) => (
                      <div key={`${p.baseSymbol}/${p.quoteSymbol}`}>
                        {p.baseSymbol}/{p.quoteSymbol}:{' '}
                        {p.bookAgeMs === null
                          ? t('venue.noBook')
                          : `${seconds(p.bookAgeMs)}${p.fresh ? '' : t('venue.older', { max: seconds(p.maxBookAgeMs) })}`}
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section aria-labelledby="books-title" className="panel">
        <h2 id="books-title">{t('venue.books')}</h2>
        {!v ? null : v.pairs.length === 0 ? (
          <Empty>{t('venue.noPair')}</Empty>
        ) : (
          // Focusable: on a narrow screen the table scrolls sideways, and a keyboard must reach it.
          <table tabIndex={0}>
            <caption className="visually-hidden">{t('venue.booksCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('venue.pair')}</th>
                <th scope="col">{t('venue.market')}</th>
                <th scope="col" className="num">
                  {t('venue.bookAge')}
                </th>
                <th scope="col" className="num">
                  {t('venue.bestBid')}
                </th>
                <th scope="col" className="num">
                  {t('venue.bestAsk')}
                </th>
              </tr>
            </thead>
            <tbody>
              {v.pairs.map((p) => (
                <tr key={`${p.baseSymbol}/${p.quoteSymbol}`}>
                  <th scope="row">
                    {p.baseSymbol}/{p.quoteSymbol}
                  </th>
                  <td>{p.venueSymbol}</td>
                  <td className="num">
                    {p.bookAgeMs === null
                      ? t('venue.noBook')
                      : `${seconds(p.bookAgeMs)}${p.fresh ? '' : t('venue.older', { max: seconds(p.maxBookAgeMs) })}`}
                  </td>
                  <td className="num">{p.bestBid === null ? '—' : `${p.bestBid} × ${p.bestBidQty}`}</td>
                  <td className="num">{p.bestAsk === null ? '—' : `${p.bestAsk} × ${p.bestAskQty}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="executions-title">
        <h2 id="executions-title">{t('venue.executions')}</h2>
        <ReadAt at={executions.dataUpdatedAt} fetching={executions.isFetching} />
        {executions.isPending ? (
          <Loading what={t('venue.loadingExec')} />
        ) : executions.error ? (
          <ErrorBox error={executions.error} />
        ) : executions.data.length === 0 ? (
          <Empty>{t('venue.noExec')}</Empty>
        ) : (
          <table tabIndex={0}>
            <caption className="visually-hidden">{t('venue.execCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common.order')}</th>
                <th scope="col">{t('venue.venueCol')}</th>
                <th scope="col">{t('venue.stateAt')}</th>
                <th scope="col">{t('venue.venueOrderId')}</th>
                <th scope="col">{t('venue.sent')}</th>
                <th scope="col" className="num">
                  {t('venue.execBase')}
                </th>
                <th scope="col" className="num">
                  {t('venue.execQuote')}
                </th>
                <th scope="col" className="num">
                  {t('decision.proceedsLine')}
                </th>
                <th scope="col" className="num">
                  {t('venue.owed')}
                </th>
              </tr>
            </thead>
            <tbody>
              {executions.data.map((x) => (
                <tr key={x.orderId}>
                  <th scope="row">
                    <Link to={`/orders/${encodeURIComponent(x.orderId)}`}>
                      <code>{x.orderId}</code>
                    </Link>
                    <br />
                    <span className="small">
                      {x.side === 'sell' ? 'sell' : 'buy'} {x.venueSymbol}, {x.amountSent} sent
                    </span>
                  </th>
                  <td>{x.venue}</td>
                  <td>
                    <span className={`badge badge-${x.state}`}>{EXECUTION(x.state)}</span>
                    {x.reason && (
                      <>
                        <br />
                        <span className="small">{x.reason}</span>
                      </>
                    )}
                    {x.state === 'partial' && x.orderState === 'approved' && (
                      <>
                        <br />
                        <Link to="/approvals">
                          {t('approvals.recordFill')}
                          <span className="visually-hidden">{t('people.of', { name: x.orderId })}</span>
                        </Link>
                      </>
                    )}
                  </td>
                  <td>{x.venueOrderId ?? '—'}</td>
                  <td>
                    {x.sentAt ? when(x.sentAt) : '—'}
                    {x.attempts > 1 && <span className="small"> ({x.attempts} attempts)</span>}
                  </td>
                  <td className="num">{x.executedQty ?? '—'}</td>
                  <td className="num">{x.quoteQty ?? '—'}</td>
                  <td className="num">
                    {x.proceedsQuoteMinor === null ? (
                      '—'
                    ) : (
                      <Amount minor={x.proceedsQuoteMinor} decimals={x.quoteDecimals} symbol={x.quoteSymbol} />
                    )}
                  </td>
                  <td className="num">
                    <Amount minor={x.owedQuoteMinor} decimals={x.quoteDecimals} symbol={x.quoteSymbol} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Page>
  );
}
