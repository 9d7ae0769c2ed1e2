import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CambioError, type MarketPair, type Order, type Quote } from '@cambio/sdk';
import { useCallback, useState, type FormEvent } from 'react';
import { MagicAmounts } from '../../components/MagicAmounts.tsx';
import {
  Amount,
  ErrorBox,
  Field,
  formatMoney,
  formatTime,
  Loading,
  readAmount,
  SelectField,
  typedAmount,
  useActionKey,
} from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { Countdown, Notice } from '../../components/ui.tsx';
import { refreshAfterHold } from '../../lib/money-moved.ts';
import { Link } from '../../lib/router.ts';
import { usePaused } from '../../lib/paused.ts';

type Side = 'give' | 'get';

/** The rate of the last quote of each pair in this tab: shown before quoting, said to be indicative. */
const lastRates = new Map<string, { rate: bigint; decimals: number; at: number }>();

/**
 * Only the pairs `GET /api/v1/market/pairs` prices are offered (docs/design/people-and-apps.md), with the bounds a quote
 * accepts, the available balance of what one delivers and a Max that fills it in. A member whose role
 * does not trade sees the form disabled, with the reason beside it.
 *
 * Choose what to deliver and what to receive, type an amount as decimal text, get a quote with a live
 * countdown, accept it before it expires. Expired: said so, with a new quote one click away.
 */
export function Exchange() {
  const { sdk, t, can, lang } = usePortal();
  const quoteKey = useActionKey();
  const orderKey = useActionKey();
  const qc = useQueryClient();
  const mayTrade = can('portal:trade');
  const paused = usePaused();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const pairs = useQuery({ queryKey: ['market-pairs'], queryFn: () => sdk.market.pairs(), refetchInterval: 60_000 });
  const priced: MarketPair[] = pairs.data ?? [];
  const [give, setGive] = useState('');
  const [get, setGet] = useState('');
  const [side, setSide] = useState<Side>('give');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [quote, setQuote] = useState<Quote | null>(null);
  const [expired, setExpired] = useState(false);
  const [noPrice, setNoPrice] = useState(false);
  const [placed, setPlaced] = useState<Order | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const onExpire = useCallback(() => setExpired(true), []);

  // What one delivers is a pair's base; what one receives, a quote asset priced against it.
  const gives = [...new Set(priced.map((p) => p.baseSymbol))];
  const giveSym = gives.includes(give) ? give : (gives[0] ?? '');
  const gets = priced.filter((p) => p.baseSymbol === giveSym).map((p) => p.quoteSymbol);
  const getSym = gets.includes(get) ? get : (gets[0] ?? '');
  const pair = priced.find((p) => p.baseSymbol === giveSym && p.quoteSymbol === getSym);
  const held = balances.data?.find((b) => b.assetSymbol === giveSym);
  const amountSym = side === 'give' ? giveSym : getSym;
  const amountDecimals = pair ? (side === 'give' ? pair.baseDecimals : pair.quoteDecimals) : undefined;
  const reading = amountDecimals !== undefined ? readAmount(text, amountDecimals, { positive: true, lang }) : null;
  const money = (minor: bigint, decimals: number) => formatMoney(minor, decimals, lang);
  // The bounds are the base amounts a quote accepts; checked here only when the amount is the base side.
  let amountError: string | null = null;
  if (touched && reading && !reading.ok) amountError = t(`amount.${reading.reason}`, { asset: amountSym, decimals: amountDecimals ?? 0 });
  else if (touched && reading?.ok && pair && side === 'give') {
    if (reading.minor < pair.minBaseMinor)
      amountError = t('exchange.belowMin', { min: money(pair.minBaseMinor, pair.baseDecimals), asset: giveSym });
    else if (reading.minor > pair.maxBaseMinor)
      amountError = t('exchange.aboveMax', { max: money(pair.maxBaseMinor, pair.baseDecimals), asset: giveSym });
    else if (held && reading.minor > held.amountMinor)
      amountError = t('exchange.overAvailable', { amount: money(held.amountMinor, held.assetDecimals), asset: giveSym });
  }
  // Max: what is available, no more than the pair quotes.
  const maxMinor = held && pair ? (held.amountMinor < pair.maxBaseMinor ? held.amountMinor : pair.maxBaseMinor) : null;
  const last = pair ? lastRates.get(`${giveSym}/${getSym}`) : undefined;

  const reset = () => {
    setQuote(null);
    setNoPrice(false);
  };
  const requestQuote = async () => {
    setTouched(true);
    if (!reading?.ok || !pair) return;
    if (
      side === 'give' &&
      (reading.minor < pair.minBaseMinor || reading.minor > pair.maxBaseMinor || (held && reading.minor > held.amountMinor))
    )
      return;
    setBusy(true);
    setError(null);
    setNoPrice(false);
    setPlaced(null);
    setExpired(false);
    setQuote(null);
    try {
      const body =
        side === 'give'
          ? { baseSymbol: giveSym, quoteSymbol: getSym, amountBaseMinor: reading.minor }
          : { baseSymbol: giveSym, quoteSymbol: getSym, amountQuoteMinor: reading.minor };
      const q = await quoteKey.run(body, (idempotencyKey) => sdk.quotes.create(body, { idempotencyKey }));
      lastRates.set(`${giveSym}/${getSym}`, { rate: q.rateQuoteMinor, decimals: q.quote.assetDecimals, at: Date.now() });
      setQuote(q);
    } catch (err) {
      if (err instanceof CambioError && err.code === 'quotes.quote_below_executable_rate') setNoPrice(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void requestQuote();
  };

  const accept = async () => {
    if (!quote) return;
    setBusy(true);
    setError(null);
    try {
      const r = await orderKey.run(quote.id, (idempotencyKey) => sdk.orders.create({ quoteId: quote.id }, { idempotencyKey }));
      await refreshAfterHold(qc, 'orders');
      setPlaced(r.data);
      setQuote(null);
    } catch (err) {
      if (err instanceof CambioError && (err.code === 'orders.quote_expired' || err.code === 'quotes.quote_expired')) setExpired(true);
      else setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (balances.isPending || pairs.isPending)
    return (
      <>
        <h1>{t('exchange.title')}</h1>
        <Loading />
      </>
    );
  return (
    <>
      <h1>{t('exchange.title')}</h1>
      <ErrorBox
        error={error ?? balances.error ?? pairs.error}
        fields={{
          amountBaseMinor: t('exchange.amount', { asset: amountSym }),
          amountQuoteMinor: t('exchange.amount', { asset: amountSym }),
        }}
      />
      {!pairs.error && priced.length === 0 && <Notice tone="warning">{t('exchange.noPairs')}</Notice>}
      {!mayTrade && (
        <p className="notice" id="cannot-trade">
          {t('exchange.cannotTrade')}
        </p>
      )}
      {priced.length > 0 && (
        <form onSubmit={submit} noValidate className="card">
          <fieldset className="plain" disabled={!mayTrade} aria-describedby={mayTrade ? undefined : 'cannot-trade'}>
            <div className="row">
              <SelectField
                label={t('exchange.give')}
                value={giveSym}
                onChange={(v) => {
                  setGive(v);
                  reset();
                }}
                options={gives.map((s) => ({ value: s, label: s }))}
              />
              <SelectField
                label={t('exchange.get')}
                value={getSym}
                onChange={(v) => {
                  setGet(v);
                  reset();
                }}
                options={gets.map((s) => ({ value: s, label: s }))}
              />
            </div>
            <p className="small">
              {held
                ? t('exchange.available', { amount: money(held.amountMinor, held.assetDecimals), asset: giveSym })
                : t('exchange.available', { amount: money(0n, pair?.baseDecimals ?? 0), asset: giveSym })}
              {pair && (
                <>
                  {' · '}
                  {t('exchange.bounds', {
                    min: money(pair.minBaseMinor, pair.baseDecimals),
                    max: money(pair.maxBaseMinor, pair.baseDecimals),
                    asset: giveSym,
                  })}
                </>
              )}
            </p>
            <p className="small muted">
              {last
                ? t('exchange.lastRate', {
                    base: giveSym,
                    rate: money(last.rate, last.decimals),
                    quote: getSym,
                    time: formatTime(last.at, lang),
                  })
                : t('exchange.noRateYet')}
            </p>
            <fieldset>
              <legend>{t('exchange.amountOf')}</legend>
              <label className="choice">
                <input
                  type="radio"
                  name="side"
                  checked={side === 'give'}
                  onChange={() => {
                    setSide('give');
                    reset();
                  }}
                />{' '}
                {t('exchange.amountGive')}
              </label>
              <label className="choice">
                <input
                  type="radio"
                  name="side"
                  checked={side === 'get'}
                  onChange={() => {
                    setSide('get');
                    reset();
                  }}
                />{' '}
                {t('exchange.amountGet')}
              </label>
            </fieldset>
            <div className="with-max">
              <Field
                label={t('exchange.amount', { asset: amountSym })}
                value={text}
                inputMode="decimal"
                autoComplete="off"
                onChange={(v) => {
                  setText(v);
                  reset();
                }}
                error={amountError}
                hint={
                  reading?.ok && amountDecimals !== undefined
                    ? t(side === 'give' ? 'amount.willSend' : 'amount.willReceive', {
                        amount: money(reading.minor, amountDecimals),
                        asset: amountSym,
                      })
                    : undefined
                }
              />
              {side === 'give' && maxMinor !== null && maxMinor > 0n && pair && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={t('exchange.maxLabel', { amount: money(maxMinor, pair.baseDecimals), asset: giveSym })}
                  onClick={() => {
                    setText(typedAmount(maxMinor, pair.baseDecimals, lang));
                    setTouched(true);
                    reset();
                  }}
                >
                  {t('exchange.max')}
                </button>
              )}
            </div>
            <MagicAmounts kind="order" asset={giveSym} decimals={pair?.baseDecimals} />
            <button type="submit" disabled={busy}>
              {t('exchange.getQuote')}
            </button>
          </fieldset>
        </form>
      )}

      {noPrice && <Notice tone="warning">{t('exchange.noPrice')}</Notice>}
      {placed && (
        <Notice tone="success">
          <p>{t('exchange.placed')}</p>
          <p>
            <Link to="/orders">{t('exchange.seeOrders')}</Link>
          </p>
        </Notice>
      )}
      {quote && (
        <section className="card quote" aria-labelledby="quote-h">
          <h2 id="quote-h">{t('exchange.quote')}</h2>
          <dl className="summary">
            <dt>{t('exchange.deliver')}</dt>
            <dd>
              <Amount minor={quote.base.amountMinor} decimals={quote.base.assetDecimals} symbol={quote.base.assetSymbol} />
            </dd>
            <dt>{t('exchange.receive')}</dt>
            <dd>
              <Amount minor={quote.quote.amountMinor} decimals={quote.quote.assetDecimals} symbol={quote.quote.assetSymbol} />
            </dd>
            <dt>{t('exchange.rate')}</dt>
            <dd>
              {t('exchange.rateText', {
                base: quote.base.assetSymbol,
                rate: money(quote.rateQuoteMinor, quote.quote.assetDecimals),
                quote: quote.quote.assetSymbol,
              })}
            </dd>
          </dl>
          {expired ? (
            <div role="alert" className="notice notice-warning">
              <p>{t('exchange.expired')}</p>
              <button type="button" onClick={() => void requestQuote()} disabled={busy}>
                {t('exchange.newQuote')}
              </button>
            </div>
          ) : (
            <>
              <p className="countdown-line">
                <Countdown key={quote.id} at={quote.expiresAt} onExpire={onExpire} />
              </p>
              {mayTrade && (
                <>
                  <p className="small">{t('exchange.confirm')}</p>
                  {paused && (
                    <p className="small" id="accept-paused">
                      {t('app.pausedAction')}
                    </p>
                  )}
                  <button
                    type="button"
                    onClick={() => void accept()}
                    disabled={busy || paused}
                    aria-describedby={paused ? 'accept-paused' : undefined}
                  >
                    {t('exchange.accept')}
                  </button>
                </>
              )}
            </>
          )}
        </section>
      )}
    </>
  );
}
