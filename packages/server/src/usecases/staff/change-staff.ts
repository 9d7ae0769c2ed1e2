import { DomainError } from '../../domain/errors.ts';
import { staffAudit, type StaffDeps } from './staff-deps.ts';
import type { Staff, StaffRole } from '../repositories.ts';

/** Role change; the last active admin keeps the role (someone must be able to administer). */
export async function setStaffRole(d: StaffDeps, actor: string, id: string, role: StaffRole): Promise<Staff> {
  return change(d, actor, id, 'staff.role', { role });
}

/** Removal: sessions end and tokens stop at once, in the same transaction. */
export async function removeStaff(d: StaffDeps, actor: string, id: string): Promise<Staff> {
  return change(d, actor, id, 'staff.remove', { status: 'removed' });
}

async function change(
  d: StaffDeps,
  actor: string,
  id: string,
  action: string,
  set: { role?: StaffRole; status?: 'removed' },
): Promise<Staff> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    // Every admin row is locked in one order, so two concurrent demotions cannot both pass the last-admin check.
    await d.store.staff.lockAdmins(tx);
    const cur = await d.store.staff.lock(tx, id);
    if (!cur) throw new DomainError('staff.not_found');
    if (cur.status === 'removed') throw new DomainError('staff.removed');
    const losesAdmin =
      cur.role === 'admin' && cur.status === 'active' && (set.status === 'removed' || (set.role !== undefined && set.role !== 'admin'));
    if (losesAdmin && (await d.store.staff.activeAdminCount(tx)) <= 1) throw new DomainError('staff.last_admin');
    const after = await d.store.staff.update(tx, id, set, at);
    if (set.status === 'removed') {
      await d.store.people.endSessionsOf(tx, 'staff', id, at);
      await d.store.staff.revokeTokensOf(tx, id, at);
    }
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action,
      subjectType: 'staff',
      subjectId: id,
      before: staffAudit(cur),
      after: staffAudit(after),
    });
    return after;
  });
}
