import type { OperatorOrder, OperatorWithdrawal } from '@cambio/sdk';

/** Four-eyes fields of an operator record (docs/design/people-and-apps.md); absent before the server has them. */
export interface Approval {
  staffId: string;
  name: string;
  at: string;
}
interface FourEyesFields {
  approvals?: Approval[];
  approvalsRequired?: number;
}

export type QueueItem =
  { kind: 'order'; record: OperatorOrder & FourEyesFields } | { kind: 'withdrawal'; record: OperatorWithdrawal & FourEyesFields };

/** One queue of both kinds, what waits longest first (ties by id, so the order is stable). */
export function oldestFirst(orders: OperatorOrder[], withdrawals: OperatorWithdrawal[]): QueueItem[] {
  const items: QueueItem[] = [
    ...orders.map((record) => ({ kind: 'order' as const, record })),
    ...withdrawals.map((record) => ({ kind: 'withdrawal' as const, record })),
  ];
  return items.sort((a, b) => {
    const t = Date.parse(a.record.createdAt) - Date.parse(b.record.createdAt);
    return t !== 0 ? t : a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
  });
}

export interface FourEyes {
  required: number;
  given: Approval[];
  /** "1 of 2 approvals, by Ana Ruiz", "No approval yet (1 needed)". */
  text: string;
  /** The signed-in person already approved: a second approval must come from someone else. */
  mine: boolean;
}

export function fourEyes(r: FourEyesFields, myId: string): FourEyes {
  const required = r.approvalsRequired ?? 1;
  const given = r.approvals ?? [];
  const by = given.length ? `, by ${given.map((a) => a.name).join(' and ')}` : '';
  const text =
    given.length === 0
      ? `No approval yet (${required} needed)`
      : `${given.length} of ${required} approval${required === 1 ? '' : 's'}${by}`;
  return { required, given, text, mine: given.some((a) => a.staffId === myId) };
}
