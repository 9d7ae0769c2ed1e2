import { invitationMail, mailLang } from '../domain/mail/messages.ts';
import type { PersonKind } from '../store/people-store.ts';
import { queueMail, type MailDeps } from '../usecases/mail/outbox.ts';

/**
 * Mails a new invitation to the person it is for, once the invitation committed: in the language of the
 * person who invited them (the invitee's own is not known yet). Without mail nothing happens; the answer
 * still carries the link, shown in the app as before. Never fails the invitation itself.
 */
export async function mailInvitation(
  d: MailDeps,
  kind: PersonKind,
  p: { email: string; name: string; place: () => Promise<string | null> },
  inv: { wire: { url: string }; expiresAt: Date },
  lang: string,
): Promise<void> {
  if (!d.mail) return;
  try {
    const place = (await p.place()) ?? (mailLang(lang) === 'en' ? 'the operator' : 'el operador');
    await queueMail(
      d,
      'invitation',
      p.email,
      invitationMail(kind, { name: p.name, place, url: inv.wire.url, expiresAt: inv.expiresAt }, mailLang(lang)),
    );
  } catch (err) {
    d.logger?.error({ kind, err: { message: (err as Error).message } }, 'could not queue an invitation mail');
  }
}
