import type { UseCaseDeps } from '../ports.ts';
import type { WithdrawalRow } from '../repositories.ts';

/** The withdrawal's new state, counted once its transaction committed. */
export function countedWithdrawal(d: UseCaseDeps, w: WithdrawalRow): WithdrawalRow {
  d.tally?.transition('withdrawal', w.state);
  return w;
}

/** The record without the hold's id, which only the use cases need. */
export const strip = ({ holdId: _holdId, ...w }: WithdrawalRow & { holdId?: string }): WithdrawalRow => w;
