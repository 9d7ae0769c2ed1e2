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
import { amountWords, fourEyesWords, t, type MessageKey } from '../../lib/i18n.ts';

export interface Decision {
  verb: 'approve' | 'reject' | 'fill' | 'payout' | 'fail';
  item: QueueItem;
}

/** A decision's words, one per verb and kind: Spanish nouns carry their gender into the sentence. */
const words = (verb: Decision['verb'], kind: QueueItem['kind'], part: 'title' | 'confirm'): MessageKey =>
  `decision.${verb}.${kind}.${part}`;

/** A summary of the request and what the decision does to the books, then one confirmed request. */
export function DecisionDialog({
  decision,
  organization,
  onClose,
  onDone,
}: {
  decision: Decision;
  organization: string;
  onClose: () => void;
  onDone: (text: string, id: string) => void;
}) {
  const { staff, mode } = useDesk();
  const { verb, item } = decision;
  const r = item.record;
  const [reason, setReason] = useState('');
  const [venue, setVenue] = useState('');
  const [reference, setReference] = useState('');
  const [proceeds, setProceeds] = useState('');
  const k = item.kind;
  const fe = fourEyes(r, staff.id, fourEyesWords);

  const quote = item.kind === 'order' ? item.record.quote : null;
  const parsedProceeds = quote && proceeds.trim() !== '' ? readAmount(proceeds, quote.assetDecimals, amountWords) : null;
  const margin = quote && parsedProceeds?.ok ? fillMargin(quote.amountMinor, parsedProceeds.minor) : null;

  const ready =
    verb === 'reject' || verb === 'fail'
      ? reason.trim() !== ''
      : verb === 'fill'
        ? venue.trim() !== '' && reference.trim() !== '' && !!parsedProceeds?.ok
        : verb === 'payout'
          ? reference.trim() !== ''
          : true;

  const confirm = async (idempotencyKey: string) => {
    const o = { idempotencyKey };
    let text: string;
    if (verb === 'approve') {
      const after = item.kind === 'order' ? await op.orders.approve(r.id, undefined, o) : await op.withdrawals.approve(r.id, undefined, o);
      const still = after.state === 'pending_approval';
      text = still
        ? t(`decision.mine.${k}`, { id: r.id })
        : after.state === 'approved'
          ? t(`decision.approvedToExecute.${k}`, { id: r.id })
          : after.state === 'completed'
            ? t(`decision.approvedCompleted.${k}`, { id: r.id })
            : t(`decision.approvedState.${k}`, { id: r.id, state: after.state });
    } else if (verb === 'reject') {
      if (item.kind === 'order') await op.orders.reject(r.id, reason.trim(), o);
      else await op.withdrawals.reject(r.id, reason.trim(), o);
      text = t(`decision.rejected.${k}`, { id: r.id });
    } else if (verb === 'fail') {
      if (item.kind === 'order') await op.orders.fail(r.id, reason.trim(), o);
      else await op.withdrawals.fail(r.id, reason.trim(), o);
      text = t(`decision.failed.${k}`, { id: r.id });
    } else if (verb === 'fill') {
      if (!parsedProceeds?.ok) throw new Error(t('decision.enterProceeds'));
      await op.orders.fill(r.id, { venue: venue.trim(), venueReference: reference.trim(), proceedsQuoteMinor: parsedProceeds.minor }, o);
      text = t('decision.filled', { id: r.id, reference: reference.trim(), venue: venue.trim() });
    } else {
      await op.withdrawals.payout(r.id, { payoutReference: reference.trim() }, o);
      text = t('decision.paidOut', { id: r.id, reference: reference.trim() });
    }
    onDone(text, r.id);
  };

  return (
    <ConfirmDialog
      title={t(words(verb, k, 'title'), { id: r.id })}
      onClose={onClose}
      onConfirm={confirm}
      canConfirm={ready}
      danger={verb === 'reject' || verb === 'fail'}
      confirmLabel={t(words(verb, k, 'confirm'))}
      content={{ verb, reason, venue, reference, proceeds }}
    >
      <dl className="summary">
        <dt>{t('common.organization')}</dt>
        <dd>{organization}</dd>
        {item.kind === 'order' ? (
          <>
            <dt>{t('decision.deliversHeld')}</dt>
            <dd>
              <MoneyText money={item.record.base} />
            </dd>
            <dt>{t('common.receives')}</dt>
            <dd>
              <MoneyText money={item.record.quote} />
            </dd>
          </>
        ) : (
          <>
            <dt>{t('decision.amountHeld')}</dt>
            <dd>
              <MoneyText money={item.record.money} />
            </dd>
            <dt>{t('decision.to')}</dt>
            <dd>{item.record.destinationSummary}</dd>
          </>
        )}
        <dt>{t('decision.requested')}</dt>
        <dd>{when(r.createdAt)}</dd>
        {verb === 'approve' && (
          <>
            <dt>{t('approvals.approvalsCol')}</dt>
            <dd>{fe.text}</dd>
          </>
        )}
      </dl>
      <p className="effect">{effect(decision, mode, fe.required - fe.given.length)}</p>
      {(verb === 'reject' || verb === 'fail') && (
        <TextArea
          label={t('common.reason')}
          required
          value={reason}
          onChange={setReason}
          hint={verb === 'reject' ? t('decision.rejectHint') : t('decision.failHint')}
        />
      )}
      {verb === 'fill' && quote && (
        <>
          <Field label={t('decision.venue')} value={venue} onChange={setVenue} hint={t('decision.venueHint')} />
          <Field label={t('decision.venueReference')} value={reference} onChange={setReference} />
          <Field
            label={t('decision.proceeds', { asset: quote.assetSymbol })}
            inputMode="decimal"
            value={proceeds}
            onChange={setProceeds}
            hint={t('decision.proceedsHint', { asset: quote.assetSymbol, decimals: quote.assetDecimals })}
            error={parsedProceeds && !parsedProceeds.ok ? parsedProceeds.error : null}
          />
          {margin && parsedProceeds?.ok && (
            <div className={`margin ${margin.marginMinor < 0n ? 'margin-loss' : ''}`} role="status">
              <p>
                {t('decision.proceedsLine')}{' '}
                <Amount minor={parsedProceeds.minor} decimals={quote.assetDecimals} symbol={quote.assetSymbol} />
                {t('decision.minorSent', { n: parsedProceeds.minor.toString() })}
              </p>
              <p>
                {t('decision.clientReceives')} <MoneyText money={quote} />
              </p>
              <p>
                <strong>
                  {t('decision.margin')} <Amount minor={margin.marginMinor} decimals={quote.assetDecimals} symbol={quote.assetSymbol} />
                  {margin.marginBps !== null ? ` (${margin.marginBps.toString()} bps)` : ''}
                </strong>
                {margin.marginMinor < 0n ? t('decision.loss') : t('decision.booked')}
              </p>
            </div>
          )}
        </>
      )}
      {verb === 'payout' && (
        <Field label={t('decision.payoutReference')} value={reference} onChange={setReference} hint={t('decision.payoutHint')} />
      )}
    </ConfirmDialog>
  );
}

function effect({ verb, item }: Decision, mode: 'sandbox' | 'production', missing: number): string {
  if (verb === 'approve' && missing > 1) return t('decision.effect.firstOfTwo');
  if (verb === 'approve') {
    if (mode === 'production') return item.kind === 'order' ? t('decision.effect.prodOrder') : t('decision.effect.prodWithdrawal');
    return item.kind === 'order' ? t('decision.effect.sandboxOrder') : t('decision.effect.sandboxWithdrawal');
  }
  if (verb === 'reject') return t('decision.effect.reject');
  if (verb === 'fail') return t('decision.effect.fail');
  if (verb === 'fill') return t('decision.effect.fill');
  return t('decision.effect.payout');
}
