import { useState } from 'react';
import { Amount, Field, MoneyText } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TextArea } from '../../components/TextArea.tsx';
import { op } from '../../lib/api.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { when } from '../../lib/time.ts';
import { fillMargin } from './margin.ts';
import { fourEyes, type QueueItem } from './queue.ts';

export interface Decision { verb: 'approve' | 'reject' | 'fill' | 'payout' | 'fail'; item: QueueItem }

const TITLES: Record<Decision['verb'], string> = {
  approve: 'Approve', reject: 'Reject', fill: 'Record the fill of', payout: 'Record the payout of', fail: 'Mark as failed',
};

/** A summary of the request and what the decision does to the books, then one confirmed request. */
export function DecisionDialog({ decision, organization, onClose, onDone }: {
  decision: Decision; organization: string; onClose: () => void; onDone: (text: string, id: string) => void;
}) {
  const { staff, mode } = useDesk();
  const { verb, item } = decision;
  const r = item.record;
  const [reason, setReason] = useState('');
  const [venue, setVenue] = useState('');
  const [reference, setReference] = useState('');
  const [proceeds, setProceeds] = useState('');
  const noun = item.kind === 'order' ? 'order' : 'withdrawal';
  const fe = fourEyes(r, staff.id);

  const quote = item.kind === 'order' ? item.record.quote : null;
  const parsedProceeds = quote && proceeds.trim() !== '' ? readAmount(proceeds, quote.assetDecimals) : null;
  const margin = quote && parsedProceeds?.ok ? fillMargin(quote.amountMinor, parsedProceeds.minor) : null;

  const ready = verb === 'reject' || verb === 'fail' ? reason.trim() !== ''
    : verb === 'fill' ? venue.trim() !== '' && reference.trim() !== '' && !!parsedProceeds?.ok
      : verb === 'payout' ? reference.trim() !== '' : true;

  const confirm = async (idempotencyKey: string) => {
    const o = { idempotencyKey };
    let text: string;
    if (verb === 'approve') {
      const after = item.kind === 'order' ? await op.orders.approve(r.id, undefined, o) : await op.withdrawals.approve(r.id, undefined, o);
      const still = after.state === 'pending_approval';
      text = still ? `Your approval of ${noun} ${r.id} is recorded; it needs a second person.`
        : after.state === 'approved' ? `${cap(noun)} ${r.id} approved: waiting for execution.` : `${cap(noun)} ${r.id} approved: ${after.state}.`;
    } else if (verb === 'reject') {
      if (item.kind === 'order') await op.orders.reject(r.id, reason.trim(), o); else await op.withdrawals.reject(r.id, reason.trim(), o);
      text = `${cap(noun)} ${r.id} rejected; the hold is released and the client sees your reason.`;
    } else if (verb === 'fail') {
      if (item.kind === 'order') await op.orders.fail(r.id, reason.trim(), o); else await op.withdrawals.fail(r.id, reason.trim(), o);
      text = `${cap(noun)} ${r.id} marked failed; the hold is released.`;
    } else if (verb === 'fill') {
      if (!parsedProceeds?.ok) throw new Error('Enter the proceeds.');
      await op.orders.fill(r.id, { venue: venue.trim(), venueReference: reference.trim(), proceedsQuoteMinor: parsedProceeds.minor }, o);
      text = `Order ${r.id} completed with the fill ${reference.trim()} at ${venue.trim()}.`;
    } else {
      await op.withdrawals.payout(r.id, { payoutReference: reference.trim() }, o);
      text = `Withdrawal ${r.id} completed with the payout ${reference.trim()}.`;
    }
    onDone(text, r.id);
  };

  return (
    <ConfirmDialog title={`${TITLES[verb]} ${noun} ${r.id}?`} onClose={onClose} onConfirm={confirm} canConfirm={ready}
      danger={verb === 'reject' || verb === 'fail'} confirmLabel={CONFIRM[verb](noun)} content={{ verb, reason, venue, reference, proceeds }}>
      <dl className="summary">
        <dt>Organization</dt><dd>{organization}</dd>
        {item.kind === 'order' ? (
          <>
            <dt>Delivers (held)</dt><dd><MoneyText money={item.record.base} /></dd>
            <dt>Receives</dt><dd><MoneyText money={item.record.quote} /></dd>
          </>
        ) : (
          <>
            <dt>Amount (held)</dt><dd><MoneyText money={item.record.money} /></dd>
            <dt>To</dt><dd>{item.record.destinationSummary}</dd>
          </>
        )}
        <dt>Requested</dt><dd>{when(r.createdAt)}</dd>
        {verb === 'approve' && <><dt>Approvals</dt><dd>{fe.text}</dd></>}
      </dl>
      <p className="effect">{effect(decision, mode, fe.required - fe.given.length)}</p>
      {(verb === 'reject' || verb === 'fail') && (
        <TextArea label="Reason" required value={reason} onChange={setReason}
          hint={verb === 'reject' ? 'Shown to the client in their list.' : 'Why the venue or the bank did not carry it out; shown to the client.'} />
      )}
      {verb === 'fill' && quote && (
        <>
          <Field label="Venue" value={venue} onChange={setVenue} hint="Where the order was executed." />
          <Field label="Venue reference" value={reference} onChange={setReference} />
          <Field label={`Proceeds (${quote.assetSymbol})`} inputMode="decimal" value={proceeds} onChange={setProceeds}
            hint={`What the venue paid, in ${quote.assetSymbol} with up to ${quote.assetDecimals} decimals.`}
            error={parsedProceeds && !parsedProceeds.ok ? parsedProceeds.error : null} />
          {margin && parsedProceeds?.ok && (
            <div className={`margin ${margin.marginMinor < 0n ? 'margin-loss' : ''}`} role="status">
              <p>Proceeds <Amount minor={parsedProceeds.minor} decimals={quote.assetDecimals} symbol={quote.assetSymbol} /> (you will send {parsedProceeds.minor.toString()} minor units)</p>
              <p>The client receives <MoneyText money={quote} /></p>
              <p><strong>Margin <Amount minor={margin.marginMinor} decimals={quote.assetDecimals} symbol={quote.assetSymbol} />{margin.marginBps !== null ? ` (${margin.marginBps.toString()} bps)` : ''}</strong>
                {margin.marginMinor < 0n ? ' — a loss: the platform pays the difference.' : ' — booked to the platform.'}</p>
            </div>
          )}
        </>
      )}
      {verb === 'payout' && <Field label="Payout reference" value={reference} onChange={setReference} hint="The bank's reference of the transfer." />}
    </ConfirmDialog>
  );
}

const CONFIRM: Record<Decision['verb'], (noun: string) => string> = {
  approve: (n) => `Confirm approval of the ${n}`,
  reject: (n) => `Confirm rejection of the ${n}`,
  fill: () => 'Confirm the fill',
  payout: () => 'Confirm the payout',
  fail: (n) => `Confirm the ${n} failed`,
};

function effect({ verb, item }: Decision, mode: 'sandbox' | 'production', missing: number): string {
  if (verb === 'approve' && missing > 1) return 'This is the first of two approvals: it stays waiting, amount held, until another person approves.';
  if (verb === 'approve') {
    if (mode === 'production') return item.kind === 'order'
      ? 'It becomes approved; execute it at the venue, then record the fill here.'
      : 'It becomes approved; pay it out at the bank, then record the payout reference here.';
    return item.kind === 'order'
      ? 'It executes at the simulated market now: the held amount leaves and the quoted amount is credited.'
      : 'It completes now: the held amount leaves the organization.';
  }
  if (verb === 'reject') return 'The hold is released to the organization\'s available balance. This cannot be undone.';
  if (verb === 'fail') return 'It becomes failed and the hold is released. This cannot be undone.';
  if (verb === 'fill') return 'The order completes: the held amount leaves, the client is credited the quoted amount, the margin is the platform\'s.';
  return 'The withdrawal completes: the held amount leaves for good.';
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
