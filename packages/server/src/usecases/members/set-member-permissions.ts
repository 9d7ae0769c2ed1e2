import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { Member } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * The operator sets any member's role. The member's keys answer to the new role from their next request
 * (a key's permissions are its scopes within the role, read on every request).
 */
export async function setMemberPermissions(d: Deps, actor: string, id: string, permissions: string[]): Promise<Member> {
  const at = d.clock.now();
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.members.lock(tx, id);
    if (!cur) throw new DomainError('members.not_found');
    const member = await d.store.members.setPermissions(tx, id, at, permissions);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'member.permissions',
      subjectType: 'member',
      subjectId: id,
      before: { permissions: cur.permissions },
      after: { permissions },
    });
    return member;
  });
}
