import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, Field, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { readAmount } from '../../lib/money.ts';
import { amountWords, t } from '../../lib/i18n.ts';

/** Decimal text of whole quote units per whole base unit, as the server takes `midRate`. */
const RATE = /^[0-9]{1,40}(\.[0-9]{1,36})?$/;
const BPS = /^[0-9]{1,4}$/;

export interface PairDraft {
  base: string;
  quote: string;
  midRate: string;
  spreadBps: string;
  feeBps: string;
  fixedFee: string;
  min: string;
  max: string;
}
const EMPTY: PairDraft = { base: '', quote: '', midRate: '', spreadBps: '0', feeBps: '0', fixedFee: '0', min: '', max: '' };

/**
 * Prices a pair at the market by a mid rate (docs/operator-guide.md, docs/design/money-and-states.md): the rate, spread and fee the clients'
 * quotes are made from, and the range of one order in the base asset. A pair already priced is
 * re-priced (the form can be filled from its row).
 */
export function PricePair({ draft, setDraft }: { draft: PairDraft | null; setDraft: (d: PairDraft | null) => void }) {
  const assets = useAssets();
  const qc = useQueryClient();
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const list = assets.data ?? [];
  const f = draft ?? { ...EMPTY, base: list[0]?.symbol ?? '', quote: list[1]?.symbol ?? list[0]?.symbol ?? '' };
  const set = (p: Partial<PairDraft>) => setDraft({ ...f, ...p });
  const db = decimalsOf(list, f.base);
  const dq = decimalsOf(list, f.quote);
  const fixed = dq !== null ? readAmount(f.fixedFee, dq, amountWords) : null;
  const min = db !== null ? readAmount(f.min, db, amountWords) : null;
  const max = db !== null ? readAmount(f.max, db, amountWords) : null;
  const errors = {
    pair: f.base === f.quote ? t('price.samePair') : null,
    midRate: RATE.test(f.midRate.trim()) && /[1-9]/.test(f.midRate) ? null : t('price.rateError'),
    spread: BPS.test(f.spreadBps.trim()) ? null : t('price.bpsError'),
    fee: BPS.test(f.feeBps.trim()) ? null : t('price.bpsError'),
    fixed: fixed && !fixed.ok && f.fixedFee.trim() !== '0' ? fixed.error : null,
    min: min && !min.ok ? min.error : null,
    max: max && !max.ok ? max.error : min?.ok && max?.ok && max.minor < min.minor ? t('price.maxBelowMin') : null,
  };
  const fixedMinor = f.fixedFee.trim() === '0' ? 0n : fixed?.ok ? fixed.minor : null;
  const ok = Object.values(errors).every((e) => e === null) && fixedMinor !== null && !!min?.ok && !!max?.ok && db !== null && dq !== null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (ok) setConfirming(true);
  };
  const show = (k: keyof typeof errors) => (tried ? errors[k] : null);
  const options = list.map((a) => ({ value: a.symbol, label: t('price.assetOption', { symbol: a.symbol, n: a.decimals }) }));

  return (
    <section aria-labelledby="price-title" className="subpanel">
      <h3 id="price-title">{t('price.title')}</h3>
      {list.length < 2 ? (
        <p>{t('price.listTwo')}</p>
      ) : (
        <form className="grid-form" noValidate onSubmit={submit}>
          <SelectField label={t('price.base')} value={f.base} onChange={(v) => set({ base: v })} options={options} />
          <SelectField label={t('price.quote')} value={f.quote} onChange={(v) => set({ quote: v })} options={options} />
          <Field
            label={t('market.midRate')}
            inputMode="decimal"
            value={f.midRate}
            onChange={(v) => set({ midRate: v })}
            error={show('midRate') ?? show('pair')}
            hint={t('price.midRateHint', { quote: f.quote, base: f.base })}
          />
          <Field
            label={t('price.spread')}
            inputMode="numeric"
            value={f.spreadBps}
            onChange={(v) => set({ spreadBps: v })}
            error={show('spread')}
          />
          <Field label={t('price.fee')} inputMode="numeric" value={f.feeBps} onChange={(v) => set({ feeBps: v })} error={show('fee')} />
          <Field
            label={t('price.fixedFee', { asset: f.quote })}
            inputMode="decimal"
            value={f.fixedFee}
            onChange={(v) => set({ fixedFee: v })}
            error={show('fixed')}
          />
          <Field
            label={t('price.min', { asset: f.base })}
            inputMode="decimal"
            value={f.min}
            onChange={(v) => set({ min: v })}
            error={show('min')}
          />
          <Field
            label={t('price.max', { asset: f.base })}
            inputMode="decimal"
            value={f.max}
            onChange={(v) => set({ max: v })}
            error={show('max')}
          />
          <div className="actions">
            <button type="submit" className="primary">
              {t('price.submit')}
            </button>
            {draft && (
              <button
                type="button"
                onClick={() => {
                  setDraft(null);
                  setTried(false);
                }}
              >
                {t('price.clear')}
              </button>
            )}
          </div>
        </form>
      )}
      {confirming && ok && min?.ok && max?.ok && db !== null && dq !== null && fixedMinor !== null && (
        <ConfirmDialog
          title={t('price.confirmTitle', { pair: `${f.base}/${f.quote}`, rate: f.midRate.trim() })}
          confirmLabel={t('price.submit')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await op.market.putPair(f.base, f.quote, {
              midRate: f.midRate.trim(),
              spreadBps: Number(f.spreadBps.trim()),
              feeBps: Number(f.feeBps.trim()),
              fixedFeeQuoteMinor: fixedMinor,
              minBaseMinor: min.minor,
              maxBaseMinor: max.minor,
            });
            setDraft(null);
            setTried(false);
            await qc.invalidateQueries({ queryKey: ['market'] });
          }}
        >
          <dl className="summary">
            <dt>{t('market.midRate')}</dt>
            <dd>{t('price.rateText', { rate: f.midRate.trim(), quote: f.quote, base: f.base })}</dd>
            <dt>{t('price.spreadAndFee')}</dt>
            <dd>
              {t('market.bps', { n: f.spreadBps.trim() })} · {t('market.bps', { n: f.feeBps.trim() })} · {t('price.fixed')}{' '}
              <Amount minor={fixedMinor} decimals={dq} symbol={f.quote} />
            </dd>
            <dt>{t('price.oneOrder')}</dt>
            <dd>
              <Amount minor={min.minor} decimals={db} symbol={f.base} /> {t('price.to')}{' '}
              <Amount minor={max.minor} decimals={db} symbol={f.base} />
            </dd>
          </dl>
          <p className="effect">{t('price.effect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
