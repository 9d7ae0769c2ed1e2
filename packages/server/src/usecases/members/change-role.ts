import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { assertWithin, type TeamActor } from './team-actor.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A member gives another member of their organization (another organization's is not found) a new role:
 * no wider than their own, and only to a member whose role is not wider than their own; a removed member
 * keeps none (409).
 */
export async function changeRole(d: Deps, by: TeamActor, id: string, permissions: string[]): Promise<void> {
  const at = d.clock.now();
  await d.store.uow.run(async (tx) => {
    const cur = await d.store.members.lock(tx, id, by.organizationId);
    if (!cur) throw new DomainError('members.not_found');
    assertWithin(permissions, by.permissions);
    assertWithin(cur.permissions, by.permissions);
    if (cur.status === 'removed') throw new DomainError('members.removed');
    await d.store.members.setPermissions(tx, id, at, permissions);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'member.permissions',
      subjectType: 'member',
      subjectId: id,
      before: { permissions: cur.permissions },
      after: { permissions },
    });
  });
}
