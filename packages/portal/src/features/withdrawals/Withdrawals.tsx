import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { usePortal, useActionKey } from '../../app/context.tsx';
import { Amount, DateTime, ErrorBox, Field, Loading, Notice, Pager, ReadAt, Select, StateBadge } from '../../components/ui.tsx';
import { readAmount, showMoney } from '../../lib/money.ts';
import { Destinations } from './Destinations.tsx';

/** Request a withdrawal to a usable destination: a summary and a confirming click; the hold shows at once. */
function RequestWithdrawal() {
  const { sdk, t } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: () => sdk.withdrawals.destinations() });
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  const usable = (destinations.data ?? []).filter((d) => d.usable);
  const [destId, setDestId] = useState('');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const dest = usable.find((d) => d.id === destId) ?? usable[0];
  const balance = balances.data?.find((b) => b.assetSymbol === dest?.assetSymbol);
  const reading = balance ? readAmount(text, balance.assetDecimals) : null;
  const amountError = touched && reading && !reading.ok ? t(`amount.${reading.reason}`, { asset: balance!.assetSymbol, decimals: balance!.assetDecimals }) : null;

  if (destinations.isPending || balances.isPending) return <Loading />;
  if (!dest) return <p>{t('withdrawals.noUsable')}</p>;

  const review = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true); setDone(false); setError(null);
    if (reading?.ok) setConfirming(true);
  };
  const send = async () => {
    if (!reading?.ok || !balance) return;
    setBusy(true); setError(null);
    try {
      const body = { destinationId: dest.id, assetSymbol: dest.assetSymbol, assetDecimals: balance.assetDecimals, amountMinor: reading.minor };
      await act.run(body, (idempotencyKey) => sdk.withdrawals.create(body, { idempotencyKey }));
      setDone(true); setConfirming(false); setText(''); setTouched(false);
      await qc.invalidateQueries({ queryKey: ['balances'] });
      await qc.invalidateQueries({ queryKey: ['withdrawals'] });
    } catch (err) { setError(err); setConfirming(false); } finally { setBusy(false); }
  };

  return (
    <div className="card">
      <ErrorBox error={error} />
      {done && <Notice tone="success">{t('withdrawals.requested')}</Notice>}
      {balance && (
        <p className="small">
          {t('balances.available')}: <Amount minor={balance.amountMinor} decimals={balance.assetDecimals} symbol={balance.assetSymbol} />
          {' · '}{t('balances.held')}: <Amount minor={balance.heldMinor} decimals={balance.assetDecimals} symbol={balance.assetSymbol} />
        </p>
      )}
      {confirming && reading?.ok && balance ? (
        <div className="confirm" role="group" aria-labelledby="wd-confirm">
          <p id="wd-confirm">{t('withdrawals.confirm', { amount: showMoney(reading.minor, balance.assetDecimals), asset: balance.assetSymbol, dest: `${dest.label} (${dest.summary})` })}</p>
          <button type="button" onClick={() => void send()} disabled={busy}>{t('withdrawals.confirmSubmit')}</button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>{t('common.cancel')}</button>
        </div>
      ) : (
        <form onSubmit={review} noValidate>
          <Select label={t('withdrawals.destination')} value={dest.id} onChange={setDestId} options={usable.map((d) => ({ value: d.id, label: `${d.label} — ${d.assetSymbol} — ${d.summary}` }))} />
          <Field label={t('exchange.amount', { asset: dest.assetSymbol })} value={text} onChange={setText} inputMode="decimal" autoComplete="off" error={amountError}
            hint={reading?.ok ? t('amount.willSend', { minor: reading.minor.toString() }) : undefined} />
          <button type="submit">{t('withdrawals.requestSubmit')}</button>
        </form>
      )}
    </div>
  );
}

export function Withdrawals() {
  const { sdk, t, can } = usePortal();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['withdrawals', page], queryFn: () => sdk.withdrawals.list({ page, limit: 10 }), placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((w) => w.state === 'pending_approval' || w.state === 'approved') ? 3000 : false),
  });
  return (
    <>
      <h1>{t('withdrawals.title')}</h1>
      <Destinations />
      {can('portal:withdraw') && (
        <section aria-labelledby="wd-h">
          <h2 id="wd-h">{t('withdrawals.request')}</h2>
          <RequestWithdrawal />
        </section>
      )}
      <section aria-labelledby="wdl-h">
        <h2 id="wdl-h">{t('withdrawals.list')}</h2>
        <ErrorBox error={q.error} />
        {q.isPending ? <Loading /> : q.data && (q.data.items.length === 0 ? <p>{t('common.none')}</p> : (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">{t('withdrawals.list')}</caption>
                <thead><tr>
                  <th scope="col">{t('common.created')}</th>
                  <th scope="col" className="num">{t('common.amount')}</th>
                  <th scope="col">{t('withdrawals.destination')}</th>
                  <th scope="col">{t('common.state')}</th>
                </tr></thead>
                <tbody>
                  {q.data.items.map((w) => (
                    <tr key={w.id}>
                      <td data-label={t('common.created')}><DateTime iso={w.createdAt} /></td>
                      <td className="num" data-label={t('common.amount')}><Amount minor={w.money.amountMinor} decimals={w.money.assetDecimals} symbol={w.money.assetSymbol} /></td>
                      <td data-label={t('withdrawals.destination')}><code>{w.destinationSummary}</code></td>
                      <td data-label={t('common.state')}><StateBadge state={w.state} />{w.reason && <span className="small"> — {w.reason}</span>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pager page={page} totalPages={q.data.pagination.totalPages} onPage={setPage} />
            <ReadAt at={q.dataUpdatedAt} />
          </>
        ))}
      </section>
    </>
  );
}
