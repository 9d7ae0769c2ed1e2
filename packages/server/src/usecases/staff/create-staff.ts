import { DomainError } from '../../domain/errors.ts';
import { personNameProblem } from '../../domain/people/person-name.ts';
import { staffAudit, type StaffDeps } from './staff-deps.ts';
import type { Staff, StaffRole } from '../repositories.ts';

/**
 * A new staff person (docs/design/people-and-apps.md), invited (the invitation's hash stored with them), or active with a
 * password (the sandbox's first admin). An email already a staff person's is 409 staff.email_taken.
 */
export async function createStaff(
  d: StaffDeps,
  actor: string,
  r: { name: string; email: string; role: StaffRole },
  start: { invitation: { tokenHash: string; expiresAt: Date } } | { passwordHash: string },
): Promise<Staff> {
  // The name is printed in the invitation mail and the desk: no link, no line break (domain/people/person-name.ts).
  if (personNameProblem(r.name)) throw new DomainError('members.name_not_allowed');
  const at = d.clock.now();
  const id = d.ids.next('stf');
  return d.store.uow.run(async (tx) => {
    if (await d.store.staff.emailTaken(tx, r.email)) throw new DomainError('staff.email_taken');
    const s = await d.store.staff.insert(tx, { id, ...r, status: 'passwordHash' in start ? 'active' : 'invited', at });
    if ('passwordHash' in start) await d.store.people.putCredentials(tx, 'staff', id, { passwordHash: start.passwordHash }, at);
    else await d.store.people.createInvitation(tx, 'staff', id, start.invitation.tokenHash, start.invitation.expiresAt, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'staff.create',
      subjectType: 'staff',
      subjectId: id,
      before: null,
      after: staffAudit(s),
    });
    return s;
  });
}
