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

/** The words of `FourEyes.text` in the desk's language (lib/i18n.ts passes them; English by default, for Node's tests). */
export interface FourEyesWords {
  none: (required: number) => string;
  some: (given: number, required: number, names: string[]) => string;
}

export const ENGLISH_FOUR_EYES: FourEyesWords = {
  none: (required) => `No approval yet (${required} needed)`,
  some: (given, required, names) =>
    `${given} of ${required} approval${required === 1 ? '' : 's'}${names.length ? `, by ${names.join(' and ')}` : ''}`,
};

export function fourEyes(r: FourEyesFields, myId: string, words: FourEyesWords = ENGLISH_FOUR_EYES): FourEyes {
  const required = r.approvalsRequired ?? 1;
  const given = r.approvals ?? [];
  const text =
    given.length === 0
      ? words.none(required)
      : words.some(
          given.length,
          required,
          given.map((a) => a.name),
        );
  return { required, given, text, mine: given.some((a) => a.staffId === myId) };
}
