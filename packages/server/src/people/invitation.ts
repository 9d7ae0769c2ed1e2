import { hashOpaque, newOpaque } from '../domain/people/tokens.ts';

export const INVITATION_TTL_MS = 7 * 86_400_000;

/**
 * A one-time invitation: the token goes in the url's fragment (never sent to a server, so never in a
 * log); only its hash is stored. Members open `…/portal/invitation#<token>`, staff `…/desk/invitation#<token>`.
 */
export function newInvitation(secret: string, publicUrl: string, kind: 'member' | 'staff', now: Date) {
  const token = newOpaque();
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  return {
    tokenHash: hashOpaque(secret, 'invitation', token),
    expiresAt,
    wire: { url: `${publicUrl}/${kind === 'member' ? 'portal' : 'desk'}/invitation#${token}`, expiresAt: expiresAt.toISOString() },
  };
}
