import { DomainError } from '../../domain/errors.ts';
import type { MembersRepository, Tx } from '../repositories.ts';

/**
 * How many invitations (new or sent again) a member may send, and an address may receive from members,
 * in any hour (docs/security.md, "Invitations"). A team invites a few people at a time; a person needs a
 * resend or two. Past either, `429 members.invitations_limited` with Retry-After: the seconds until the
 * oldest invitation counted leaves the hour. The operator's invitations are not counted.
 */
export const INVITATIONS_PER_MEMBER_PER_HOUR = 20;
export const INVITATIONS_PER_ADDRESS_PER_HOUR = 3;
export const INVITATION_WINDOW_MS = 3_600_000;

/**
 * Refuses the invitation `by` is about to send to `email` when either count is full. Counted under locks held
 * until `tx` ends (the sender's, then the address's), so invitations sent at the same moment never all pass
 * the last place; the caller writes the invitation in the same transaction.
 */
export async function assertInvitationAllowed(
  members: Pick<MembersRepository, 'lockInvitationCounts' | 'invitationsSince'>,
  tx: Tx,
  at: Date,
  by: string,
  email: string,
): Promise<void> {
  await members.lockInvitationCounts(tx, by, email);
  const since = new Date(at.getTime() - INVITATION_WINDOW_MS);
  for (const [who, max] of [
    [{ by }, INVITATIONS_PER_MEMBER_PER_HOUR],
    [{ email }, INVITATIONS_PER_ADDRESS_PER_HOUR],
  ] as const) {
    const sent = await members.invitationsSince(tx, who, since);
    if (sent.count >= max) {
      const waitMs = BigInt((sent.oldest ?? at).getTime() + INVITATION_WINDOW_MS - at.getTime());
      const seconds = waitMs <= 1000n ? 1n : (waitMs + 999n) / 1000n;
      throw new DomainError('members.invitations_limited', { seconds: String(seconds) });
    }
  }
}
