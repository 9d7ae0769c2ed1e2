import type { OperatorDestination } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, DataTable, ErrorBox, Field, formatMoney, Loading, ReadAt, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { TextArea } from '../../components/TextArea.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { amountWords, LANG, t } from '../../lib/i18n.ts';
import { RevealAccountDialog } from './RevealAccount.tsx';

const destinationsKey = (id: string) => ['organization', id, 'destinations'] as const;

/** Where the organization's withdrawals may go: each bank destination, and its registration in the market. */
export function DestinationsPanel({ id }: { id: string }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const d = useQuery({
    queryKey: destinationsKey(id),
    queryFn: () => op.destinations.list({ organizationId: id, limit: 100 }),
    refetchInterval: 15_000,
  });
  const [registering, setRegistering] = useState<OperatorDestination | null>(null);
  const [revealing, setRevealing] = useState<OperatorDestination | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;
  const rows = d.data?.items.filter((x) => x.organizationId === id) ?? [];
  return (
    <section aria-labelledby="destinations-title" className="panel">
      <h2 id="destinations-title">{t('dest.title')}</h2>
      <p className="intro">{t('dest.intro')}</p>
      <div role="status">{done && <p className="ok-note">{done}</p>}</div>
      <ReadAt at={d.dataUpdatedAt} fetching={d.isFetching} />
      {d.isPending ? (
        <Loading what={t('dest.loading')} />
      ) : d.error ? (
        <ErrorBox error={d.error} />
      ) : rows.length === 0 ? (
        <Empty>{t('dest.none')}</Empty>
      ) : (
        <DataTable
          caption={t('dest.caption')}
          rows={rows}
          rowKey={(x) => x.id}
          columns={[
            {
              label: t('dest.destination'),
              rowHeader: true,
              cell: (x) => (
                <>
                  {x.label}
                  <br />
                  <code className="small">{x.id}</code>
                </>
              ),
            },
            { label: t('common.asset'), cell: (x) => x.assetSymbol },
            {
              label: t('dest.bankAccount'),
              cell: (x) => (
                <>
                  {x.summary}
                  <br />
                  <span className="small">{x.holderName}</span>
                </>
              ),
            },
            {
              label: t('dest.inMarket'),
              cell: (x) =>
                x.registeredInMarketAt ? t('dest.registered', { when: when(x.registeredInMarketAt) }) : t('dest.notRegistered'),
            },
            {
              label: t('dest.usable'),
              cell: (x) =>
                x.usable
                  ? t('dest.usable')
                  : x.registeredInMarketAt
                    ? t('dest.coolingOff', { when: when(x.cooldownUntil) })
                    : t('dest.notUntil'),
            },
            {
              label: t('common.actions'),
              actions: true,
              cell: (x) =>
                decides ? (
                  <>
                    {!x.registeredInMarketAt && (
                      <button type="button" className="primary" onClick={() => setRegistering(x)}>
                        {t('dest.register')}
                        <span className="visually-hidden"> {x.label}</span>
                      </button>
                    )}{' '}
                    <button type="button" onClick={() => setRevealing(x)}>
                      {t('reveal.action')}
                      <span className="visually-hidden"> {x.label}</span>
                    </button>
                  </>
                ) : null,
            },
          ]}
        />
      )}
      {revealing && <RevealAccountDialog destination={revealing} onClose={() => setRevealing(null)} />}
      {registering && (
        <ConfirmDialog
          title={t('dest.registerTitle', { label: registering.label })}
          confirmLabel={t('dest.register')}
          content={registering.id}
          onClose={() => setRegistering(null)}
          onConfirm={async (idempotencyKey) => {
            const r = await op.destinations.registerInMarket(registering.id, { idempotencyKey });
            setDone(t(r.usable ? 'dest.doneUsable' : 'dest.done', { label: r.label }));
            await qc.invalidateQueries({ queryKey: destinationsKey(id) });
          }}
        >
          <dl className="summary">
            <dt>{t('dest.bankAccount')}</dt>
            <dd>{registering.summary}</dd>
            <dt>{t('dest.holder')}</dt>
            <dd>{registering.holderName}</dd>
            <dt>{t('common.asset')}</dt>
            <dd>{registering.assetSymbol}</dd>
          </dl>
          <p className="effect">{t('dest.effect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/**
 * A manual ledger adjustment with its reason (a correction, sandbox funding): a credit or a debit of
 * the available balance, booked as a balanced entry; the server refuses a debit below zero.
 */
export function AdjustmentPanel({ id, name }: { id: string; name: string }) {
  const assets = useAssets();
  const qc = useQueryClient();
  const [asset, setAsset] = useState('');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const symbol = asset || assets.data?.[0]?.symbol || '';
  const decimals = decimalsOf(assets.data, symbol);
  const parsed = decimals !== null ? readAmount(amount, decimals, amountWords) : null;
  const positive = parsed?.ok && parsed.minor > 0n;
  const ready = !!positive && reason.trim() !== '';
  const signed = parsed?.ok ? (direction === 'debit' ? -parsed.minor : parsed.minor) : 0n;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (ready) setConfirming(true);
  };
  return (
    <section aria-labelledby="adjust-title" className="panel">
      <h2 id="adjust-title">{t('adjust.title')}</h2>
      <p className="intro">{t('adjust.intro')}</p>
      <div role="status">{done && <p className="ok-note">{done}</p>}</div>
      <form className="grid-form" noValidate onSubmit={submit}>
        <SelectField
          label={t('adjust.asset')}
          value={symbol}
          onChange={setAsset}
          options={(assets.data ?? []).map((a) => ({ value: a.symbol, label: a.symbol }))}
        />
        <SelectField
          label={t('adjust.direction')}
          value={direction}
          onChange={(v) => setDirection(v === 'debit' ? 'debit' : 'credit')}
          options={[
            { value: 'credit', label: t('adjust.credit') },
            { value: 'debit', label: t('adjust.debit') },
          ]}
        />
        <Field
          label={t('adjust.amount')}
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={tried ? (parsed && !parsed.ok ? parsed.error : !positive ? t('adjust.positive') : null) : null}
          hint={decimals !== null ? t('adjust.decimals', { n: decimals }) : undefined}
        />
        <TextArea
          label={t('common.reason')}
          value={reason}
          onChange={setReason}
          required
          hint={tried && !reason.trim() ? t('adjust.sayWhy') : t('adjust.reasonHint')}
        />
        <div className="actions">
          <button type="submit">{t('adjust.submit')}</button>
        </div>
      </form>
      {confirming && parsed?.ok && decimals !== null && (
        <ConfirmDialog
          title={t(direction === 'debit' ? 'adjust.debitTitle' : 'adjust.creditTitle', { name })}
          confirmLabel={t('adjust.confirm')}
          danger={direction === 'debit'}
          content={[id, symbol, signed, reason.trim()]}
          onClose={() => setConfirming(false)}
          onConfirm={async (idempotencyKey) => {
            const r = await op.organizations.adjust(
              id,
              { assetSymbol: symbol, amountMinor: signed, reason: reason.trim() },
              { idempotencyKey },
            );
            setDone(t('adjust.done', { asset: symbol, amount: formatMoney(r.availableMinor, r.assetDecimals, LANG) }));
            setAmount('');
            setReason('');
            setTried(false);
            await qc.invalidateQueries({ queryKey: ['organization', id] });
          }}
        >
          <dl className="summary">
            <dt>{direction === 'debit' ? t('adjust.debitWord') : t('adjust.creditWord')}</dt>
            <dd>
              <Amount minor={parsed.minor} decimals={decimals} symbol={symbol} />
            </dd>
            <dt>{t('common.reason')}</dt>
            <dd>{reason.trim()}</dd>
          </dl>
          <p className="effect">{direction === 'debit' ? t('adjust.debitEffect') : t('adjust.creditEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
