import { useQuery, useQueryClient } from '@tanstack/react-query';
import { collect, type DepositDeclaration } from '@cambio/sdk';
import { useState, type FormEvent } from 'react';
import {
  Amount,
  ErrorBox,
  Field,
  formatMoney,
  isFiat,
  Loading,
  readAmount,
  ReadAt,
  SelectField,
  StateBadge,
  useActionKey,
} from '@cambio/web-kit';
import { usePortal } from '../../lib/portal-context.ts';
import { PagedTable } from '../../components/PagedTable.tsx';
import { ALL, createdWindow, csvName, CsvDownload, ListFilters, type ListChoice } from '../../components/ListFilters.tsx';
import { csvFile, DEPOSIT_CSV_COLUMNS, depositCells } from '../../lib/list-csv.ts';
import { MagicAmounts } from '../../components/MagicAmounts.tsx';
import { SimulateDeposit } from './SimulateDeposit.tsx';
import { usePaused } from '../../lib/paused.ts';
import { ConfirmInline, Countdown, CopyButton, DateTime, Notice } from '../../components/ui.tsx';

/**
 * The open declaration: the exact amount to send, where, on which network, until when. A national
 * currency arrives by bank transfer: its bank details, and the reference to quote in the transfer.
 */
function OpenDeclaration({ d, onCancelled }: { d: DepositDeclaration; onCancelled: () => void }) {
  const { sdk, t, lang, can } = usePortal();
  const qc = useQueryClient();
  const cancelKey = useActionKey();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const fiat = isFiat(d.assetSymbol);
  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelKey.run(d.id, (idempotencyKey) => sdk.deposits.cancelDeclaration(d.id, { idempotencyKey }));
      qc.setQueryData(['open-declaration'], null);
      onCancelled();
    } catch (err) {
      setError(err);
      await qc.invalidateQueries({ queryKey: ['open-declaration'] });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };
  return (
    <section className="card declaration" aria-labelledby="decl-h">
      <h2 id="decl-h">
        {t('deposits.open')}{' '}
        <span className="small muted">
          {t('deposits.reference')}: <code>{d.reference}</code>
        </span>
      </h2>
      <p className="label">{t('deposits.sendExactly')}</p>
      <p className="big-amount">
        <span className="amount">{formatMoney(d.expectedAmountMinor, d.assetDecimals, lang)}</span>{' '}
        <span className="symbol">{d.assetSymbol}</span>
      </p>
      <CopyButton text={d.expectedAmount} label={t('deposits.sendExactly')} />
      {fiat ? (
        <p className="warning" role="note">
          {t('deposits.quoteReference', { reference: d.reference })}
        </p>
      ) : (
        <p className="small">{t('deposits.exactHint')}</p>
      )}
      {fiat && <p className="label">{t('deposits.reference')}</p>}
      {fiat && (
        <p className="network">
          <code>{d.reference}</code>
        </p>
      )}
      {fiat && <CopyButton text={d.reference} label={t('deposits.reference')} />}
      {d.network && (
        <>
          <p className="label">{fiat ? t('deposits.transfer') : t('deposits.network')}</p>
          <p className="network">{d.network}</p>
        </>
      )}
      {d.address && (
        <>
          <p className="label">{fiat ? t('deposits.bankDetails') : t('deposits.address')}</p>
          <p className="address">
            <code>{d.address}</code>
          </p>
          <CopyButton text={d.address} label={fiat ? t('deposits.bankDetails') : t('deposits.address')} />
        </>
      )}
      {d.network && !fiat && (
        <p className="warning" role="note">
          {t('deposits.warning', { network: d.network })}
        </p>
      )}
      <p className="countdown-line">
        <Countdown key={d.id} at={d.expiresAt} onExpire={() => void qc.invalidateQueries({ queryKey: ['open-declaration'] })} />
      </p>
      <ErrorBox error={error} />
      {can('portal:deposit') &&
        (confirming ? (
          <ConfirmInline
            question={t('deposits.confirmCancel', { reference: d.reference })}
            confirm={t('deposits.cancelSubmit')}
            back={t('orders.keep')}
            busy={busy}
            onConfirm={() => void cancel()}
            onCancel={() => setConfirming(false)}
          />
        ) : (
          <button type="button" className="secondary" onClick={() => setConfirming(true)}>
            {t('deposits.cancel')}
          </button>
        ))}
    </section>
  );
}

export function Deposits() {
  const { sdk, t, can, lang, sandbox } = usePortal();
  const act = useActionKey();
  const qc = useQueryClient();
  const mayDeposit = can('portal:deposit');
  const paused = usePaused();
  // Spec rule 6: the wallets are read before each deposit, never cached.
  const wallets = useQuery({
    queryKey: ['wallets'],
    queryFn: () => sdk.deposits.wallets(),
    enabled: mayDeposit,
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
  });
  const open = useQuery({ queryKey: ['open-declaration'], queryFn: () => sdk.deposits.openDeclaration() });
  const balances = useQuery({ queryKey: ['balances'], queryFn: () => sdk.balances.list() });
  // Sandbox: an asset the organization holds none of still gets its decimals (from the priced pairs) for a simulated arrival.
  const pairs = useQuery({ queryKey: ['market-pairs'], queryFn: () => sdk.market.pairs(), enabled: sandbox && mayDeposit });
  // Filtered by days only: what arrives for an organization is credited to it (an arrival no
  // declaration matched belongs to no organization until it is attributed), so one state is all it shows.
  const [applied, setApplied] = useState<ListChoice>(ALL);
  const filters = createdWindow(applied);

  const [asset, setAsset] = useState('');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const declarable = (wallets.data ?? []).filter((w) => balances.data?.some((b) => b.assetSymbol === w.assetSymbol));
  const sym = asset || declarable[0]?.assetSymbol || '';
  const decimals = balances.data?.find((b) => b.assetSymbol === sym)?.assetDecimals;
  const reading = decimals !== undefined ? readAmount(text, decimals, { positive: true, lang }) : null;
  const amountError = touched && reading && !reading.ok ? t(`amount.${reading.reason}`, { asset: sym, decimals: decimals ?? 0 }) : null;

  const declare = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!reading?.ok || decimals === undefined || paused) return;
    setBusy(true);
    setError(null);
    try {
      const body = { assetSymbol: sym, assetDecimals: decimals, declaredAmountMinor: reading.minor };
      const r = await act.run(body, (idempotencyKey) => sdk.deposits.declare(body, { idempotencyKey }));
      qc.setQueryData(['open-declaration'], r.data);
      setCancelled(false);
      setText('');
      setTouched(false);
    } catch (err) {
      setError(err);
      await qc.invalidateQueries({ queryKey: ['open-declaration'] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h1>{t('deposits.title')}</h1>
      <ErrorBox error={error ?? open.error} fields={{ declaredAmountMinor: t('common.amount') }} />
      {!mayDeposit && <Notice>{t('deposits.cannotDeposit')}</Notice>}
      {cancelled && !open.data && <Notice tone="success">{t('deposits.cancelled')}</Notice>}
      {open.data && <OpenDeclaration d={open.data} onCancelled={() => setCancelled(true)} />}

      {mayDeposit && (
        <section aria-labelledby="wallets-h">
          <h2 id="wallets-h">{t('deposits.wallets')}</h2>
          <ErrorBox error={wallets.error} />
          {wallets.isPending ? (
            <Loading />
          ) : (wallets.data ?? []).length === 0 ? (
            <p>{t('deposits.noWallets')}</p>
          ) : (
            <ul className="wallets">
              {(wallets.data ?? []).map((w) =>
                isFiat(w.assetSymbol) ? (
                  <li key={w.assetSymbol} className="card">
                    <h3>{w.assetSymbol}</h3>
                    <p className="label">{t('deposits.transfer')}</p>
                    <p className="network">{w.network}</p>
                    <p className="label">{t('deposits.bankDetails')}</p>
                    <p className="address">
                      <code>{w.address}</code>
                    </p>
                    <CopyButton text={w.address} label={`${t('deposits.bankDetails')} ${w.assetSymbol}`} />
                    <p className="warning" role="note">
                      {t('deposits.fiatWarning')}
                    </p>
                  </li>
                ) : (
                  <li key={w.assetSymbol} className="card">
                    <h3>{w.assetSymbol}</h3>
                    <p className="label">{t('deposits.network')}</p>
                    <p className="network">{w.network}</p>
                    <p className="label">{t('deposits.address')}</p>
                    <p className="address">
                      <code>{w.address}</code>
                    </p>
                    <CopyButton text={w.address} label={`${t('deposits.address')} ${w.assetSymbol}`} />
                    <p className="warning" role="note">
                      {t('deposits.warning', { network: w.network })}
                    </p>
                  </li>
                ),
              )}
            </ul>
          )}
          {wallets.data && <ReadAt at={wallets.dataUpdatedAt} />}
        </section>
      )}

      {mayDeposit && !open.data && declarable.length > 0 && (
        <section aria-labelledby="declare-h" className="card">
          <h2 id="declare-h">{t('deposits.declare')}</h2>
          <p className="hint">{t('deposits.declareHint')}</p>
          <form onSubmit={declare} noValidate>
            <SelectField
              label={t('common.asset')}
              value={sym}
              onChange={(v) => {
                setAsset(v);
                setError(null);
                setTouched(false);
              }}
              options={declarable.map((w) => ({ value: w.assetSymbol, label: w.assetSymbol }))}
            />
            <Field
              label={t('common.amount')}
              value={text}
              onChange={setText}
              inputMode="decimal"
              autoComplete="off"
              error={amountError}
              hint={
                reading?.ok && decimals !== undefined
                  ? t('deposits.cryptoWillSend', { amount: formatMoney(reading.minor, decimals, lang), asset: sym })
                  : undefined
              }
            />
            <MagicAmounts kind="declaration" asset={sym} decimals={decimals} />
            {paused && (
              <p className="small" id="declare-paused">
                {t('app.pausedAction')}
              </p>
            )}
            <button type="submit" disabled={busy || paused} aria-describedby={paused ? 'declare-paused' : undefined}>
              {t('deposits.declareSubmit')}
            </button>
          </form>
        </section>
      )}

      {sandbox && mayDeposit && wallets.data && (
        <SimulateDeposit
          wallets={wallets.data}
          open={open.data}
          decimalsOf={(a) =>
            open.data?.assetSymbol === a
              ? open.data.assetDecimals
              : (balances.data?.find((b) => b.assetSymbol === a)?.assetDecimals ??
                pairs.data?.find((p) => p.baseSymbol === a)?.baseDecimals ??
                pairs.data?.find((p) => p.quoteSymbol === a)?.quoteDecimals)
          }
        />
      )}

      <section aria-labelledby="arrived-h">
        <h2 id="arrived-h">{t('deposits.arrived')}</h2>
        <ListFilters label={t('filters.deposits')} onApply={setApplied} />
        <CsvDownload
          fileName={csvName('deposits', applied)}
          csv={async () => csvFile(DEPOSIT_CSV_COLUMNS, depositCells, await collect(sdk.deposits.iterate({ limit: 100, ...filters })))}
        />
        <PagedTable
          caption={t('deposits.arrived')}
          queryKey="deposits"
          filterKey={JSON.stringify(applied)}
          read={(p) => sdk.deposits.list({ ...p, ...filters })}
          refreshMs={open.data ? 5000 : false}
          columns={[
            { label: t('common.created'), cell: (d) => <DateTime iso={d.createdAt} /> },
            {
              label: t('common.amount'),
              num: true,
              cell: (d) => <Amount minor={d.money.amountMinor} decimals={d.money.assetDecimals} symbol={d.money.assetSymbol} />,
            },
            { label: t('deposits.network'), cell: (d) => d.network },
            { label: t('deposits.txid'), cell: (d) => <code className="break">{d.txid}</code> },
            { label: t('common.state'), cell: (d) => <StateBadge state={d.state} /> },
          ]}
        />
      </section>
    </>
  );
}
