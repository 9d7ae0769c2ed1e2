import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { collect, type Withdrawal } from '@cambio/sdk';
import {
  Amount,
  ErrorBox,
  Field,
  formatDateTime,
  formatMoney,
  Loading,
  readAmount,
  SelectField,
  StateBadge,
  useActionKey,
} from '@cambio/web-kit';
import { summaryWords } from '../../lib/i18n.ts';
import { MagicAmounts } from '../../components/MagicAmounts.tsx';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { ConfirmInline, DateTime, Notice } from '../../components/ui.tsx';
import { useCancel } from '../orders/Orders.tsx';
import { ALL, csvName, CsvDownload, ListFilters, REQUEST_STATES, requestFilters, type ListChoice } from '../../components/ListFilters.tsx';
import { csvFile, WITHDRAWAL_CSV_COLUMNS, withdrawalCells } from '../../lib/list-csv.ts';
import { refreshAfterHold } from '../../lib/money-moved.ts';
import { Destinations } from './Destinations.tsx';
import { usePaused } from '../../lib/paused.ts';

/** Request a withdrawal to a usable destination: a summary and a confirming click; the hold shows at once. */
function RequestWithdrawal() {
  const { sdk, t, lang } = usePortal();
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
  const paused = usePaused();
  const reading = balance ? readAmount(text, balance.assetDecimals, { positive: true, lang }) : null;
  // Above what is available the request cannot be held: said beside the amount, never at the confirm step.
  const over = reading?.ok && balance ? reading.minor > balance.amountMinor : false;
  const amountError =
    touched && reading && !reading.ok
      ? t(`amount.${reading.reason}`, { asset: balance!.assetSymbol, decimals: balance!.assetDecimals })
      : touched && over && balance
        ? t('withdrawals.overAvailable', {
            amount: formatMoney(balance.amountMinor, balance.assetDecimals, lang),
            asset: balance.assetSymbol,
          })
        : null;

  if (destinations.isPending || balances.isPending) return <Loading />;
  if (!dest) return <p>{t('withdrawals.noUsable')}</p>;

  const review = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setDone(false);
    setError(null);
    if (reading?.ok && !over && !paused) setConfirming(true);
  };
  const send = async () => {
    if (!reading?.ok || !balance || over || paused) return;
    setBusy(true);
    setError(null);
    try {
      const body = {
        destinationId: dest.id,
        assetSymbol: dest.assetSymbol,
        assetDecimals: balance.assetDecimals,
        amountMinor: reading.minor,
      };
      await act.run(body, (idempotencyKey) => sdk.withdrawals.create(body, { idempotencyKey }));
      await refreshAfterHold(qc, 'withdrawals');
      setDone(true);
      setConfirming(false);
      setText('');
      setTouched(false);
    } catch (err) {
      setError(err);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="card">
      <ErrorBox error={error} fields={{ amountMinor: t('exchange.amount', { asset: dest.assetSymbol }) }} />
      {done && <Notice tone="success">{t('withdrawals.requested')}</Notice>}
      {balance && (
        <p className="small">
          {t('balances.available')}: <Amount minor={balance.amountMinor} decimals={balance.assetDecimals} symbol={balance.assetSymbol} />
          {' · '}
          {t('balances.held')}: <Amount minor={balance.heldMinor} decimals={balance.assetDecimals} symbol={balance.assetSymbol} />
        </p>
      )}
      {confirming && reading?.ok && balance ? (
        <div className="confirm" role="group" aria-labelledby="wd-confirm">
          <p id="wd-confirm">
            {t('withdrawals.confirm', {
              amount: formatMoney(reading.minor, balance.assetDecimals, lang),
              asset: balance.assetSymbol,
              dest: `${dest.label} (${summaryWords(t, dest.summary)})`,
            })}
          </p>
          <button type="button" onClick={() => void send()} disabled={busy || paused}>
            {t('withdrawals.confirmSubmit')}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <form onSubmit={review} noValidate>
          <SelectField
            label={t('withdrawals.destination')}
            value={dest.id}
            onChange={setDestId}
            options={usable.map((d) => ({ value: d.id, label: `${d.label} — ${d.assetSymbol} — ${summaryWords(t, d.summary)}` }))}
          />
          <Field
            label={t('exchange.amount', { asset: dest.assetSymbol })}
            value={text}
            onChange={setText}
            inputMode="decimal"
            autoComplete="off"
            error={amountError}
            hint={
              reading?.ok && balance
                ? t('amount.willSend', { amount: formatMoney(reading.minor, balance.assetDecimals, lang), asset: balance.assetSymbol })
                : undefined
            }
          />
          <MagicAmounts kind="withdrawal" asset={dest.assetSymbol} decimals={balance?.assetDecimals} />
          {paused && (
            <p className="small" id="wd-paused">
              {t('app.pausedAction')}
            </p>
          )}
          <button type="submit" disabled={paused} aria-describedby={paused ? 'wd-paused' : undefined}>
            {t('withdrawals.requestSubmit')}
          </button>
        </form>
      )}
    </div>
  );
}

export function Withdrawals() {
  const { sdk, t, can, lang } = usePortal();
  const c = useCancel('withdrawals', (id, idempotencyKey) => sdk.withdrawals.cancel(id, { idempotencyKey }));
  const [applied, setApplied] = useState<ListChoice>(ALL);
  const filters = requestFilters(applied);
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: () => sdk.withdrawals.destinations() });
  const platform = useQuery({ queryKey: ['platform'], queryFn: () => sdk.session.platform() });
  /** A txid links to a block explorer only when the operator configured one for its network. */
  const explorerOf = (w: Withdrawal): string | null => {
    const network = destinations.data?.find((d) => d.id === w.destinationId)?.network;
    const template = network ? platform.data?.explorers?.[network.toUpperCase()] : undefined;
    return template && w.txid ? template.replace('{txid}', encodeURIComponent(w.txid)) : null;
  };
  const what = (w: Withdrawal) => ({
    amount: formatMoney(w.money.amountMinor, w.money.assetDecimals, lang),
    asset: w.money.assetSymbol,
    date: formatDateTime(w.createdAt, lang),
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
        <ErrorBox error={c.error} />
        {c.done && <Notice tone="success">{t('withdrawals.cancelled')}</Notice>}
        <ListFilters label={t('filters.withdrawals')} states={REQUEST_STATES} onApply={setApplied} />
        <CsvDownload
          fileName={csvName('withdrawals', applied)}
          csv={async () =>
            csvFile(WITHDRAWAL_CSV_COLUMNS, withdrawalCells, await collect(sdk.withdrawals.iterate({ limit: 100, ...filters })))
          }
        />
        <PagedTable
          caption={t('withdrawals.list')}
          queryKey="withdrawals"
          filterKey={JSON.stringify(applied)}
          read={(p) => sdk.withdrawals.list({ ...p, ...filters })}
          waiting={(w) => w.state === 'pending_approval' || w.state === 'approved'}
          columns={[
            { label: t('common.created'), cell: (w) => <DateTime iso={w.createdAt} /> },
            {
              label: t('common.amount'),
              num: true,
              cell: (w) => <Amount minor={w.money.amountMinor} decimals={w.money.assetDecimals} symbol={w.money.assetSymbol} />,
            },
            { label: t('withdrawals.destination'), cell: (w) => <code>{summaryWords(t, w.destinationSummary)}</code> },
            {
              label: t('withdrawals.txid'),
              cell: (w) => {
                if (!w.txid) return null;
                const href = explorerOf(w);
                // The whole txid: it is what the person compares with the chain (and the link's name).
                return href ? (
                  <a href={href} target="_blank" rel="noopener noreferrer" className="txid">
                    <code>{w.txid}</code>
                  </a>
                ) : (
                  <code className="txid">{w.txid}</code>
                );
              },
            },
            {
              label: t('common.state'),
              cell: (w) => (
                <>
                  <StateBadge state={w.state} />
                  {w.reason && <span className="small"> — {w.reason}</span>}
                </>
              ),
            },
            {
              label: t('orders.actions'),
              actions: true,
              cell: (w) =>
                can('portal:withdraw') && w.state === 'pending_approval' ? (
                  c.asking === w.id ? (
                    <ConfirmInline
                      question={t('withdrawals.confirmCancel')}
                      confirm={t('withdrawals.confirmCancelSubmit')}
                      back={t('orders.keep')}
                      busy={c.busy}
                      onConfirm={() => void c.run(w.id)}
                      onCancel={() => c.setAsking(null)}
                    />
                  ) : (
                    <button
                      type="button"
                      className="secondary"
                      aria-label={t('withdrawals.cancelLabel', what(w))}
                      onClick={() => c.setAsking(w.id)}
                    >
                      {t('withdrawals.cancel')}
                    </button>
                  )
                ) : null,
            },
          ]}
        />
      </section>
    </>
  );
}
