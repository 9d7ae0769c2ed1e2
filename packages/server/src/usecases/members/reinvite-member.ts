import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { StoredInvitation } from './add-member.ts';
import { assertInvitationAllowed } from './invitation-limits.ts';
import { assertNoAccountElsewhere } from './invite-member.ts';
import { assertWithin, type TeamActor } from './team-actor.ts';
import type { Member } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A fresh invitation for a member of the organization still invited (and whose role is not wider than the
 * inviter's): every earlier unused link of theirs is spent in the same transaction, so only the newest one
 * signs them in. Counts toward the hourly limits of the sender and of the address (invitation-limits.ts).
 * The member as it is, to mail them.
 */
export async function reinviteMember(d: Deps, by: TeamActor, id: string, invitation: StoredInvitation): Promise<Member> {
  const at = d.clock.now();
  // The address may have become another organization's active member since the first invitation: read
  // before the transaction (its own reads), then the member is read again, locked.
  const email = await d.store.people.emailOfMember(by.organizationId, id);
  if (email !== null) await assertNoAccountElsewhere(d, by.organizationId, email);
  return d.store.uow.run(async (tx) => {
    const cur = await d.store.members.lock(tx, id, by.organizationId);
    if (!cur) throw new DomainError('members.not_found');
    assertWithin(cur.permissions, by.permissions);
    if (cur.status !== 'invited') throw new DomainError('members.not_invited');
    const sent = { by: by.actor, email: cur.email.toLowerCase() };
    await assertInvitationAllowed(d.store.members, tx, at, sent.by, sent.email);
    await d.store.members.spendInvitations(tx, id, at);
    await d.store.members.addInvitation(tx, id, at, invitation, sent);
    await d.store.audit.record(tx, d.ids, at, {
      actor: by.actor,
      action: 'member.reinvite',
      subjectType: 'member',
      subjectId: id,
      before: null,
      after: { invitationExpiresAt: invitation.expiresAt },
    });
    return cur;
  });
}
