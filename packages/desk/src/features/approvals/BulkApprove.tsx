import { ActionKey } from '@cambio/sdk';
import { useRef, useState } from 'react';
import { MoneyText } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { op } from '../../lib/api.ts';
import type { QueueItem } from './queue.ts';
import { t } from '../../lib/i18n.ts';

/**
 * Approves several requests, one decision per request with an Idempotency-Key of its own (kept per
 * request, so a second try after a lost answer acts once). Four-eyes still applies to each: a request
 * that needs two approvals gets this person's, and waits for another person's.
 */
export function BulkApproveDialog({
  items,
  names,
  onClose,
  onDone,
}: {
  items: QueueItem[];
  names: Map<string, string>;
  onClose: () => void;
  onDone: (text: string) => void;
}) {
  const keys = useRef(new Map<string, ActionKey>());
  const [progress, setProgress] = useState<string | null>(null);
  const keyFor = (id: string) => {
    let k = keys.current.get(id);
    if (!k) {
      k = new ActionKey('desk-');
      keys.current.set(id, k);
    }
    return k;
  };
  const approve = async () => {
    let completed = 0;
    let waiting = 0;
    const failed: string[] = [];
    for (const [i, item] of items.entries()) {
      setProgress(t('bulk.progress', { i: i + 1, n: items.length }));
      try {
        const state = await keyFor(item.record.id).run(item.record.id, async (idempotencyKey): Promise<string> =>
          item.kind === 'order'
            ? (await op.orders.approve(item.record.id, undefined, { idempotencyKey })).state
            : (await op.withdrawals.approve(item.record.id, undefined, { idempotencyKey })).state,
        );
        if (state === 'pending_approval') waiting++;
        else completed++;
      } catch {
        failed.push(item.record.id);
      }
    }
    const parts = [t('bulk.approved', { n: completed })];
    if (waiting) parts.push(t('bulk.waiting', { n: waiting }));
    if (failed.length) parts.push(t('bulk.failed', { n: failed.length, ids: failed.join(', ') }));
    onDone(`${parts.join('; ')}.`);
  };
  return (
    <ConfirmDialog
      title={items.length === 1 ? t('bulk.title1') : t('bulk.titleN', { n: items.length })}
      confirmLabel={t('bulk.confirm')}
      content={items.map((i) => i.record.id)}
      onClose={onClose}
      onConfirm={approve}
    >
      <ul className="bulk-list">
        {items.map((item) => (
          <li key={item.record.id}>
            {item.kind === 'order' ? t('common.order') : t('common.withdrawal')} <code>{item.record.id}</code> ·{' '}
            {names.get(item.record.organizationId) ?? item.record.organizationId} ·{' '}
            {item.kind === 'order' ? (
              <>
                <MoneyText money={item.record.base} />
                {t('bulk.for')}
                <MoneyText money={item.record.quote} />
              </>
            ) : (
              <MoneyText money={item.record.money} />
            )}
          </li>
        ))}
      </ul>
      <p className="effect">{t('bulk.effect')}</p>
      {progress && <p role="status">{progress}</p>}
    </ConfirmDialog>
  );
}
