import { mailLang, notificationMail } from '../../domain/mail/messages.ts';
import { sealMail, type MailDeps } from './outbox.ts';

/**
 * Mails the decisions people wait for (an exchange or a withdrawal approved or rejected, a deposit
 * credited) to the organization's members who manage its team, each in their language. It reads the
 * committed events, so a mail is never written in the transaction that moved the money, and a change
 * rolled back is never mailed.
 */
export async function mailNotifications(d: MailDeps & { publicUrl: string }, limit = 100): Promise<number> {
  if (!d.mail) return 0;
  return d.store.mail.mailEvents(limit, (e, organization, recipients) => recipients.flatMap((r) => {
    const m = notificationMail(e.type, e.data, { organization, portalUrl: d.publicUrl }, mailLang(r.lang));
    if (!m) return [];
    const id = d.ids.next('mail');
    return [{ id, to: r.email, sealed: sealMail(d.secret, id, r.email, m) }];
  }));
}
