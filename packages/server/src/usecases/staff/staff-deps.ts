import type { UseCaseDeps } from '../ports.ts';
import type { Staff } from '../repositories.ts';

/** What the staff use cases work with. */
export type StaffDeps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/** A staff person as the audit trail shows them. */
export const staffAudit = (s: Staff) => ({ name: s.name, email: s.email, role: s.role, status: s.status });
