import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Pair } from '@cambio/sdk';
import { Amount, DataTable, ErrorBox, Field, Loading, localDigits, ReadAt, SelectField } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { formatMinor } from '../../lib/money.ts';
import { LANG, networkWord, t } from '../../lib/i18n.ts';
import { EMPTY_DRAFT, PricePair, type PairDraft } from './PricePair.tsx';
import { VenueBook } from './VenueBooks.tsx';

/** What the platform trades and receives: assets and their decimals, priced pairs, deposit wallets. */
export function MarketPage() {
  const { staff, mode } = useDesk();
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  return (
    <Page title={t('nav.market')} intro={mode === 'sandbox' ? t('market.introSandbox') : t('market.intro')}>
      <Assets admin={admin} />
      <Pairs admin={admin} />
      <Wallets admin={admin} />
    </Page>
  );
}

function Assets({ admin }: { admin: boolean }) {
  const assets = useAssets();
  const qc = useQueryClient();
  const [symbol, setSymbol] = useState('');
  const [decimals, setDecimals] = useState('');
  const [kind, setKind] = useState<'fiat' | 'crypto'>('crypto');
  const [confirming, setConfirming] = useState(false);
  const dOk = /^[0-9]{1,2}$/.test(decimals.trim()) && Number(decimals) <= 36;
  const sOk = /^[A-Z0-9]{2,12}$/.test(symbol.trim());
  return (
    <section aria-labelledby="assets-title" className="panel">
      <h2 id="assets-title">{t('market.assets')}</h2>
      {assets.isPending ? (
        <Loading what={t('market.loadingAssets')} />
      ) : assets.error ? (
        <ErrorBox error={assets.error} />
      ) : assets.data.length === 0 ? (
        <Empty>{t('market.noAsset')}</Empty>
      ) : (
        <table>
          <caption className="visually-hidden">{t('market.assetsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.asset')}</th>
              <th scope="col">{t('market.kind')}</th>
              <th scope="col" className="num">
                {t('market.decimals')}
              </th>
            </tr>
          </thead>
          <tbody>
            {assets.data.map((a) => (
              <tr key={a.symbol}>
                <th scope="row">{a.symbol}</th>
                <td>{a.kind ? t(`market.kind.${a.kind}`) : t('market.kindNone')}</td>
                <td className="num">{a.decimals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form
          className="inline-form"
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (sOk && dOk) setConfirming(true);
          }}
        >
          <Field label={t('market.assetSymbol')} value={symbol} onChange={(v) => setSymbol(v.toUpperCase())} />
          <SelectField
            label={t('market.kind')}
            value={kind}
            onChange={(v) => setKind(v === 'fiat' ? 'fiat' : 'crypto')}
            options={[
              { value: 'crypto', label: t('market.kind.crypto') },
              { value: 'fiat', label: t('market.kind.fiat') },
            ]}
          />
          <Field
            label={t('market.decimals')}
            inputMode="numeric"
            value={decimals}
            onChange={setDecimals}
            error={decimals && !dOk ? t('market.decimalsError') : null}
          />
          <button type="submit" disabled={!sOk || !dOk}>
            {t('market.listAsset')}
          </button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('market.listTitle', { symbol: symbol.trim(), decimals: decimals.trim(), kind: t(`market.kind.${kind}`) })}
          confirmLabel={t('market.listAsset')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await op.market.putAsset(symbol.trim(), Number(decimals.trim()), kind);
            setSymbol('');
            setDecimals('');
            await qc.invalidateQueries({ queryKey: ['market'] });
          }}
        >
          <p>{t('market.listEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function Pairs({ admin }: { admin: boolean }) {
  const pairs = useQuery({ queryKey: ['market', 'pairs'], queryFn: () => op.market.pairs(), refetchInterval: 15_000 });
  const qc = useQueryClient();
  const [draft, setDraft] = useState<PairDraft | null>(null);
  const [stopping, setStopping] = useState<{ base: string; quote: string } | null>(null);
  return (
    <section aria-labelledby="pairs-title" className="panel">
      <h2 id="pairs-title">{t('market.pairs')}</h2>
      <ReadAt at={pairs.dataUpdatedAt} fetching={pairs.isFetching} />
      {pairs.isPending ? (
        <Loading what={t('market.loadingPairs')} />
      ) : pairs.error ? (
        <ErrorBox error={pairs.error} />
      ) : pairs.data.length === 0 ? (
        <Empty>{t('market.noPair')}</Empty>
      ) : (
        <DataTable
          caption={t('market.pairsCaption')}
          rows={pairs.data}
          rowKey={(p) => `${p.baseSymbol}/${p.quoteSymbol}`}
          columns={[
            { label: t('market.pair'), rowHeader: true, cell: (p) => `${p.baseSymbol}/${p.quoteSymbol}` },
            {
              label: t('market.midRate'),
              num: true,
              cell: (p) =>
                p.source === 'venue' ? (
                  t('market.fromVenue', { symbol: p.venueSymbol ?? '' })
                ) : (
                  <span className="break">{localDigits(p.midRate, LANG)}</span>
                ),
            },
            {
              label: t('market.offeredRate'),
              num: true,
              // A venue-priced pair has no one rate: each quote walks the book for its amount.
              cell: (p) =>
                p.source === 'venue' ? '—' : <Amount minor={p.rateQuoteMinor} decimals={p.quoteDecimals} symbol={p.quoteSymbol} />,
            },
            { label: t('market.spread'), num: true, cell: (p) => t('market.bps', { n: p.spreadBps }) },
            { label: t('market.fee'), num: true, cell: (p) => t('market.bps', { n: p.feeBps }) },
            {
              label: t('market.fixedFee'),
              num: true,
              cell: (p) => <Amount minor={p.fixedFeeQuoteMinor} decimals={p.quoteDecimals} symbol={p.quoteSymbol} />,
            },
            {
              label: t('market.range'),
              num: true,
              cell: (p) => (
                <>
                  <Amount minor={p.minBaseMinor} decimals={p.baseDecimals} symbol={p.baseSymbol} /> –{' '}
                  <Amount minor={p.maxBaseMinor} decimals={p.baseDecimals} symbol={p.baseSymbol} />
                </>
              ),
            },
            { label: t('market.updated'), cell: (p) => when(p.updatedAt) },
            ...(admin
              ? [
                  {
                    label: t('common.actions'),
                    actions: true,
                    cell: (p: Pair) => (
                      <div className="row-actions-inline">
                        {
                          <button
                            type="button"
                            onClick={() =>
                              setDraft({
                                ...EMPTY_DRAFT,
                                base: p.baseSymbol,
                                quote: p.quoteSymbol,
                                source: p.source === 'venue' ? 'venue' : 'static',
                                venueSymbol: p.venueSymbol ?? '',
                                midRate: p.midRate,
                                spreadBps: String(p.spreadBps),
                                feeBps: String(p.feeBps),
                                fixedFee: formatMinor(p.fixedFeeQuoteMinor, p.quoteDecimals),
                                min: formatMinor(p.minBaseMinor, p.baseDecimals),
                                max: formatMinor(p.maxBaseMinor, p.baseDecimals),
                              })
                            }
                          >
                            {t('market.changePrice')}
                            <span className="visually-hidden">{t('market.ofPair', { pair: `${p.baseSymbol}/${p.quoteSymbol}` })}</span>
                          </button>
                        }
                        <button type="button" className="danger" onClick={() => setStopping({ base: p.baseSymbol, quote: p.quoteSymbol })}>
                          {t('market.stopPricing')}
                          <span className="visually-hidden">
                            {' '}
                            {p.baseSymbol}/{p.quoteSymbol}
                          </span>
                        </button>
                      </div>
                    ),
                  },
                ]
              : []),
          ]}
        />
      )}
      <VenueBook />
      {admin && <PricePair key={draft ? `${draft.base}/${draft.quote}` : 'new'} draft={draft} setDraft={setDraft} />}
      {stopping && (
        <ConfirmDialog
          title={t('market.stopTitle', { pair: `${stopping.base}/${stopping.quote}` })}
          confirmLabel={t('market.stopPricing')}
          danger
          onClose={() => setStopping(null)}
          onConfirm={async () => {
            await op.market.deletePair(stopping.base, stopping.quote);
            await qc.invalidateQueries({ queryKey: ['market'] });
          }}
        >
          <p>{t('market.stopEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function Wallets({ admin }: { admin: boolean }) {
  const wallets = useQuery({ queryKey: ['market', 'wallets'], queryFn: () => op.wallets.list() });
  const assets = useAssets();
  const qc = useQueryClient();
  const [form, setForm] = useState({ symbol: '', network: '', address: '' });
  const [confirming, setConfirming] = useState(false);
  const ready = form.symbol.trim() !== '' && form.network.trim() !== '' && /^\S+$/.test(form.address.trim());
  return (
    <section aria-labelledby="wallets-title" className="panel">
      <h2 id="wallets-title">{t('market.wallets')}</h2>
      <p>{t('market.walletsIntro')}</p>
      {wallets.isPending ? (
        <Loading what={t('market.loadingWallets')} />
      ) : wallets.error ? (
        <ErrorBox error={wallets.error} />
      ) : wallets.data.length === 0 ? (
        <Empty>{t('market.noWallet')}</Empty>
      ) : (
        <table>
          <caption className="visually-hidden">{t('market.wallets')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('common.asset')}</th>
              <th scope="col">{t('market.network')}</th>
              <th scope="col">{t('market.address')}</th>
            </tr>
          </thead>
          <tbody>
            {wallets.data.map((w) => (
              <tr key={w.assetSymbol}>
                <th scope="row">{w.assetSymbol}</th>
                <td>
                  <strong>{networkWord(w.network)}</strong>
                </td>
                <td>
                  <code className="break">{w.address}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {admin && (
        <form
          className="inline-form"
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            if (ready) setConfirming(true);
          }}
        >
          <Field
            label={t('market.walletAsset')}
            list="wallet-assets"
            value={form.symbol}
            onChange={(v) => setForm({ ...form, symbol: v.toUpperCase() })}
          />
          <datalist id="wallet-assets">
            {(assets.data ?? []).map((a) => (
              <option key={a.symbol} value={a.symbol} />
            ))}
          </datalist>
          <Field label={t('market.walletNetwork')} value={form.network} onChange={(v) => setForm({ ...form, network: v })} />
          <Field label={t('market.walletAddress')} value={form.address} onChange={(v) => setForm({ ...form, address: v })} />
          <button type="submit" disabled={!ready}>
            {t('market.setWallet')}
          </button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('market.walletTitle', { symbol: form.symbol.trim() })}
          confirmLabel={t('market.setWallet')}
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            await op.wallets.put(form.symbol.trim(), { network: form.network.trim(), address: form.address.trim() });
            setForm({ symbol: '', network: '', address: '' });
            await qc.invalidateQueries({ queryKey: ['market', 'wallets'] });
          }}
        >
          <dl className="summary">
            <dt>{t('market.network')}</dt>
            <dd>
              <strong>{form.network.trim()}</strong>
            </dd>
            <dt>{t('market.address')}</dt>
            <dd>
              <code className="break">{form.address.trim()}</code>
            </dd>
          </dl>
          <p>{t('market.walletEffect')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
