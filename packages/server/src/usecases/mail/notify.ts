import { approvalRequestedMail, mailLang, notificationMail, type MailText } from '../../domain/mail/messages.ts';
import type { MailedEvent, MailRecipient } from '../repositories.ts';
import type { Tx } from '../ports.ts';
import { sealMail, type MailDeps } from './outbox.ts';

/**
 * Mails the decisions people wait for (an exchange or a withdrawal approved or rejected, a deposit
 * credited) to the organization's members who manage its team, and a request that waits for the
 * organization's approval to the members who may approve it, the initiator aside (docs/controls.md),
 * each in their language. It reads the
 * committed events, so a mail is never written in the transaction that moved the money, and a change
 * rolled back is never mailed. The mails are queued and the cursor moved in one transaction that holds
 * the cursor, so two instances never mail one event twice, and a crash mails it later, not never.
 */
export async function mailNotifications(d: MailDeps & { publicUrl: string }, limit = 100): Promise<number> {
  if (!d.mail) return 0;
  return d.store.uow.run(async (tx) => {
    const from = await d.store.mail.lockEventCursor(tx);
    const events = await d.store.mail.eventsAfter(tx, from, limit);
    if (events.length === 0) return 0;
    const at = d.clock.now();
    let queued = 0;
    for (const e of events) {
      const { recipients, mail } = await messageOf(d, tx, e);
      for (const r of recipients) {
        const m = mail(r);
        if (!m) continue;
        const id = d.ids.next('mail');
        await d.store.mail.enqueueNotification(tx, { id, to: r.email, sealed: sealMail(d.secret, id, r.email, m) }, at);
        queued += 1;
      }
    }
    await d.store.mail.advanceEventCursor(tx, events[events.length - 1]!);
    return queued;
  });
}

/** Who hears of one event, and the mail each of them reads. */
async function messageOf(
  d: MailDeps & { publicUrl: string },
  tx: Tx,
  e: MailedEvent,
): Promise<{ recipients: MailRecipient[]; mail: (r: MailRecipient) => MailText | null }> {
  if (e.type === 'approval.requested') {
    const kind = String(e.data.kind ?? '');
    const id = String(e.data.id ?? '');
    const a = await d.store.mail.approvers(tx, {
      organizationId: e.organizationId,
      kind,
      requestId: id,
      initiatorMemberId: String(e.data.requestedBy ?? ''),
    });
    const required = typeof e.data.required === 'number' ? e.data.required : 1;
    return {
      recipients: a.recipients,
      mail: (r) =>
        approvalRequestedMail(
          { kind, id, required, organization: a.organization, initiator: a.initiator, money: a.money, portalUrl: d.publicUrl },
          mailLang(r.lang),
        ),
    };
  }
  const { organization, recipients } = await d.store.mail.audience(tx, e.organizationId);
  return { recipients, mail: (r) => notificationMail(e.type, e.data, { organization, portalUrl: d.publicUrl }, mailLang(r.lang)) };
}
