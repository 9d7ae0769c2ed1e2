import type { OperatorDestination } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, DataTable, Field, SelectField, formatMoney } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNote } from '../../components/ErrorNote.tsx';
import { ReadAt } from '../../components/ReadAt.tsx';
import { Empty, Loading } from '../../components/Section.tsx';
import { TextArea } from '../../components/TextArea.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { LANG } from '../../lib/i18n.ts';

const destinationsKey = (id: string) => ['organization', id, 'destinations'] as const;

/** Where the organization's withdrawals may go: each bank destination, and its registration in the market. */
export function DestinationsPanel({ id }: { id: string }) {
  const { staff } = useDesk();
  const qc = useQueryClient();
  const d = useQuery({ queryKey: destinationsKey(id), queryFn: () => op.destinations.list({ organizationId: id, limit: 100 }), refetchInterval: 15_000 });
  const [registering, setRegistering] = useState<OperatorDestination | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;
  const rows = d.data?.items.filter((x) => x.organizationId === id) ?? [];
  return (
    <section aria-labelledby="destinations-title" className="panel">
      <h2 id="destinations-title">Destinations</h2>
      <p className="intro">A withdrawal can go only to a destination registered in the market, once its cooling-off period has passed.</p>
      <div role="status">{done && <p className="ok-note">{done}</p>}</div>
      <ReadAt at={d.dataUpdatedAt} fetching={d.isFetching} />
      {d.isPending ? <Loading what="destinations" /> : d.error ? <ErrorNote error={d.error} /> : rows.length === 0 ? <Empty>No destination yet: the organization adds them in the portal.</Empty> : (
        <DataTable caption="Withdrawal destinations" rows={rows} rowKey={(x) => x.id} columns={[
          { label: 'Destination', rowHeader: true, cell: (x) => <>{x.label}<br /><code className="small">{x.id}</code></> },
          { label: 'Asset', cell: (x) => x.assetSymbol },
          { label: 'Bank account', cell: (x) => <>{x.summary}<br /><span className="small">{x.holderName}</span></> },
          { label: 'In the market', cell: (x) => (x.registeredInMarketAt ? `Registered ${when(x.registeredInMarketAt)}` : 'Not registered') },
          { label: 'Usable', cell: (x) => (x.usable ? 'Usable' : x.registeredInMarketAt ? `Not yet: cooling off until ${when(x.cooldownUntil)}` : 'Not until registered') },
          { label: 'Actions', actions: true, cell: (x) => (decides && !x.registeredInMarketAt
            ? <button type="button" className="primary" onClick={() => setRegistering(x)}>Register in market<span className="visually-hidden"> {x.label}</span></button>
            : null) },
        ]} />
      )}
      {registering && (
        <ConfirmDialog title={`Register ${registering.label} in the market?`} confirmLabel="Register in market" content={registering.id} onClose={() => setRegistering(null)}
          onConfirm={async (idempotencyKey) => {
            const r = await op.destinations.registerInMarket(registering.id, { idempotencyKey });
            setDone(`${r.label} is registered in the market${r.usable ? ' and usable now' : ''}.`);
            await qc.invalidateQueries({ queryKey: destinationsKey(id) });
          }}>
          <dl className="summary">
            <dt>Bank account</dt><dd>{registering.summary}</dd>
            <dt>Holder</dt><dd>{registering.holderName}</dd>
            <dt>Asset</dt><dd>{registering.assetSymbol}</dd>
          </dl>
          <p className="effect">Confirm only once the market has registered this account: withdrawals to it become possible.</p>
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
  const parsed = decimals !== null ? readAmount(amount, decimals) : null;
  const positive = parsed?.ok && parsed.minor > 0n;
  const ready = !!positive && reason.trim() !== '';
  const signed = parsed?.ok ? (direction === 'debit' ? -parsed.minor : parsed.minor) : 0n;
  const submit = (e: FormEvent) => { e.preventDefault(); setTried(true); if (ready) setConfirming(true); };
  return (
    <section aria-labelledby="adjust-title" className="panel">
      <h2 id="adjust-title">Adjust a balance</h2>
      <p className="intro">A correction or a funding outside the usual flows, with its reason; it is recorded in the ledger and the audit trail under your name.</p>
      <div role="status">{done && <p className="ok-note">{done}</p>}</div>
      <form className="grid-form" noValidate onSubmit={submit}>
        <SelectField label="Adjustment asset" value={symbol} onChange={setAsset} options={(assets.data ?? []).map((a) => ({ value: a.symbol, label: a.symbol }))} />
        <SelectField label="Direction" value={direction} onChange={(v) => setDirection(v === 'debit' ? 'debit' : 'credit')}
          options={[{ value: 'credit', label: 'Credit (adds to available)' }, { value: 'debit', label: 'Debit (takes from available)' }]} />
        <Field label="Adjustment amount" inputMode="decimal" value={amount} onChange={setAmount}
          error={tried ? (parsed && !parsed.ok ? parsed.error : !positive ? 'Enter an amount greater than zero.' : null) : null}
          hint={decimals !== null ? `Up to ${decimals} decimals.` : undefined} />
        <TextArea label="Reason" value={reason} onChange={setReason} required hint={tried && !reason.trim() ? 'Say why: it is kept with the entry.' : 'Kept with the entry, e.g. "refund of bank fee, ticket 481".'} />
        <div className="actions"><button type="submit">Adjust balance</button></div>
      </form>
      {confirming && parsed?.ok && decimals !== null && (
        <ConfirmDialog title={`${direction === 'debit' ? 'Debit' : 'Credit'} ${name}?`} confirmLabel="Confirm adjustment" danger={direction === 'debit'}
          content={[id, symbol, signed, reason.trim()]} onClose={() => setConfirming(false)}
          onConfirm={async (idempotencyKey) => {
            const r = await op.organizations.adjust(id, { assetSymbol: symbol, amountMinor: signed, reason: reason.trim() }, { idempotencyKey });
            setDone(`Adjusted: available ${symbol} is now ${formatMoney(r.availableMinor, r.assetDecimals, LANG)} ${symbol}.`);
            setAmount(''); setReason(''); setTried(false);
            await qc.invalidateQueries({ queryKey: ['organization', id] });
          }}>
          <dl className="summary">
            <dt>{direction === 'debit' ? 'Debit' : 'Credit'}</dt><dd><Amount minor={parsed.minor} decimals={decimals} symbol={symbol} /></dd>
            <dt>Reason</dt><dd>{reason.trim()}</dd>
          </dl>
          <p className="effect">{direction === 'debit' ? 'Taken from the available balance; refused if it would go below zero.' : 'Added to the available balance at once.'}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
