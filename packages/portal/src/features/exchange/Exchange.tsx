import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CambioError, type Order, type Quote } from '@cambio/sdk';
import { useCallback, useState, type FormEvent } from 'react';
import { Amount, Field, readAmount, SelectField, showMoney, useActionKey } from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { Countdown, ErrorBox, Loading, Notice } from '../../components/ui.tsx';
import { refreshAfterHold } from '../../lib/money-moved.ts';
import { Link } from '../../lib/router.ts';

type Side = 'give' | 'get';

/**
 * Choose what to deliver and what to receive, type an amount as decimal text, get a quote with a live
 * countdown, accept it before it expires. Expired: said so, with a new quote one click away.
 */
export function Exchange() {
  const { sdk, t, can } = usePortal();
  const quoteKey = useActionKey();
  const orderKey = useActionKey();
  const qc = useQueryClient();
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  // What one can receive: the assets one holds, and those the platform has a wallet for (when allowed to read them).
  const wallets = useQuery({ queryKey: ['wallets'], queryFn: () => sdk.deposits.wallets(), enabled: can('portal:deposit'), retry: false });
  const assets = balances.data ?? [];
  const receivable = [...new Set([...assets.map((a) => a.assetSymbol), ...(wallets.data ?? []).map((w) => w.assetSymbol)])];
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

  const giveSym = give || assets[0]?.assetSymbol || '';
  const getSym = get || receivable.find((a) => a !== giveSym) || '';
  // Decimals come from a response (the balance rows); an asset one holds no account in can only be received.
  const amountAsset = assets.find((a) => a.assetSymbol === (side === 'give' ? giveSym : getSym));
  const canTypeGet = assets.some((a) => a.assetSymbol === getSym);
  const reading = amountAsset ? readAmount(text, amountAsset.assetDecimals, { positive: true }) : null;
  const amountError = touched && reading && !reading.ok
    ? t(`amount.${reading.reason}`, { asset: amountAsset!.assetSymbol, decimals: amountAsset!.assetDecimals }) : null;
  const onExpire = useCallback(() => setExpired(true), []);

  const requestQuote = async () => {
    setTouched(true);
    if (giveSym === getSym) { setError(null); return; }
    if (!reading?.ok) return;
    setBusy(true); setError(null); setNoPrice(false); setPlaced(null); setExpired(false); setQuote(null);
    try {
      const body = side === 'give'
        ? { baseSymbol: giveSym, quoteSymbol: getSym, amountBaseMinor: reading.minor }
        : { baseSymbol: giveSym, quoteSymbol: getSym, amountQuoteMinor: reading.minor };
      setQuote(await quoteKey.run(body, (idempotencyKey) => sdk.quotes.create(body, { idempotencyKey })));
    } catch (err) {
      if (err instanceof CambioError && err.code === 'quotes.quote_below_executable_rate') setNoPrice(true);
      else setError(err);
    } finally { setBusy(false); }
  };
  const submit = (e: FormEvent) => { e.preventDefault(); void requestQuote(); };

  const accept = async () => {
    if (!quote) return;
    setBusy(true); setError(null);
    try {
      const r = await orderKey.run(quote.id, (idempotencyKey) => sdk.orders.create({ quoteId: quote.id }, { idempotencyKey }));
      await refreshAfterHold(qc, 'orders');
      setPlaced(r.data);
      setQuote(null);
    } catch (err) {
      if (err instanceof CambioError && (err.code === 'orders.quote_expired' || err.code === 'quotes.quote_expired')) setExpired(true);
      else setError(err);
    } finally { setBusy(false); }
  };

  if (balances.isPending) return <><h1>{t('exchange.title')}</h1><Loading /></>;
  const options = assets.map((a) => ({ value: a.assetSymbol, label: a.assetSymbol }));
  return (
    <>
      <h1>{t('exchange.title')}</h1>
      <ErrorBox error={error ?? balances.error} />
      {!can('portal:trade') && <Notice>{t('exchange.cannotTrade')}</Notice>}
      <form onSubmit={submit} noValidate className="card">
        <div className="row">
          <SelectField label={t('exchange.give')} value={giveSym} onChange={(v) => { setGive(v); setQuote(null); }} options={options} />
          <SelectField label={t('exchange.get')} value={getSym} onChange={(v) => { setGet(v); setQuote(null); if (!assets.some((a) => a.assetSymbol === v)) setSide('give'); }}
            options={receivable.map((s) => ({ value: s, label: s }))} />
        </div>
        {touched && giveSym === getSym && <p className="inline-error">{t('exchange.sameAsset')}</p>}
        <fieldset>
          <legend>{t('exchange.amountOf')}</legend>
          <label className="choice"><input type="radio" name="side" checked={side === 'give'} onChange={() => { setSide('give'); setQuote(null); }} /> {t('exchange.amountGive')}</label>
          <label className="choice"><input type="radio" name="side" checked={side === 'get'} disabled={!canTypeGet} onChange={() => { setSide('get'); setQuote(null); }} /> {t('exchange.amountGet')}</label>
        </fieldset>
        <Field
          label={t('exchange.amount', { asset: amountAsset?.assetSymbol ?? '' })} value={text} inputMode="decimal" autoComplete="off"
          onChange={(v) => { setText(v); setQuote(null); }} error={amountError}
          hint={reading?.ok ? t('amount.willSend', { minor: reading.minor.toString() }) : undefined}
        />
        <button type="submit" disabled={busy}>{t('exchange.getQuote')}</button>
      </form>

      {noPrice && <Notice tone="warning">{t('exchange.noPrice')}</Notice>}
      {placed && (
        <Notice tone="success">
          <p>{t('exchange.placed')}</p>
          <p><Link to="/orders">{t('exchange.seeOrders')}</Link></p>
        </Notice>
      )}
      {quote && (
        <section className="card quote" aria-labelledby="quote-h">
          <h2 id="quote-h">{t('exchange.quote')}</h2>
          <dl className="summary">
            <dt>{t('exchange.deliver')}</dt>
            <dd><Amount minor={quote.base.amountMinor} decimals={quote.base.assetDecimals} symbol={quote.base.assetSymbol} /></dd>
            <dt>{t('exchange.receive')}</dt>
            <dd><Amount minor={quote.quote.amountMinor} decimals={quote.quote.assetDecimals} symbol={quote.quote.assetSymbol} /></dd>
            <dt>{t('exchange.rate')}</dt>
            <dd>{t('exchange.rateText', { base: quote.base.assetSymbol, rate: showMoney(quote.rateQuoteMinor, quote.quote.assetDecimals), quote: quote.quote.assetSymbol })}</dd>
          </dl>
          {expired ? (
            <div role="alert" className="notice notice-warning">
              <p>{t('exchange.expired')}</p>
              <button type="button" onClick={() => void requestQuote()} disabled={busy}>{t('exchange.newQuote')}</button>
            </div>
          ) : (
            <>
              <p className="countdown-line"><Countdown key={quote.id} at={quote.expiresAt} onExpire={onExpire} /></p>
              {can('portal:trade') && (
                <>
                  <p className="small">{t('exchange.confirm')}</p>
                  <button type="button" onClick={() => void accept()} disabled={busy}>{t('exchange.accept')}</button>
                </>
              )}
            </>
          )}
        </section>
      )}
    </>
  );
}
