import { ActionKey } from '@cambio/sdk';
import { useRef, useState } from 'react';
import { MoneyText } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { op } from '../../lib/api.ts';
import type { QueueItem } from './queue.ts';

/**
 * Approves several requests, one decision per request with an Idempotency-Key of its own (kept per
 * request, so a second try after a lost answer acts once). Four-eyes still applies to each: a request
 * that needs two approvals gets this person's, and waits for another person's.
 */
export function BulkApproveDialog({ items, names, onClose, onDone }: {
  items: QueueItem[]; names: Map<string, string>; onClose: () => void; onDone: (text: string) => void;
}) {
  const keys = useRef(new Map<string, ActionKey>());
  const [progress, setProgress] = useState<string | null>(null);
  const keyFor = (id: string) => { let k = keys.current.get(id); if (!k) { k = new ActionKey('desk-'); keys.current.set(id, k); } return k; };
  const approve = async () => {
    let completed = 0; let waiting = 0; const failed: string[] = [];
    for (const [i, item] of items.entries()) {
      setProgress(`Approving ${i + 1} of ${items.length}…`);
      try {
        const state = await keyFor(item.record.id).run(item.record.id, async (idempotencyKey): Promise<string> => (item.kind === 'order'
          ? (await op.orders.approve(item.record.id, undefined, { idempotencyKey })).state
          : (await op.withdrawals.approve(item.record.id, undefined, { idempotencyKey })).state));
        if (state === 'pending_approval') waiting++; else completed++;
      } catch {
        failed.push(item.record.id);
      }
    }
    const parts = [`${completed} approved`];
    if (waiting) parts.push(`${waiting} waiting for a second approval by another person`);
    if (failed.length) parts.push(`${failed.length} not approved (${failed.join(', ')}): open each to see why`);
    onDone(`${parts.join('; ')}.`);
  };
  return (
    <ConfirmDialog title={`Approve ${items.length} request${items.length === 1 ? '' : 's'}?`} confirmLabel="Approve all selected" content={items.map((i) => i.record.id)}
      onClose={onClose} onConfirm={approve}>
      <ul className="bulk-list">
        {items.map((item) => (
          <li key={item.record.id}>
            {item.kind === 'order' ? 'Order' : 'Withdrawal'} <code>{item.record.id}</code> · {names.get(item.record.organizationId) ?? item.record.organizationId} ·{' '}
            {item.kind === 'order' ? <><MoneyText money={item.record.base} /> for <MoneyText money={item.record.quote} /></> : <MoneyText money={item.record.money} />}
          </li>
        ))}
      </ul>
      <p className="effect">Each is approved on its own, under your name: what the books do is what one approval of each does. A request that needs two approvals waits for another person.</p>
      {progress && <p role="status">{progress}</p>}
    </ConfirmDialog>
  );
}
