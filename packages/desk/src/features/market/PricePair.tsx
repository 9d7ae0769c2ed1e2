import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, Field, plainDecimal, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { readAmount } from '../../lib/money.ts';
import { amountWords, LANG, t } from '../../lib/i18n.ts';
import { inverseRate, offeredRate, rateFraction } from './rates.ts';
import { VenueBook } from './VenueBooks.tsx';

const BPS = /^[0-9]{1,4}$/;

export interface PairDraft {
  base: string;
  quote: string;
  /** 'static': by the mid rate typed here; 'venue': from the venue's order book for `venueSymbol` (docs/market.md). */
  source: 'static' | 'venue';
  venueSymbol: string;
  midRate: string;
  spreadBps: string;
  feeBps: string;
  fixedFee: string;
  min: string;
  max: string;
  /** Also price quote→base from the same mid (its inverse) and spread, with its own fixed fee and order range. */
  both: boolean;
  revFixedFee: string;
  revMin: string;
  revMax: string;
}
export const EMPTY_DRAFT: Omit<PairDraft, 'base' | 'quote'> = {
  source: 'static',
  venueSymbol: '',
  midRate: '',
  spreadBps: '0',
  feeBps: '0',
  fixedFee: '0',
  min: '',
  max: '',
  both: false,
  revFixedFee: '0',
  revMin: '',
  revMax: '',
};

/** A fixed fee typed as text: "0" (or empty) is no fee; else an amount in the asset's decimals. */
function fee(text: string, decimals: number | null): { minor: bigint | null; error: string | null } {
  if (text.trim() === '' || /^0*([.,]0*)?$/.test(text.trim())) return { minor: 0n, error: null };
  if (decimals === null) return { minor: null, error: null };
  const r = readAmount(text, decimals, amountWords);
  return r.ok ? { minor: r.minor, error: null } : { minor: null, error: r.error };
}

function range(minText: string, maxText: string, decimals: number | null) {
  const min = decimals !== null ? readAmount(minText, decimals, amountWords) : null;
  const max = decimals !== null ? readAmount(maxText, decimals, amountWords) : null;
  return {
    min: min?.ok ? min.minor : null,
    max: max?.ok ? max.minor : null,
    minError: min && !min.ok ? min.error : null,
    maxError: max && !max.ok ? max.error : min?.ok && max?.ok && max.minor < min.minor ? t('price.maxBelowMin') : null,
  };
}

/**
 * Prices a pair at the market (docs/operator-guide.md, docs/design/money-and-states.md): by a mid rate, or from
 * the venue's order book for a market chosen from the venue's own list (docs/market.md); the spread and fee
 * the clients' quotes are made from, and the range of one order in the base asset. One mid can price both
 * directions: the other pair's mid is its exact inverse (rates.ts). A pair already priced is re-priced (the
 * form can be filled from its row).
 */
export function PricePair({ draft, setDraft }: { draft: PairDraft | null; setDraft: (d: PairDraft | null) => void }) {
  const assets = useAssets();
  const markets = useQuery({ queryKey: ['market', 'venue-markets'], queryFn: () => op.venue.markets(), staleTime: 60_000 });
  const qc = useQueryClient();
  const [tried, setTried] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const list = assets.data ?? [];
  const listed = new Set(list.map((a) => a.symbol));
  // Only markets of two listed assets can price a pair; a venue without market data offers none.
  const venueMarkets = (markets.data ?? []).filter((m) => listed.has(m.baseSymbol) && listed.has(m.quoteSymbol));
  const f: PairDraft = draft ?? { ...EMPTY_DRAFT, base: list[0]?.symbol ?? '', quote: list[1]?.symbol ?? list[0]?.symbol ?? '' };
  const set = (p: Partial<PairDraft>) => setDraft({ ...f, ...p });
  const venue = f.source === 'venue';
  const market = venueMarkets.find((m) => m.symbol === f.venueSymbol) ?? null;
  const db = decimalsOf(list, f.base);
  const dq = decimalsOf(list, f.quote);
  const mid = plainDecimal(f.midRate, LANG) ?? '';
  const inverse = inverseRate(mid);
  const both = !venue && f.both;
  const fixed = fee(f.fixedFee, dq);
  const own = range(f.min, f.max, db);
  const revFixed = fee(f.revFixedFee, db);
  const rev = range(f.revMin, f.revMax, dq);
  const errors = {
    pair: f.base === f.quote ? t('price.samePair') : null,
    market: !venue ? null : !market ? t('price.chooseMarket') : null,
    midRate: venue ? null : rateFraction(mid) ? (both && !inverse ? t('price.noInverse') : null) : t('price.rateError'),
    spread: BPS.test(f.spreadBps.trim()) ? null : t('price.bpsError'),
    fee: BPS.test(f.feeBps.trim()) ? null : t('price.bpsError'),
    fixed: fixed.error,
    min: own.minError,
    max: own.maxError,
    revFixed: both ? revFixed.error : null,
    revMin: both ? rev.minError : null,
    revMax: both ? rev.maxError : null,
  };
  const ready =
    Object.values(errors).every((e) => e === null) &&
    db !== null &&
    dq !== null &&
    fixed.minor !== null &&
    own.min !== null &&
    own.max !== null &&
    (!both || (revFixed.minor !== null && rev.min !== null && rev.max !== null));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (ready) setConfirming(true);
  };
  const show = (k: keyof typeof errors) => (tried ? errors[k] : null);
  const options = list.map((a) => ({ value: a.symbol, label: t('price.assetOption', { symbol: a.symbol, n: a.decimals }) }));
  const pair = `${f.base}/${f.quote}`;
  const reverse = `${f.quote}/${f.base}`;
  const spread = BPS.test(f.spreadBps.trim()) ? Number(f.spreadBps.trim()) : 0;

  return (
    <section aria-labelledby="price-title" className="subpanel">
      <h3 id="price-title">{t('price.title')}</h3>
      {list.length < 2 ? (
        <p>{t('price.listTwo')}</p>
      ) : (
        <form className="grid-form" noValidate onSubmit={submit}>
          {venueMarkets.length > 0 && (
            <SelectField
              label={t('price.source')}
              value={f.source}
              onChange={(v) => set({ source: v === 'venue' ? 'venue' : 'static' })}
              options={[
                { value: 'static', label: t('price.sourceStatic') },
                { value: 'venue', label: t('price.sourceVenue') },
              ]}
            />
          )}
          {venue && (
            <SelectField
              label={t('price.venueMarket')}
              value={f.venueSymbol}
              onChange={(v) => {
                const m = venueMarkets.find((x) => x.symbol === v);
                set(m ? { venueSymbol: v, base: m.baseSymbol, quote: m.quoteSymbol } : { venueSymbol: '' });
              }}
              options={[{ value: '', label: t('price.chooseMarket') }, ...venueMarkets.map((m) => ({ value: m.symbol, label: m.symbol }))]}
              hint={show('market') ?? t('price.venueMarketHint')}
            />
          )}
          <SelectField label={t('price.base')} value={f.base} onChange={(v) => set({ base: v })} options={options} />
          <SelectField label={t('price.quote')} value={f.quote} onChange={(v) => set({ quote: v })} options={options} />
          {!venue && (
            <Field
              label={t('market.midRate')}
              inputMode="decimal"
              value={f.midRate}
              onChange={(v) => set({ midRate: v })}
              error={show('midRate') ?? show('pair')}
              hint={t('price.midRateHint', { quote: f.quote, base: f.base })}
            />
          )}
          <Field
            label={t('price.spread')}
            inputMode="numeric"
            value={f.spreadBps}
            onChange={(v) => set({ spreadBps: v })}
            error={show('spread') ?? (venue ? show('pair') : null)}
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
          {!venue && (
            <div className="field">
              <label className="choice">
                <input type="checkbox" checked={f.both} onChange={(e) => set({ both: e.target.checked })} />
                {t('price.both', { reverse })}
              </label>
            </div>
          )}
          {both && (
            <fieldset>
              <legend>{t('price.reverseLegend', { reverse })}</legend>
              <p className="hint">
                {inverse ? t('price.inverseText', { rate: inverse, quote: f.base, base: f.quote }) : t('price.inverseLater')}
              </p>
              <Field
                label={t('price.fixedFee', { asset: f.base })}
                inputMode="decimal"
                value={f.revFixedFee}
                onChange={(v) => set({ revFixedFee: v })}
                error={show('revFixed')}
              />
              <Field
                label={t('price.min', { asset: f.quote })}
                inputMode="decimal"
                value={f.revMin}
                onChange={(v) => set({ revMin: v })}
                error={show('revMin')}
              />
              <Field
                label={t('price.max', { asset: f.quote })}
                inputMode="decimal"
                value={f.revMax}
                onChange={(v) => set({ revMax: v })}
                error={show('revMax')}
              />
            </fieldset>
          )}
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
      {venue && market && <VenueBook symbol={market.symbol} />}
      {confirming && ready && db !== null && dq !== null && fixed.minor !== null && own.min !== null && own.max !== null && (
        <ConfirmDialog
          title={
            venue
              ? t('price.confirmVenueTitle', { pair, symbol: f.venueSymbol })
              : both
                ? t('price.confirmBothTitle', { pair, reverse, rate: f.midRate.trim() })
                : t('price.confirmTitle', { pair, rate: f.midRate.trim() })
          }
          confirmLabel={t('price.submit')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            const terms = { spreadBps: spread, feeBps: Number(f.feeBps.trim()) };
            await op.market.putPair(f.base, f.quote, {
              ...(venue ? { source: 'venue' as const, venueSymbol: f.venueSymbol } : { midRate: mid }),
              ...terms,
              fixedFeeQuoteMinor: fixed.minor!,
              minBaseMinor: own.min!,
              maxBaseMinor: own.max!,
            });
            if (both)
              await op.market.putPair(f.quote, f.base, {
                midRate: inverse!,
                ...terms,
                fixedFeeQuoteMinor: revFixed.minor!,
                minBaseMinor: rev.min!,
                maxBaseMinor: rev.max!,
              });
            setDraft(null);
            setTried(false);
            await qc.invalidateQueries({ queryKey: ['market'] });
            await qc.invalidateQueries({ queryKey: ['venue'] });
          }}
        >
          <dl className="summary">
            {venue ? (
              <>
                <dt>{t('price.venueMarket')}</dt>
                <dd>{f.venueSymbol}</dd>
              </>
            ) : (
              <>
                <dt>{t('market.midRate')}</dt>
                <dd>{t('price.rateText', { rate: f.midRate.trim(), quote: f.quote, base: f.base })}</dd>
                <dt>{t('market.offeredRate')}</dt>
                <dd>
                  <Amount minor={offeredRate(mid, spread, dq) ?? 0n} decimals={dq} symbol={f.quote} /> {t('price.perOne', { base: f.base })}
                </dd>
              </>
            )}
            <dt>{t('price.spreadAndFee')}</dt>
            <dd>
              {t('market.bps', { n: f.spreadBps.trim() })} · {t('market.bps', { n: f.feeBps.trim() })} · {t('price.fixed')}{' '}
              <Amount minor={fixed.minor} decimals={dq} symbol={f.quote} />
            </dd>
            <dt>{t('price.oneOrder')}</dt>
            <dd>
              <Amount minor={own.min} decimals={db} symbol={f.base} /> {t('price.to')}{' '}
              <Amount minor={own.max} decimals={db} symbol={f.base} />
            </dd>
            {both && inverse && revFixed.minor !== null && rev.min !== null && rev.max !== null && (
              <>
                <dt>{t('price.reverseMid', { reverse })}</dt>
                <dd className="break">{t('price.rateText', { rate: inverse, quote: f.base, base: f.quote })}</dd>
                <dt>{t('price.reverseOffered', { reverse })}</dt>
                <dd>
                  <Amount minor={offeredRate(inverse, spread, db) ?? 0n} decimals={db} symbol={f.base} />{' '}
                  {t('price.perOne', { base: f.quote })}
                </dd>
                <dt>{t('price.reverseTerms', { reverse })}</dt>
                <dd>
                  {t('price.fixed')} <Amount minor={revFixed.minor} decimals={db} symbol={f.base} /> ·{' '}
                  <Amount minor={rev.min} decimals={dq} symbol={f.quote} /> {t('price.to')}{' '}
                  <Amount minor={rev.max} decimals={dq} symbol={f.quote} />
                </dd>
              </>
            )}
          </dl>
          <p className="effect">{venue ? t('price.effectVenue') : t('price.effect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
