import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { assertWithin, type TeamActor } from './team-actor.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A member removes another member of their organization (not themself, and not one whose role is wider
 * than their own). In the same transaction the removed member's sessions end, their keys are revoked and
 * their unused invitations are spent: they stop at once (the changes are notified to the auth cache,
 * store/auth-changes.ts).
 */
export async function removeMember(d: Deps, by: TeamActor, id: string): Promise<void> {
  if (id === by.memberId) throw new DomainError('members.cannot_remove_self');
  const at = d.clock.now();
  await d.store.uow.run(async (tx) => {
    const cur = await d.store.members.lock(tx, id, by.organizationId);
    if (!cur) throw new DomainError('members.not_found');
    assertWithin(cur.permissions, by.permissions);
    if (cur.status === 'removed') throw new DomainError('members.removed');
    await d.store.members.markRemoved(tx, id, at);
    await d.store.members.endSessions(tx, id, at);
    const keysRevoked = await d.store.keys.revokeAllOf(tx, id, at);
    await d.store.members.spendInvitations(tx, id, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'member.remove',
      subjectType: 'member',
      subjectId: id,
      before: { status: cur.status },
      after: { status: 'removed', keysRevoked },
    });
  });
}
