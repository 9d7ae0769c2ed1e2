import { DomainError } from '../../domain/errors.ts';
import type { UseCaseDeps } from '../ports.ts';
import { addMember, type StoredInvitation } from './add-member.ts';
import { assertWithin, type TeamActor } from './team-actor.ts';
import type { Member, NewMember } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/**
 * A member invites another to their own organization, with permissions no wider than their own. Not an
 * address that already has an active account in another organization (409 members.email_has_account): the
 * inviter receives the link, and would choose that person's password for a second account of their address
 * (docs/security.md, "Accounts of one address"). The operator may add such a person; its link is handed over by people.
 */
export async function inviteMember(d: Deps, by: TeamActor, r: NewMember, invitation: StoredInvitation): Promise<Member> {
  assertWithin(r.permissions, by.permissions);
  await assertNoAccountElsewhere(d, by.organizationId, r.email);
  return addMember(d, by.actor, by.organizationId, r, invitation, true);
}

/** Refuses a member's invitation to an address with an active account in another organization (in theirs, it is taken). */
export async function assertNoAccountElsewhere(d: Pick<Deps, 'store'>, organizationId: string, email: string): Promise<void> {
  if ((await d.store.people.activeMemberOrganizations(email)).some((o) => o !== organizationId))
    throw new DomainError('members.email_has_account');
}
