import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Pair } from '@cambio/sdk';
import { Amount, DataTable, Field } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { formatMinor } from '../../lib/money.ts';
import { PricePair, type PairDraft } from './PricePair.tsx';

/** What the platform trades and receives: assets and their decimals, priced pairs, deposit wallets. */
export function MarketPage() {
  const { staff, mode } = useDesk();
  const admin = can(staff.role, 'manage') && staff.totpEnrolled;
  return (
    <Page title="Market" intro={mode === 'sandbox' ? 'The simulated market of the sandbox: prices are set here.' : 'Assets, pairs and the platform\'s deposit wallets.'}>
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
  const [confirming, setConfirming] = useState(false);
  const dOk = /^[0-9]{1,2}$/.test(decimals.trim()) && Number(decimals) <= 36;
  const sOk = /^[A-Z0-9]{2,12}$/.test(symbol.trim());
  return (
    <section aria-labelledby="assets-title" className="panel">
      <h2 id="assets-title">Assets</h2>
      {assets.isPending ? <Loading what="assets" /> : assets.error ? <ErrorNote error={assets.error} /> : assets.data.length === 0 ? <Empty>No asset listed.</Empty> : (
        <table>
          <caption className="visually-hidden">Assets and their decimals</caption>
          <thead><tr><th scope="col">Asset</th><th scope="col" className="num">Decimals</th></tr></thead>
          <tbody>{assets.data.map((a) => <tr key={a.symbol}><th scope="row">{a.symbol}</th><td className="num">{a.decimals}</td></tr>)}</tbody>
        </table>
      )}
      {admin && (
        <form className="inline-form" noValidate onSubmit={(e: FormEvent) => { e.preventDefault(); if (sOk && dOk) setConfirming(true); }}>
          <Field label="Asset symbol" value={symbol} onChange={(v) => setSymbol(v.toUpperCase())} />
          <Field label="Decimals" inputMode="numeric" value={decimals} onChange={setDecimals} error={decimals && !dOk ? 'A whole number from 0 to 36.' : null} />
          <button type="submit" disabled={!sOk || !dOk}>List asset</button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog title={`List ${symbol.trim()} with ${decimals.trim()} decimals?`} confirmLabel="List asset" onClose={() => setConfirming(false)}
          onConfirm={async () => { await op.market.putAsset(symbol.trim(), Number(decimals.trim())); setSymbol(''); setDecimals(''); await qc.invalidateQueries({ queryKey: ['market'] }); }}>
          <p>Changing the decimals of a listed asset voids quotes made with the old ones.</p>
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
      <h2 id="pairs-title">Pairs and prices</h2>
      <ReadAt at={pairs.dataUpdatedAt} fetching={pairs.isFetching} />
      {pairs.isPending ? <Loading what="pairs" /> : pairs.error ? <ErrorNote error={pairs.error} /> : pairs.data.length === 0 ? <Empty>No pair priced: clients cannot get a quote.</Empty> : (
        <DataTable caption="Priced pairs" rows={pairs.data} rowKey={(p) => `${p.baseSymbol}/${p.quoteSymbol}`} columns={[
          { label: 'Pair', rowHeader: true, cell: (p) => `${p.baseSymbol}/${p.quoteSymbol}` },
          { label: 'Mid rate', num: true, cell: (p) => p.midRate },
          { label: 'Offered rate', num: true, cell: (p) => <Amount minor={p.rateQuoteMinor} decimals={p.quoteDecimals} symbol={p.quoteSymbol} /> },
          { label: 'Spread', num: true, cell: (p) => `${p.spreadBps} bps` },
          { label: 'Fee', num: true, cell: (p) => `${p.feeBps} bps` },
          { label: 'Fixed fee', num: true, cell: (p) => <Amount minor={p.fixedFeeQuoteMinor} decimals={p.quoteDecimals} symbol={p.quoteSymbol} /> },
          { label: 'Order range (base)', num: true, cell: (p) => <><Amount minor={p.minBaseMinor} decimals={p.baseDecimals} symbol={p.baseSymbol} /> – <Amount minor={p.maxBaseMinor} decimals={p.baseDecimals} symbol={p.baseSymbol} /></> },
          { label: 'Updated', cell: (p) => when(p.updatedAt) },
          ...(admin ? [{ label: 'Actions', actions: true, cell: (p: Pair) => (
            <div className="row-actions-inline">
              {p.midRate !== '' && (
                <button type="button" onClick={() => setDraft({
                  base: p.baseSymbol, quote: p.quoteSymbol, midRate: p.midRate, spreadBps: String(p.spreadBps), feeBps: String(p.feeBps),
                  fixedFee: formatMinor(p.fixedFeeQuoteMinor, p.quoteDecimals), min: formatMinor(p.minBaseMinor, p.baseDecimals), max: formatMinor(p.maxBaseMinor, p.baseDecimals),
                })}>Change price<span className="visually-hidden"> of {p.baseSymbol}/{p.quoteSymbol}</span></button>
              )}
              <button type="button" className="danger" onClick={() => setStopping({ base: p.baseSymbol, quote: p.quoteSymbol })}>Stop pricing<span className="visually-hidden"> {p.baseSymbol}/{p.quoteSymbol}</span></button>
            </div>
          ) }] : []),
        ]} />
      )}
      {admin && <PricePair key={draft ? `${draft.base}/${draft.quote}` : 'new'} draft={draft} setDraft={setDraft} />}
      {stopping && (
        <ConfirmDialog title={`Stop pricing ${stopping.base}/${stopping.quote}?`} confirmLabel="Stop pricing" danger onClose={() => setStopping(null)}
          onConfirm={async () => { await op.market.deletePair(stopping.base, stopping.quote); await qc.invalidateQueries({ queryKey: ['market'] }); }}>
          <p>Clients can no longer quote this pair; orders already placed are not affected.</p>
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
      <h2 id="wallets-title">Deposit wallets</h2>
      <p>Clients send deposits to these addresses; a transfer on another network cannot be recovered.</p>
      {wallets.isPending ? <Loading what="wallets" /> : wallets.error ? <ErrorNote error={wallets.error} /> : wallets.data.length === 0 ? <Empty>No wallet: clients cannot deposit.</Empty> : (
        <table>
          <caption className="visually-hidden">Deposit wallets</caption>
          <thead><tr><th scope="col">Asset</th><th scope="col">Network</th><th scope="col">Address</th></tr></thead>
          <tbody>{wallets.data.map((w) => <tr key={w.assetSymbol}><th scope="row">{w.assetSymbol}</th><td><strong>{w.network}</strong></td><td><code className="break">{w.address}</code></td></tr>)}</tbody>
        </table>
      )}
      {admin && (
        <form className="inline-form" noValidate onSubmit={(e: FormEvent) => { e.preventDefault(); if (ready) setConfirming(true); }}>
          <Field label="Wallet asset" list="wallet-assets" value={form.symbol} onChange={(v) => setForm({ ...form, symbol: v.toUpperCase() })} />
          <datalist id="wallet-assets">{(assets.data ?? []).map((a) => <option key={a.symbol} value={a.symbol} />)}</datalist>
          <Field label="Wallet network" value={form.network} onChange={(v) => setForm({ ...form, network: v })} />
          <Field label="Wallet address" value={form.address} onChange={(v) => setForm({ ...form, address: v })} />
          <button type="submit" disabled={!ready}>Set wallet</button>
        </form>
      )}
      {confirming && (
        <ConfirmDialog title={`Set the ${form.symbol.trim()} deposit wallet?`} confirmLabel="Set wallet" onClose={() => setConfirming(false)}
          onConfirm={async () => { await op.wallets.put(form.symbol.trim(), { network: form.network.trim(), address: form.address.trim() }); setForm({ symbol: '', network: '', address: '' }); await qc.invalidateQueries({ queryKey: ['market', 'wallets'] }); }}>
          <p>Network <strong>{form.network.trim()}</strong>, address <code className="break">{form.address.trim()}</code>. Clients see it at their next read.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
