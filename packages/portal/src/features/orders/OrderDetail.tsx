import type { Lang } from '@cambio/contract';
import { useQuery } from '@tanstack/react-query';
import type { Order } from '@cambio/sdk';
import { Amount, ErrorBox, formatMoney, Loading, StateBadge } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import type { Translate } from '../../lib/i18n.ts';
import { DateTime } from '../../components/ui.tsx';
import { Link } from '../../lib/router.ts';
import { orderEvents, stateAfter } from './order-events.ts';

const waiting = (state: string) => state === 'pending_approval' || state === 'approved';

/** One step of the timeline: when, and what happened in the person's words. */
interface Step {
  key: string;
  at: string;
  state: string;
  reason: string | null;
}

/** What a step says: the state it left the order in, with what was received when it completed. */
function stepWords(t: Translate, lang: Lang, o: Order, state: string): string {
  switch (state) {
    case 'pending_approval':
      return t('order.event.created');
    case 'approved':
      return t('order.event.approved');
    case 'completed':
      return t('order.event.completed', {
        amount: `${formatMoney(o.quote.amountMinor, o.quote.assetDecimals, lang)} ${o.quote.assetSymbol}`,
      });
    case 'rejected':
      return t('order.event.rejected');
    case 'failed':
      return t('order.event.failed');
    case 'cancelled':
      return t('order.event.cancelled');
    default:
      return state;
  }
}

/** One order: what it delivers and receives, at which rate, from which quote, and what happened when. */
export function OrderDetail({ id }: { id: string }) {
  const { sdk, t, lang } = usePortal();
  const order = useQuery({
    queryKey: ['orders', 'one', id],
    queryFn: () => sdk.orders.get(id),
    refetchInterval: (q) => (q.state.data && waiting(q.state.data.state) ? 3000 : false),
  });
  const quote = useQuery({
    queryKey: ['quote', order.data?.quoteId],
    queryFn: () => sdk.quotes.get(order.data!.quoteId),
    enabled: !!order.data,
    retry: false,
  });
  const o = order.data;
  // Read again when the order changes state; an event is listed a moment after its change commits, so
  // while the newest one found lags the order's state, look again shortly.
  const events = useQuery({
    queryKey: ['orders', 'events', id, o?.state],
    queryFn: () => orderEvents(sdk.events, id),
    enabled: !!o,
    refetchInterval: (q) => {
      const found = q.state.data?.events;
      return o && found && found.length > 0 && q.state.data?.complete && stateAfter(found[found.length - 1]!) !== o.state ? 1500 : false;
    },
  });

  const steps: Step[] = [];
  if (o) {
    const found = events.data?.events ?? [];
    if (found.length > 0) {
      for (const e of found)
        steps.push({ key: e.id, at: e.createdAt, state: stateAfter(e), reason: typeof e.data.reason === 'string' ? e.data.reason : null });
    } else {
      steps.push({ key: 'created', at: o.createdAt, state: 'pending_approval', reason: null });
    }
    // The order's own state when its event is not (yet) among those read.
    if (steps[steps.length - 1]!.state !== o.state) steps.push({ key: 'now', at: o.updatedAt, state: o.state, reason: o.reason });
  }

  return (
    <>
      <p>
        <Link to="/orders">{t('order.back')}</Link>
      </p>
      <h1>{t('order.title')}</h1>
      <ErrorBox error={order.error} />
      {order.isPending ? (
        <Loading />
      ) : (
        o && (
          <>
            <dl className="summary card">
              <dt>{t('common.state')}</dt>
              <dd>
                <StateBadge state={o.state} />
                {o.reason && <span className="small"> — {o.reason}</span>}
              </dd>
              <dt>{t('exchange.deliver')}</dt>
              <dd>
                <Amount minor={o.base.amountMinor} decimals={o.base.assetDecimals} symbol={o.base.assetSymbol} />
              </dd>
              <dt>{t('exchange.receive')}</dt>
              <dd>
                <Amount minor={o.quote.amountMinor} decimals={o.quote.assetDecimals} symbol={o.quote.assetSymbol} />
              </dd>
              <dt>{t('order.rate')}</dt>
              <dd>
                {t('exchange.rateText', {
                  base: o.base.assetSymbol,
                  rate: formatMoney(o.rateQuoteMinor, o.quote.assetDecimals, lang),
                  quote: o.quote.assetSymbol,
                })}
              </dd>
              <dt>{t('order.quote')}</dt>
              <dd>
                <code className="break">{o.quoteId}</code>
              </dd>
              {quote.data && (
                <>
                  <dt>{t('order.quoteExpires')}</dt>
                  <dd>
                    <DateTime iso={quote.data.expiresAt} />
                  </dd>
                </>
              )}
            </dl>
            <section aria-labelledby="timeline-h">
              <h2 id="timeline-h">{t('order.timeline')}</h2>
              <ErrorBox error={events.error} />
              {events.isPending && <Loading />}
              <ol className="timeline" aria-busy={events.isPending}>
                {steps.map((s) => (
                  <li key={s.key}>
                    <DateTime iso={s.at} /> — {stepWords(t, lang, o, s.state)}
                    {s.reason && <span className="small"> ({t('order.reason', { reason: s.reason })})</span>}
                  </li>
                ))}
              </ol>
              {events.data && !events.data.complete && <p className="small muted">{t('order.timelinePartial')}</p>}
            </section>
          </>
        )
      )}
    </>
  );
}
