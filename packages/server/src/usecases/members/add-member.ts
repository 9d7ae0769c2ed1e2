import { DomainError } from '../../domain/errors.ts';
import { personNameProblem } from '../../domain/people/person-name.ts';
import { assertInvitationAllowed } from './invitation-limits.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { Member, NewMember } from '../repositories.ts';

/** An invitation as stored: the hash of its token (the token is shown once, by the caller) and its expiry. */
export interface StoredInvitation {
  tokenHash: string;
  expiresAt: Date;
}

/**
 * A new member of the organization, `invited`, with the invitation's hash in the same transaction. An email
 * already held by a member who is not removed is taken (409); a removed member's email may be invited again.
 * The name is printed in Cambio's mails and pages: no link, no line break (domain/people/person-name.ts).
 * `sentByMember`: a member invites (the portal's Team), and the invitation counts toward the hourly limits.
 */
export async function addMember(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>,
  actor: string,
  organizationId: string,
  r: NewMember,
  invitation?: StoredInvitation,
  sentByMember = false,
): Promise<Member> {
  if (personNameProblem(r.name)) throw new DomainError('members.name_not_allowed');
  const at = d.clock.now();
  const id = d.ids.next('mem');
  return d.store.uow.run(async (tx) => {
    if (!(await d.store.organizations.existsIn(tx, organizationId))) throw new DomainError('organizations.not_found');
    if (await d.store.members.emailInUse(tx, organizationId, r.email)) throw new DomainError('members.email_taken');
    const sent = invitation && sentByMember ? { by: actor, email: r.email.toLowerCase() } : undefined;
    if (sent) await assertInvitationAllowed(d.store.members, tx, at, sent.by, sent.email);
    const member = await d.store.members.insert(tx, id, at, organizationId, r);
    if (invitation) await d.store.members.addInvitation(tx, id, at, invitation, sent);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'member.create',
      subjectType: 'member',
      subjectId: id,
      before: null,
      after: {
        organizationId,
        name: r.name,
        email: r.email,
        permissions: r.permissions,
        ...(invitation ? { invitationExpiresAt: invitation.expiresAt } : {}),
      },
    });
    return member;
  });
}
