import type { UseCaseDeps } from '../ports.ts';
import { addMember, type StoredInvitation } from './add-member.ts';
import { assertWithin, type TeamActor } from './team-actor.ts';
import type { Member, NewMember } from '../repositories.ts';

type Deps = Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>;

/** A member invites another to their own organization, with permissions no wider than their own. */
export async function inviteMember(d: Deps, by: TeamActor, r: NewMember, invitation: StoredInvitation): Promise<Member> {
  assertWithin(r.permissions, by.permissions);
  return addMember(d, by.actor, by.organizationId, r, invitation, true);
}
