import type { Organization } from '@cambio/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, Field, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { limitsToText, textToLimits, type Limits, type LimitsText } from './limits.ts';
import { amountWords, LANG, t } from '../../lib/i18n.ts';

/** Caps per asset: the largest base amount of one order and the largest single withdrawal. */
export function LimitsPanel({ org }: { org: Organization }) {
  const { staff } = useDesk();
  const assets = useAssets();
  const qc = useQueryClient();
  const dec = (s: string) => decimalsOf(assets.data, s);
  const limits = org.limits as Limits | null;
  const [text, setText] = useState<LimitsText | null>(null);
  const [addAsset, setAddAsset] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Limits | null>(null);
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  const editing = text !== null;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    try {
      setConfirming(textToLimits(text ?? {}, dec, amountWords));
      setError(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const unused = (assets.data ?? []).filter((a) => !(a.symbol in (text ?? {})));

  return (
    <section aria-labelledby="limits-title" className="panel">
      <h2 id="limits-title">{t('limits.title')}</h2>
      {limits === null ? (
        <p>{t('limits.none')}</p>
      ) : Object.keys(limits).length === 0 ? (
        <Empty>{t('limits.noCapLoaded')}</Empty>
      ) : (
        !editing && (
          <table>
            <caption className="visually-hidden">{t('limits.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common.asset')}</th>
                <th scope="col" className="num">
                  {t('limits.largestOrder')}
                </th>
                <th scope="col" className="num">
                  {t('limits.largestWithdrawal')}
                </th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(limits).map(([sym, caps]) => {
                const d = dec(sym) ?? 0;
                return (
                  <tr key={sym}>
                    <th scope="row">{sym}</th>
                    <td className="num">
                      {caps.maxOrderMinor != null ? <Amount minor={caps.maxOrderMinor} decimals={d} symbol={sym} /> : t('limits.noCap')}
                    </td>
                    <td className="num">
                      {caps.maxWithdrawalMinor != null ? (
                        <Amount minor={caps.maxWithdrawalMinor} decimals={d} symbol={sym} />
                      ) : (
                        t('limits.noCap')
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )
      )}
      {admin && !editing && (
        <button type="button" onClick={() => setText(limitsToText(limits, dec, LANG))}>
          {t('limits.edit')}
        </button>
      )}
      {admin && editing && (
        <form onSubmit={submit} noValidate>
          {error && (
            <p className="inline-error" role="alert">
              {error}
            </p>
          )}
          {Object.entries(text).map(([sym, lt]) => (
            <fieldset key={sym} className="grid-form">
              <legend>{sym}</legend>
              <Field
                label={t('limits.orderIn', { asset: sym })}
                inputMode="decimal"
                value={lt.maxOrder}
                hint={t('limits.emptyHint')}
                onChange={(v) => setText({ ...text, [sym]: { ...lt, maxOrder: v } })}
              />
              <Field
                label={t('limits.withdrawalIn', { asset: sym })}
                inputMode="decimal"
                value={lt.maxWithdrawal}
                hint={t('limits.emptyHint')}
                onChange={(v) => setText({ ...text, [sym]: { ...lt, maxWithdrawal: v } })}
              />
            </fieldset>
          ))}
          {unused.length > 0 && (
            <div className="inline-form">
              <SelectField
                label={t('limits.addAsset')}
                value={addAsset || unused[0]!.symbol}
                onChange={setAddAsset}
                options={unused.map((a) => ({ value: a.symbol, label: a.symbol }))}
              />
              <button
                type="button"
                onClick={() => {
                  const s = addAsset || unused[0]!.symbol;
                  setText({ ...text, [s]: { maxOrder: '', maxWithdrawal: '' } });
                  setAddAsset('');
                }}
              >
                {t('limits.add')}
              </button>
            </div>
          )}
          <div className="actions">
            <button type="submit" className="primary">
              {t('limits.save')}
            </button>
            <button
              type="button"
              onClick={() => {
                setText(null);
                setError(null);
              }}
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('limits.loadTitle', { name: org.name })}
          confirmLabel={t('limits.load')}
          onClose={() => setConfirming(null)}
          onConfirm={async () => {
            await op.organizations.update(org.id, { limits: confirming });
            setText(null);
            await qc.invalidateQueries({ queryKey: ['organization', org.id] });
          }}
        >
          <ul>
            {Object.entries(confirming).map(([sym, c]) => (
              <li key={sym}>
                {sym}: {t('limits.order')}{' '}
                {c.maxOrderMinor != null ? <Amount minor={c.maxOrderMinor} decimals={dec(sym) ?? 0} symbol={sym} /> : t('limits.noCap')},{' '}
                {t('limits.withdrawal')}{' '}
                {c.maxWithdrawalMinor != null ? (
                  <Amount minor={c.maxWithdrawalMinor} decimals={dec(sym) ?? 0} symbol={sym} />
                ) : (
                  t('limits.noCap')
                )}
              </li>
            ))}
            {Object.keys(confirming).length === 0 && <li>{t('limits.loadedNoCap')}</li>}
          </ul>
        </ConfirmDialog>
      )}
    </section>
  );
}
