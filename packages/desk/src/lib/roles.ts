import type { StaffRole } from '@cambio/sdk';

/**
 * What each role is offered (docs/design/people-and-apps.md): a viewer reads; an approver also decides,
 * records fills, payouts and failures, records and attributes arrivals, runs and resolves
 * reconciliation; an admin does everything. The server refuses the rest anyway.
 */
export type Act = 'decide' | 'manage';

export function can(role: StaffRole | undefined, act: Act): boolean {
  if (role === 'admin') return true;
  if (role === 'approver') return act === 'decide';
  return false;
}
